/* sysb_fixture.h: a fixture image for the live/rootfs backend's unit tests
 * (test_sysb_*.c): its etc files, a tree of paths with owners, modes, links
 * and setuid programs, the backend opened on it, and the probes asked with
 * their answers shown as the evidence shows them (hp_value_format), so that
 * every message is pinned. */
#ifndef HP_TEST_SYSB_FIXTURE_H
#define HP_TEST_SYSB_FIXTURE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fixture.h"
#include "probe/sysbackend.h"

typedef struct {
	char *dir;
	hp_sysbackend *s;
	hp_pool pool;
	char buf[2048];
} sx_fx;

/* cmocka setup and teardown: a fresh image with sx_image_etc's files, a
 * pool; the backend (once opened) destroyed and the tree removed. */
int sx_setup(void **state);
int sx_teardown(void **state);

/* Write (or rewrite) a root-owned 0644 file; remove one. */
void sx_put(const char *dir, const char *rel, const char *text);
void sx_rm(const char *dir, const char *rel);

/* An image's etc: users root, hangar (FX_HANGAR), agent (FX_AGENT); groups
 * with the agent in FX_GROUP's "docker"; shadow and nsswitch.conf. */
void sx_image_etc(const char *d);

/* The paths the path probes are asked of: /usr/bin with setuid and setgid
 * programs (and one the agent owns), a world-writable /usr/local/bin, /tmp,
 * hangar's 0700 /var/lib/hangar-ctl, the agent's home, links (/bin, one out
 * of the image), a fifo, a hard link. */
void sx_tree(const char *d);

/* A system.posix_acl_access ACL granting user uid rw on dir/rel. */
void sx_acl_user_rw(const char *dir, const char *rel, uid_t uid);

/* A rootfs backend over dir; aborts the test when it cannot be opened. */
hp_sysbackend *sx_open_image(const char *dir);
/* The backend over f's image, opened on first use. */
hp_sysbackend *sx_sb(sx_fx *f);
/* The role the next questions are asked as: its credentials. */
void sx_as_role(sx_fx *f, hp_role r, uid_t uid, gid_t gid, uint64_t caps);

/* The live backend of this process as role r with the credentials uid
 * and gid (the process has them: as_role) and the canaries given (NULL:
 * none); NULL when it cannot be opened. */
hp_sysbackend *sx_open_live(hp_role r, uid_t uid, gid_t gid, hp_canary *const *canary);

/* A value as the evidence shows it, in out (sx_show: in f->buf, valid until
 * the next call), and probes asked with a string, an integer or no
 * argument. */
void sx_format(hp_value v, char *out, size_t n);
const char *sx_show(sx_fx *f, hp_value v);
const char *sx_ask_str(sx_fx *f, hp_role r, hp_probe_id p, const char *arg);
const char *sx_ask_int(sx_fx *f, hp_role r, hp_probe_id p, int64_t arg);
const char *sx_ask_none(sx_fx *f, hp_role r, hp_probe_id p);

/* One probe asked live, in the agent's own process (sx_ask_as_agent, run
 * by fx_run_as as FX_AGENT), of each path rel[i] below dir, its answers
 * in got[i]: in shared memory, so that the parent reads them.
 * sx_live_asks_new maps it, sx_live_asks_add adds a path, munmap frees. */
enum { SX_LIVE_ASKS_MAX = 16 };
typedef struct {
	const char *dir;
	hp_probe_id probe;
	size_t n;
	char rel[SX_LIVE_ASKS_MAX][32];
	char got[SX_LIVE_ASKS_MAX][1024];
} sx_live_asks;
sx_live_asks *sx_live_asks_new(const char *dir, hp_probe_id probe);
void sx_live_asks_add(sx_live_asks *c, const char *rel);
int sx_ask_as_agent(void *arg);

#endif
