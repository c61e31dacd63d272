/* fixture.h: real directory trees for the runtime's unit tests: a temp dir
 * with files, directories, symlinks and FIFOs of chosen owners and modes,
 * removed afterwards, and a way to run a test body as a raw uid in a forked
 * child. Nothing here creates a user: uids are plain numbers. */
#ifndef HP_TEST_FIXTURE_H
#define HP_TEST_FIXTURE_H

#include <stddef.h>
#include <sys/types.h>
#include <unistd.h>

#include "os/safe_path.h"

/* Throwaway ids no user database names, different for every test process
 * (other test suites may run at the same time on the machine, and the
 * tests count and attack processes by uid). */
uid_t fx_uid(int k);
#define FX_AGENT fx_uid(0)
#define FX_OTHER fx_uid(1)
#define FX_HANGAR fx_uid(2)
#define FX_GROUP fx_uid(3)

/* A fresh 0755 directory under /tmp; free with fx_rmtree. */
char *fx_tmpdir(void);
/* Remove a tree (clearing chattr flags first) and free dir. */
void fx_rmtree(char *dir);

/* Create under root (relative path), chown and chmod; abort on failure. */
void fx_dir(const char *root, const char *rel, unsigned mode, uid_t uid, gid_t gid);
void fx_file(const char *root, const char *rel, const char *content, unsigned mode, uid_t uid,
             gid_t gid);
void fx_link(const char *root, const char *rel, const char *target);
void fx_fifo(const char *root, const char *rel, unsigned mode);
/* root/rel as a fresh string */
char *fx_path(const char *root, const char *rel);

/* Run fn(arg) in a child with uid/gid (no supplementary groups, no caps):
 * its return value is the child's exit status; 255 when the switch failed,
 * 256 + signal when it was killed. */
int fx_run_as(uid_t uid, gid_t gid, int (*fn)(void *arg), void *arg);
/* fn(arg) in a forked child, as this process is (for a seccomp filter or
 * another change that must not outlive the test): its exit status, or 256
 * plus the signal that ended it. */
int fx_in_child(int (*fn)(void *arg), void *arg);

/* In a child about to test what happens without procfs: a mount namespace
 * of its own with a tmpfs over /proc. 0, or -1 when it cannot be made. */
int fx_hide_procfs(void);

/* Skip the current cmocka test (with a message) when not root. */
#define FX_NEED_ROOT()                                          \
	do {                                                    \
		if (geteuid() != 0) {                           \
			print_message("skipped: needs root\n"); \
			skip();                                 \
		}                                               \
	} while (0)

/* Count processes whose real uid is uid (scans /proc). */
int fx_count_procs_of_uid(uid_t uid);

/* A paused child of uid (no supplementary groups), dumpable as given,
 * running as that uid when this returns; fx_stop kills and reaps it.
 * Aborts the test when it cannot be made. */
pid_t fx_sleeper(uid_t uid, int dumpable);
void fx_stop(pid_t pid);

/* In a forked test child: make system call nr fail with err from now on
 * (a seccomp filter, as old container profiles and gVisor do). 0 on
 * success. */
int fx_seccomp_fail(const int *nrs, size_t n, int err);

/* Set or clear chattr +i (+a) on a file or directory. 0 on success. */
int fx_set_immutable(const char *path, int on);
int fx_set_append(const char *path, int on);

/* A system.posix_acl_access value of n entries {tag, perm, id} (the
 * kernel's layout: a version word, then 8 bytes an entry) in b, which holds
 * 4 + 8 * n bytes; returns its length. */
size_t fx_acl_blob(unsigned char *b, const unsigned (*ents)[3], size_t n);
/* That ACL (at most 16 entries) set on root/rel; abort on failure. */
void fx_set_acl(const char *root, const char *rel, const unsigned (*ents)[3], size_t n);

/* A fixture tree opened as a root (safe_path.h): a fresh fx_tmpdir that
 * fill (NULL: none) populates, then hp_os_root_open on it; abort on
 * failure. fx_rooted_free closes the root and removes the tree. */
typedef struct {
	char *dir;
	hp_root root;
} fx_rooted;
fx_rooted *fx_rooted_new(void (*fill)(const char *dir));
void fx_rooted_free(fx_rooted *f);

#endif
