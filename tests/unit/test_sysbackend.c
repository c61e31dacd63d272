/* test_sysbackend.c: the live/rootfs backend's answers on fixture image
 * roots: users, groups and passwords from the image's etc files (and every
 * way those fail closed), a path's facts, access computed from owners,
 * modes and ACLs and checked against the kernel's, writable_ancestor,
 * setuid_root, writable_entries, LIVE probes skipped offline, env. Each answer is compared as
 * the evidence shows it (hp_value_format), so every message is pinned. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fixture.h"
#include "probe/sysbackend.h"

typedef struct {
	char *dir;
	hp_sysbackend *s;
	hp_pool pool;
	char buf[2048];
} fx;

/* Write (or rewrite) a root-owned 0644 file. */
static void rm_at(const char *dir, const char *rel)
{
	char *p = fx_path(dir, rel);
	unlink(p);
	free(p);
}

static void put(const char *dir, const char *rel, const char *text)
{
	char *p = fx_path(dir, rel);
	FILE *fp = fopen(p, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(chmod(p, 0644), 0);
	free(p);
}

/* An image: users root, hangar (FX_HANGAR), agent (FX_AGENT); groups with
 * the agent in FX_GROUP's "docker". */
static void image_etc(const char *d)
{
	char pw[1024], gr[1024];
	fx_dir(d, "etc", 0755, 0, 0);
	snprintf(pw, sizeof pw,
	         "root:x:0:0:root:/root:/bin/sh\n"
	         "hangar:x:%u:%u:driver:/var/lib/hangar:/usr/sbin/nologin\n"
	         "agent:x:%u:%u:agent:/home/agent:/bin/sh\n",
	         (unsigned)FX_HANGAR, (unsigned)FX_HANGAR, (unsigned)FX_AGENT, (unsigned)FX_AGENT);
	snprintf(gr, sizeof gr, "root:x:0:\nhangar:x:%u:\nagent:x:%u:\ndocker:x:%u:agent\n",
	         (unsigned)FX_HANGAR, (unsigned)FX_AGENT, (unsigned)FX_GROUP);
	put(d, "etc/passwd", pw);
	put(d, "etc/group", gr);
	fx_file(d, "etc/shadow",
	        "root::19000:0:99999:7:::\nhangar:!:19000::::::\n"
	        "agent:$6$salt$hash:19000::::::\n",
	        0640, 0, 0);
	put(d, "etc/nsswitch.conf", "passwd: files\ngroup: files\nshadow: files\n");
}

static hp_sysbackend *open_image(const char *dir)
{
	hp_sys_opts o = {.kind = HP_SYS_ROOTFS, .root_dir = dir};
	hp_err e;
	hp_sysbackend *s = hp_probe_sys_open(&o, &e);
	assert_non_null(s);
	return s;
}

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	f->dir = fx_tmpdir();
	image_etc(f->dir);
	hp_pool_init(&f->pool, 1 << 24);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fx *f = *state;
	if (f->s)
		hp_backend_destroy(hp_probe_sys_backend(f->s));
	hp_pool_free(&f->pool);
	fx_rmtree(f->dir);
	free(f);
	return 0;
}

/* The backend over f's image, opened on first use. */
static hp_sysbackend *sb(fx *f)
{
	if (!f->s)
		f->s = open_image(f->dir);
	return f->s;
}

static void as_role(fx *f, hp_role r, uid_t uid, gid_t gid, uint64_t caps)
{
	hp_sys_role ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.role = r;
	ctx.cred = (hp_cred){uid, gid, NULL, 0, caps};
	hp_probe_sys_set_role(sb(f), &ctx);
}

static const char *show(fx *f, hp_value v)
{
	hp_buf b = {0};
	hp_value_format(&b, &v);
	snprintf(f->buf, sizeof f->buf, "%s", b.data ? b.data : "");
	hp_buf_free(&b);
	return f->buf;
}

static const char *ask_str(fx *f, hp_role r, hp_probe_id p, const char *arg)
{
	hp_value a = hp_v_str(arg, (uint32_t)strlen(arg));
	return show(f, hp_backend_ask(hp_probe_sys_backend(sb(f)), r, p, &a, &f->pool));
}

static const char *ask_int(fx *f, hp_role r, hp_probe_id p, int64_t arg)
{
	hp_value a = hp_v_int(arg);
	return show(f, hp_backend_ask(hp_probe_sys_backend(sb(f)), r, p, &a, &f->pool));
}

static const char *ask_none(fx *f, hp_role r, hp_probe_id p)
{
	hp_value a = hp_v_none();
	return show(f, hp_backend_ask(hp_probe_sys_backend(sb(f)), r, p, &a, &f->pool));
}

/* --- users, groups, passwords ------------------------------------------------------- */

static void test_users(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	char want[512];
	snprintf(
	    want, sizeof want,
	    "user \"agent\" (uid %u, gid %u, home \"/home/agent\", shell \"/bin/sh\", groups { "
	    "\"agent\", \"docker\" })",
	    (unsigned)FX_AGENT, (unsigned)FX_AGENT);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "agent"), want);
	assert_string_equal(ask_int(f, HP_ROLE_ROOT, HP_PROBE_USER_BY_UID, FX_AGENT), want);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "nobody"),
	                    "absent (no user \"nobody\" in etc/passwd)");
	assert_string_equal(ask_int(f, HP_ROLE_ROOT, HP_PROBE_USER_BY_UID, 4294967295LL),
	                    "unknown (user_by_uid(4294967295): not a uid)");
	snprintf(want, sizeof want, "group \"docker\" (gid %u, members { \"agent\" })",
	         (unsigned)FX_GROUP);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_GROUP, "docker"), want);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_GROUP, "wheel"),
	                    "absent (no group \"wheel\" in etc/group)");
}

static void test_passwords(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_PASSWORD_EMPTY, "root"), "true");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_PASSWORD_EMPTY, "hangar"), "false");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_PASSWORD_EMPTY, "agent"), "false");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_PASSWORD_EMPTY, "nobody"),
	                    "absent (no user \"nobody\" in etc/passwd)");
	/* the accounts su takes: root's empty password and the agent's hash,
	 * not hangar's locked one */
	assert_string_equal(ask_none(f, HP_ROLE_ROOT, HP_PROBE_USERS_UNLOCKED),
	                    "{ \"root\", \"agent\" }");
}

/* One account whose state is not known makes the whole list unknown: the
 * one left out could be the one with a grant. */
static void test_users_unlocked_unknown(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	char *p = fx_path(f->dir, "etc/shadow");
	assert_int_equal(unlink(p), 0);
	free(p);
	fx_file(f->dir, "etc/shadow", "root:!:19000::::::\nhangar:!:19000::::::\n", 0640, 0, 0);
	assert_string_equal(ask_none(f, HP_ROLE_ROOT, HP_PROBE_USERS_UNLOCKED),
	                    "unknown (the password of \"agent\": etc/shadow has no entry for "
	                    "\"agent\")");
}

static void test_shadow_missing(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	char *p = fx_path(f->dir, "etc/shadow");
	assert_int_equal(unlink(p), 0);
	free(p);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_PASSWORD_EMPTY, "root"),
	                    "unknown (etc/shadow does not exist)");
}

/* gshadow_members: who newgrp lets in without a password (gshadow's list
 * replaces etc/group's when the group has an entry); absent when it has
 * none or there is no gshadow, unknown when gshadow cannot be read or is
 * malformed, and group_admins unknown with it. */
static void test_gshadow_members(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	fx_file(f->dir, "etc/gshadow", "root:*::\nhangar:!::agent\ndocker:!:ops:\n", 0640, 0, 0);
	static const struct {
		hp_probe_id probe;
		const char *group, *want;
	} cases[] = {
	    {HP_PROBE_GSHADOW_MEMBERS, "hangar", "{ \"agent\" }"},
	    {HP_PROBE_GSHADOW_MEMBERS, "root", "{}"},
	    /* docker's etc/group members (agent) are not newgrp's once gshadow
	     * has an entry: its own list, empty, is */
	    {HP_PROBE_GSHADOW_MEMBERS, "docker", "{}"},
	    {HP_PROBE_GROUP_ADMINS, "docker", "{ \"ops\" }"},
	    {HP_PROBE_GSHADOW_MEMBERS, "agent", "absent (etc/gshadow has no entry for \"agent\")"},
	    {HP_PROBE_GROUP_ADMINS, "agent", "{}"},
	    {HP_PROBE_GSHADOW_MEMBERS, "wheel", "absent (no group \"wheel\" in etc/group)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_string_equal(ask_str(f, HP_ROLE_ROOT, cases[i].probe, cases[i].group),
		                    cases[i].want);
}

static void test_gshadow_missing(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_GSHADOW_MEMBERS, "hangar"),
	                    "absent (etc/gshadow does not exist)");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_GROUP_ADMINS, "hangar"), "{}");
}

static void test_gshadow_malformed(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	fx_file(f->dir, "etc/gshadow", "root:*::\nhangar:!::ops, agent\n", 0640, 0, 0);
	static const char why[] = "unknown (etc/gshadow:2: member name \" agent\" contains a blank "
	                          "or control character)";
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_GSHADOW_MEMBERS, "hangar"), why);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_GSHADOW_MEMBERS, "root"), why);
	/* who administers a group is not known either (it was {} before) */
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_GROUP_ADMINS, "root"), why);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_GROUP_PASSWORD_SET, "root"), why);
}

/* gshadow that is not a regular file (a FIFO the agent planted would hang
 * a reader) is unknown, never absent */
static void test_gshadow_not_regular(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	char *p = fx_path(f->dir, "etc/gshadow");
	assert_int_equal(mkfifo(p, 0600), 0);
	free(p);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_GSHADOW_MEMBERS, "hangar"),
	                    "unknown (etc/gshadow: not a regular file (fifo))");
}

static void test_uid0_finding(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	put(f->dir, "etc/passwd", "root:x:0:0:root:/root:/bin/sh\ntoor:x:0:0::/root:/bin/sh\n");
	assert_string_equal(ask_int(f, HP_ROLE_ROOT, HP_PROBE_USER_BY_UID, 0),
	                    "unknown (etc/passwd:2: account \"toor\" has uid 0 besides root: "
	                    "which account uid 0 names is ambiguous)");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_PASSWORD_EMPTY, "root"),
	                    "unknown (etc/passwd:2: account \"toor\" has uid 0 besides root: its "
	                    "password counts as much as root's)");
	/* by name the answer is exact */
	assert_string_equal(
	    ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "toor"),
	    "user \"toor\" (uid 0, gid 0, home \"/root\", shell \"/bin/sh\", groups { "
	    "\"root\" })");
}

static void test_nss_other_source(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	put(f->dir, "etc/nsswitch.conf", "passwd: files ldap\ngroup: files\n");
	const char *v = ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "agent");
	assert_string_equal(v, "unknown (etc/nsswitch.conf:1: passwd uses \"ldap\", which can "
	                       "supply entries that are not in the files)");
}

static void test_nss_systemd_records(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	put(f->dir, "etc/nsswitch.conf", "passwd: files systemd\ngroup: files systemd\n");
	char want[512];
	snprintf(want, sizeof want,
	         "user \"agent\" (uid %u, gid %u, home \"/home/agent\", shell "
	         "\"/bin/sh\", groups { \"agent\", \"docker\" })",
	         (unsigned)FX_AGENT, (unsigned)FX_AGENT);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "agent"), want);
	hp_backend_destroy(hp_probe_sys_backend(f->s));
	f->s = NULL;
	fx_dir(f->dir, "etc/userdb", 0755, 0, 0);
	put(f->dir, "etc/userdb/ghost.user", "{}");
	const char *v = ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "agent");
	assert_non_null(strstr(v, "(/etc/userdb/ghost.user exists)"));
	assert_int_equal(strncmp(v, "unknown (", 9), 0);
}

static void test_passwd_fifo(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	char *p = fx_path(f->dir, "etc/passwd");
	assert_int_equal(unlink(p), 0);
	free(p);
	fx_fifo(f->dir, "etc/passwd", 0644);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "agent"),
	                    "unknown (etc/passwd: not a regular file (fifo))");
}

static void test_passwd_malformed(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	put(f->dir, "etc/passwd", "root:x:0:0:root:/root:/bin/sh\nagent:x:-1:1000::/:/bin/sh\n");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "root"),
	                    "unknown (etc/passwd:2: uid \"-1\" is negative (-1 is (uid_t)-1, which "
	                    "setresuid reads as 'unchanged'))");
}

static void test_passwd_missing(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	char *p = fx_path(f->dir, "etc/group");
	assert_int_equal(unlink(p), 0);
	free(p);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_USER, "root"),
	                    "unknown (etc/group does not exist)");
}

static void test_user_ids(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	uid_t u;
	gid_t g;
	gid_t *gids;
	size_t n;
	hp_err e;
	assert_int_equal(hp_probe_sys_user_ids(sb(f), "agent", -1, &u, &g, &gids, &n, &e), HP_TRUE);
	assert_int_equal(u, FX_AGENT);
	assert_int_equal(g, FX_AGENT);
	assert_int_equal(n, 2);
	assert_int_equal(gids[0], FX_AGENT);
	assert_int_equal(gids[1], FX_GROUP);
	free(gids);
	assert_int_equal(hp_probe_sys_user_ids(sb(f), NULL, 0, &u, &g, &gids, &n, &e), HP_TRUE);
	assert_int_equal(u, 0);
	free(gids);
	assert_int_equal(hp_probe_sys_user_ids(sb(f), "ghost", -1, &u, &g, &gids, &n, &e), HP_FALSE);
	assert_string_equal(e.msg, "no user \"ghost\" in etc/passwd");
	assert_null(gids);
}

/* --- paths ---------------------------------------------------------------------------- */

static void tree(const char *d)
{
	fx_dir(d, "usr", 0755, 0, 0);
	fx_dir(d, "usr/bin", 0755, 0, 0);
	fx_file(d, "usr/bin/sudo", "#!", 04755, 0, 0);
	fx_file(d, "usr/bin/newgrp", "#!", 04755, 0, 0);
	fx_file(d, "usr/bin/wall", "#!", 02755, 0, 5);
	fx_file(d, "usr/bin/ls", "#!", 0755, 0, 0);
	fx_file(d, "usr/bin/mine", "#!", 04755, FX_AGENT, 0);
	fx_link(d, "usr/bin/su2", "sudo");
	fx_dir(d, "usr/local", 0755, 0, 0);
	fx_dir(d, "usr/local/bin", 0777, 0, 0);
	fx_dir(d, "tmp", 01777, 0, 0);
	fx_file(d, "tmp/rootf", "x", 0644, 0, 0);
	fx_file(d, "tmp/agentf", "x", 0644, FX_AGENT, FX_AGENT);
	fx_dir(d, "var", 0755, 0, 0);
	fx_dir(d, "var/lib", 0755, 0, 0);
	fx_dir(d, "var/lib/hangar-ctl", 0700, FX_HANGAR, FX_HANGAR);
	fx_file(d, "var/lib/hangar-ctl/key", "k", 0644, FX_HANGAR, FX_HANGAR);
	fx_dir(d, "home", 0755, 0, 0);
	fx_dir(d, "home/agent", 0755, FX_AGENT, FX_AGENT);
	fx_link(d, "bin", "usr/bin");
	fx_link(d, "escape", "../../../../etc");
	fx_fifo(d, "etc/pipe", 0666);
	fx_file(d, "etc/acl", "x", 0600, 0, 0);
	fx_file(d, "etc/hard", "x", 0644, 0, 0);
	char *a = fx_path(d, "etc/hard"), *b = fx_path(d, "etc/hard2");
	assert_int_equal(link(a, b), 0);
	free(a);
	free(b);
}

/* system.posix_acl_access granting user uid rw on rel. */
static void acl_user_rw(const char *dir, const char *rel, uid_t uid)
{
	unsigned char b[4 + 5 * 8];
	const unsigned ents[5][3] = {{1, 6, 0xffffffff},
	                             {2, 6, uid},
	                             {4, 0, 0xffffffff},
	                             {16, 6, 0xffffffff},
	                             {32, 0, 0xffffffff}};
	b[0] = 2;
	b[1] = b[2] = b[3] = 0;
	for (int i = 0; i < 5; i++) {
		unsigned char *e = b + 4 + 8 * i;
		e[0] = (unsigned char)ents[i][0];
		e[1] = (unsigned char)(ents[i][0] >> 8);
		e[2] = (unsigned char)ents[i][1];
		e[3] = 0;
		for (int k = 0; k < 4; k++)
			e[4 + k] = (unsigned char)(ents[i][2] >> (8 * k));
	}
	char *p = fx_path(dir, rel);
	assert_int_equal(setxattr(p, "system.posix_acl_access", b, sizeof b, 0), 0);
	free(p);
}

static void test_file_facts(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	tree(f->dir);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_TYPE, "/bin"), "\"symlink\"");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_TYPE, "/bin/"), "\"dir\"");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_TYPE, "/etc/pipe"), "\"fifo\"");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_TYPE, "/etc/passwd"), "\"file\"");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_MODE, "/tmp"), "1023");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_MODE, "/bin/sudo"), "2541");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_OWNER, "/bin/sudo"), "0");
	char want[64];
	snprintf(want, sizeof want, "%u", (unsigned)FX_HANGAR);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_GROUP_OWNER, "/var/lib/hangar-ctl"),
	                    want);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_LINKS, "/etc/hard"), "2");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_OWNER, "/nope"),
	                    "absent (/nope: no such file or directory)");
	/* a symlink out of the image leads to the image's own /etc */
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_TYPE, "/escape/passwd"), "\"file\"");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_TYPE, "/escape/shadow"), "\"file\"");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_TYPE, "/escape/hostname"),
	                    "absent (/escape/hostname: no such file or directory)");
	/* a path that is not absolute never reaches the backend (vm/probe_arg.h) */
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_OWNER, ""),
	                    "unknown (an empty path: as a PATH entry it is the working directory, "
	                    "which the agent may choose)");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_OWNER, "usr/bin"),
	                    "unknown ('usr/bin' is not an absolute path: it is resolved against "
	                    "the working directory of whoever uses it, which the agent may "
	                    "choose)");
}

static void test_setuid_root(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	tree(f->dir);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_SETUID_ROOT, "/usr/bin"),
	                    "{ \"newgrp\", \"su2\", \"sudo\" }");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_SETUID_ROOT, "/usr/local/bin"), "{}");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_SETUID_ROOT, "/usr/games"), "{}");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_SETUID_ROOT, "/etc/passwd"),
	                    "unknown (/etc/passwd: not a directory (file))");
}

static void test_users_with_uid(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	assert_string_equal(ask_int(f, HP_ROLE_ROOT, HP_PROBE_USERS_WITH_UID, 0), "{ \"root\" }");
	assert_string_equal(ask_int(f, HP_ROLE_ROOT, HP_PROBE_USERS_WITH_UID, 4242), "{}");
	assert_string_equal(ask_int(f, HP_ROLE_ROOT, HP_PROBE_USERS_WITH_UID, -1),
	                    "unknown (users_with_uid(-1): not a uid)");
	assert_string_equal(ask_int(f, HP_ROLE_ROOT, HP_PROBE_USERS_WITH_UID, 4294967295LL),
	                    "unknown (users_with_uid(4294967295): not a uid)");
	/* a second account of the driver's uid, in the file's order */
	char pw[1024];
	snprintf(pw, sizeof pw,
	         "root:x:0:0:root:/root:/bin/sh\n"
	         "hangar:x:%u:%u:driver:/var/lib/hangar:/usr/sbin/nologin\n"
	         "agent:x:%u:%u:agent:/home/agent:/bin/sh\n"
	         "driver2:x:%u:%u::/:/bin/sh\n",
	         (unsigned)FX_HANGAR, (unsigned)FX_HANGAR, (unsigned)FX_AGENT, (unsigned)FX_AGENT,
	         (unsigned)FX_HANGAR, (unsigned)FX_HANGAR);
	put(f->dir, "etc/passwd", pw);
	hp_backend_destroy(hp_probe_sys_backend(f->s));
	f->s = NULL;
	assert_string_equal(ask_int(f, HP_ROLE_ROOT, HP_PROBE_USERS_WITH_UID, (int64_t)FX_HANGAR),
	                    "{ \"hangar\", \"driver2\" }");
}

static void test_setuid_image(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	tree(f->dir);
	fx_dir(f->dir, "opt", 0755, 0, 0);
	fx_file(f->dir, "opt/rootsh", "#!", 04755, 0, 0);
	/* offline: the whole image; symlinks (su2) are found where they lead */
	assert_string_equal(ask_none(f, HP_ROLE_ROOT, HP_PROBE_SETUID_IMAGE),
	                    "{ \"/opt/rootsh\", \"/usr/bin/newgrp\", \"/usr/bin/sudo\" }");
	/* setid_image: whoever a program sets (wall's tty, the agent's own
	 * mine), from the same walk: a program added after the first answer
	 * is in neither, since the image was walked once */
	fx_file(f->dir, "opt/later", "#!", 04755, FX_HANGAR, 0);
	assert_string_equal(ask_none(f, HP_ROLE_ROOT, HP_PROBE_SETID_IMAGE),
	                    "{ \"/opt/rootsh\", \"/usr/bin/mine\", \"/usr/bin/newgrp\", "
	                    "\"/usr/bin/sudo\", \"/usr/bin/wall\" }");
}

/* A walk that fails (offline, a filesystem mounted inside the image is not
 * the image's) is unknown for both probes, the second answered from the
 * first's failure, never from what was seen before it. In a private mount
 * namespace. */
static int failed_walk(fx *f)
{
	if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return 10;
	char *o = fx_path(f->dir, "opt");
	if (mount("t1", o, "tmpfs", 0, "mode=0755") != 0)
		return 11;
	free(o);
	const char *a = ask_none(f, HP_ROLE_ROOT, HP_PROBE_SETID_IMAGE);
	if (strcmp(a, "unknown (/opt: a mount inside the image)") != 0) {
		fprintf(stderr, "%s\n", a);
		return 12;
	}
	a = ask_none(f, HP_ROLE_ROOT, HP_PROBE_SETUID_IMAGE);
	if (strcmp(a, "unknown (/opt: a mount inside the image)") != 0) {
		fprintf(stderr, "%s\n", a);
		return 13;
	}
	return 0;
}

static void test_setid_image_unknown(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	tree(f->dir);
	fx_dir(f->dir, "opt", 0755, 0, 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(failed_walk(f));
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* tree_writable_by: root's walk of a tree the user cannot search (0700),
 * each file answered for the user's credentials: owned, mode 0666, writable
 * by its group, a symlink to its file are found; hangar's own are not; the
 * argument's forms. */
static void test_tree_writable_by(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	tree(f->dir);
	fx_dir(f->dir, "var/lib/hangar", 0700, FX_HANGAR, FX_HANGAR);
	fx_dir(f->dir, "var/lib/hangar/bin", 0755, FX_HANGAR, FX_HANGAR);
	fx_file(f->dir, "var/lib/hangar/bin/driver", "x", 0755, FX_AGENT, FX_AGENT);
	const char *arg = "agent:/var/lib/hangar";
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, arg), "true");
	char *drv = fx_path(f->dir, "var/lib/hangar/bin/driver");
	assert_int_equal(chown(drv, FX_HANGAR, FX_HANGAR), 0);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, arg), "false");
	/* the user owns nothing, but may write by the mode or its group */
	assert_int_equal(chmod(drv, 0666), 0);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, arg), "true");
	assert_int_equal(chmod(drv, 0664), 0);
	assert_int_equal(chown(drv, FX_HANGAR, FX_AGENT), 0);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, arg), "true");
	assert_int_equal(chown(drv, FX_HANGAR, FX_HANGAR), 0);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, arg), "false");
	/* a symlink out of the tree to the user's file */
	fx_file(f->dir, "home/agent/tool", "x", 0755, FX_AGENT, FX_AGENT);
	fx_link(f->dir, "var/lib/hangar/bin/tool", "/home/agent/tool");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, arg), "true");
	/* a dangling symlink to where only hangar (and root) could create the
	 * file: not the agent's */
	fx_dir(f->dir, "var/lib/hangar/lnk", 0755, FX_HANGAR, FX_HANGAR);
	fx_link(f->dir, "var/lib/hangar/lnk/x", "/var/lib/hangar-ctl/new");
	assert_string_equal(
	    ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "agent:/var/lib/hangar/lnk"), "false");
	/* the owner of the tree may write it */
	assert_string_equal(
	    ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "hangar:/var/lib/hangar/bin/driver"),
	    "true");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "agent:/nowhere"),
	                    "false");
	assert_string_equal(
	    ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "nosuch:/var/lib/hangar"),
	    "absent (no user \"nosuch\" in etc/passwd)");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "agent:var/lib"),
	                    "unknown ('agent:var/lib': the path is not absolute)");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "/var/lib/hangar"),
	                    "unknown ('/var/lib/hangar': not USER:PATH)");
	/* past the walk's depth: unknown, never "nothing writable" */
	char rel[512] = "deep";
	fx_dir(f->dir, rel, 0755, 0, 0);
	for (int i = 0; i < 130; i++) {
		strcat(rel, "/d");
		fx_dir(f->dir, rel, 0755, 0, 0);
	}
	const char *deep = ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "agent:/deep");
	assert_true(strncmp(deep, "unknown (more than 128 directories deep", 39) == 0);
	free(drv);
}

/* setid_image asked first, a setuid program of hangar's among them; and a
 * walk that fails is unknown for both probes. */
static void test_setid_image(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	tree(f->dir);
	fx_dir(f->dir, "opt", 0755, 0, 0);
	fx_file(f->dir, "opt/driversh", "#!", 04755, FX_HANGAR, FX_HANGAR);
	fx_file(f->dir, "opt/grp", "#!", 02711, 0, FX_HANGAR);
	assert_string_equal(ask_none(f, HP_ROLE_ROOT, HP_PROBE_SETID_IMAGE),
	                    "{ \"/opt/driversh\", \"/opt/grp\", \"/usr/bin/mine\", "
	                    "\"/usr/bin/newgrp\", \"/usr/bin/sudo\", \"/usr/bin/wall\" }");
	assert_string_equal(ask_none(f, HP_ROLE_ROOT, HP_PROBE_SETUID_IMAGE),
	                    "{ \"/usr/bin/newgrp\", \"/usr/bin/sudo\" }");
}

static void test_command_files_and_trees(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	tree(f->dir);
	fx_dir(f->dir, "usr/lib", 0755, 0, 0);
	fx_dir(f->dir, "usr/lib/node_modules", 0755, 0, 0);
	fx_dir(f->dir, "usr/lib/node_modules/tool", 0755, 0, 0);
	fx_file(f->dir, "usr/lib/node_modules/tool/package.json", "{}", 0644, 0, 0);
	fx_file(f->dir, "usr/lib/node_modules/tool/cli.js", "#!/usr/bin/nodejs\n", 0755, 0, 0);
	fx_file(f->dir, "usr/bin/nodejs", "\177ELF", 0755, 0, 0);
	fx_link(f->dir, "usr/bin/tool", "../lib/node_modules/tool/cli.js");
	assert_string_equal(
	    ask_str(f, HP_ROLE_ROOT, HP_PROBE_COMMAND_FILES, "tool:/usr/local/bin:/usr/bin"),
	    "{ \"/usr/bin/tool\", \"/usr/bin/../lib/node_modules/tool/cli.js\", "
	    "\"/usr/bin/../lib/node_modules/tool\", \"/usr/bin/../lib/node_modules\", "
	    "\"/usr/bin/nodejs\" }");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_COMMAND_FILES, "nope:/usr/bin"),
	                    "absent (no nope on the PATH /usr/bin)");
	assert_string_equal(
	    ask_str(f, HP_ROLE_ROOT, HP_PROBE_COMMAND_FILES, "tool:bin:/usr/bin"),
	    "unknown (a directory of the PATH: 'bin' is not an absolute path: it is resolved "
	    "against the working directory of whoever uses it, which the agent may choose)");
	/* tree_writable, computed for the agent: a file it owns, a directory
	 * anyone writes, an ACL; hangar's closed directory and the package are
	 * out of its reach */
	as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	acl_user_rw(f->dir, "etc/acl", FX_AGENT);
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/bin"), "true");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/local"), "true");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/etc"), "true");
	assert_string_equal(
	    ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/node_modules"), "false");
	assert_string_equal(
	    ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/var/lib/hangar-ctl"), "false");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/nowhere"),
	                    "false");
	/* a symlink in the package out to a file the agent owns */
	fx_link(f->dir, "usr/lib/node_modules/tool/dep.js", "/tmp/agentf");
	assert_string_equal(
	    ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/node_modules/tool"),
	    "true");
	/* a dangling one out to where the agent can create the file (/tmp is
	 * sticky and open to all), and one where it cannot (/usr/bin is root's) */
	rm_at(f->dir, "usr/lib/node_modules/tool/dep.js");
	fx_link(f->dir, "usr/lib/node_modules/tool/dep.js", "/tmp/later.js");
	assert_string_equal(
	    ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/node_modules/tool"),
	    "true");
	rm_at(f->dir, "usr/lib/node_modules/tool/dep.js");
	fx_link(f->dir, "usr/lib/node_modules/tool/dep.js", "/usr/bin/none.js");
	assert_string_equal(
	    ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/node_modules/tool"),
	    "false");
	/* ...and to a directory out of the tree, which is not walked (a new
	 * role's process: what one found of a tree is kept for it) */
	rm_at(f->dir, "usr/lib/node_modules/tool/dep.js");
	fx_link(f->dir, "usr/lib/node_modules/tool/deps", "/home/agent");
	as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(
	    ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/node_modules"),
	    "unknown (/usr/lib/node_modules/tool/deps -> /home/agent: a directory outside the "
	    "tree (not walked))");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "usr/lib"),
	                    "unknown ('usr/lib' is not an absolute path: it is resolved against "
	                    "the working directory of whoever uses it, which the agent may "
	                    "choose)");
}

/* tree_writable by two paths to one tree (/lib -> usr/lib, as on a merged
 * /usr): walked once when its links say nothing of the path (relative,
 * without ".."), each path's own walk when one is absolute: through /lib
 * an absolute link into the tree's /usr/lib path leads out of the tree
 * it was asked by, so the answers differ, and the first is not reused. */
static void test_tree_writable_twins(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	tree(f->dir);
	fx_dir(f->dir, "usr/lib", 0755, 0, 0);
	fx_link(f->dir, "lib", "usr/lib");
	fx_dir(f->dir, "usr/lib/gconv", 0755, 0, 0);
	fx_file(f->dir, "usr/lib/gconv/A.so", "x", 0644, 0, 0);
	fx_link(f->dir, "usr/lib/gconv/B.so", "A.so");
	fx_dir(f->dir, "usr/lib/pkg", 0755, 0, 0);
	fx_dir(f->dir, "usr/lib/pkg/sub", 0755, 0, 0);
	fx_link(f->dir, "usr/lib/pkg/deps", "/usr/lib/pkg/sub");
	as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/gconv"),
	                    "false");
	/* the second path's answer is the first walk's: a file changed since
	 * (which no role's process sees within one check) is not looked at */
	char *a = fx_path(f->dir, "usr/lib/gconv/A.so");
	assert_int_equal(chown(a, FX_AGENT, FX_AGENT), 0);
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/lib/gconv"), "false");
	assert_int_equal(chown(a, 0, 0), 0);
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/pkg"),
	                    "false");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/lib/pkg"),
	                    "unknown (/lib/pkg/deps -> /usr/lib/pkg/sub: a directory outside the "
	                    "tree (not walked))");
	/* a file the agent owns: found by the first path, and the second */
	as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_int_equal(chown(a, FX_AGENT, FX_AGENT), 0);
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/lib/gconv"), "true");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/gconv"),
	                    "true");
	free(a);
}

/* writable_entries: each way a name in a directory can lead to a file the
 * agent controls, and the names that cannot. */
static void test_writable_entries(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	tree(f->dir);
	fx_dir(f->dir, "opt", 0755, 0, 0);
	fx_dir(f->dir, "opt/bin", 0755, 0, 0);
	fx_file(f->dir, "opt/bin/ls", "#!", 0755, 0, 0);
	fx_file(f->dir, "opt/bin/mine", "#!", 0555, FX_AGENT, FX_AGENT); /* chmod is the owner's */
	fx_file(f->dir, "opt/bin/wide", "#!", 0666, 0, 0);
	fx_file(f->dir, "opt/bin/acl", "#!", 0644, 0, 0);
	acl_user_rw(f->dir, "opt/bin/acl", FX_AGENT);
	fx_file(f->dir, "opt/bin/hangars", "#!", 0755, FX_HANGAR, FX_HANGAR);
	fx_dir(f->dir, "opt/bin/sub", 0755, FX_AGENT, FX_AGENT);
	fx_file(f->dir, "home/agent/tool", "#!", 0755, FX_AGENT, FX_AGENT);
	fx_link(f->dir, "opt/bin/to-ls", "/usr/bin/ls");
	fx_link(f->dir, "opt/bin/to-home", "/home/agent/tool");
	fx_link(f->dir, "opt/bin/to-missing-home", "../../home/agent/later");
	fx_link(f->dir, "opt/bin/to-missing-root", "/usr/bin/later");
	fx_link(f->dir, "opt/bin/to-tmp", "/tmp/rootf"); /* sticky: root's file stays root's */
	as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, "/opt/bin"),
	                    "{ \"acl\", \"mine\", \"sub\", \"to-home\", \"to-missing-home\", "
	                    "\"wide\" }");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, "/opt/bin/"),
	                    "{ \"acl\", \"mine\", \"sub\", \"to-home\", \"to-missing-home\", "
	                    "\"wide\" }");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, "/usr/bin"),
	                    "{ \"mine\" }");
	/* a directory it may write is writable()'s; its entries are root's */
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, "/usr/local/bin"),
	                    "{}");
	/* nothing there, or out of the agent's reach: nothing to change through it */
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, "/usr/games"), "{}");
	assert_string_equal(
	    ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, "/var/lib/hangar-ctl"), "{}");
	/* searchable, not readable: it could write a name it knows */
	fx_dir(f->dir, "opt/hidden", 0711, 0, 0);
	fx_file(f->dir, "opt/hidden/wide", "#!", 0666, 0, 0);
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, "/opt/hidden"),
	                    "{ \"wide\" }");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, "/etc/passwd"),
	                    "unknown (/etc/passwd: not a directory (file))");
	/* hangar owns its own file, nothing of the agent's */
	as_role(f, HP_ROLE_HANGAR, FX_HANGAR, FX_HANGAR, 0);
	assert_string_equal(ask_str(f, HP_ROLE_HANGAR, HP_PROBE_WRITABLE_ENTRIES, "/opt/bin"),
	                    "{ \"hangars\", \"wide\" }");
}

/* writable_entries live, as the agent's own process: the kernel asked of
 * each entry the owner and mode do not already rule out (an ACL entry, a
 * group the agent is not in), symlinks followed, and a directory reached
 * by a second path (a symlink to it) listed once with the same answer. */
typedef struct {
	const char *dir;
	char got[5][512];
} live_entries;

static int entries_as_agent(void *arg)
{
	live_entries *c = arg;
	hp_sys_opts o = {.kind = HP_SYS_LIVE};
	hp_err e;
	hp_sysbackend *s = hp_probe_sys_open(&o, &e);
	if (!s)
		return 1;
	hp_sys_role ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.role = HP_ROLE_AGENT;
	ctx.as_role = true;
	ctx.cred = (hp_cred){FX_AGENT, FX_AGENT, NULL, 0, 0};
	hp_probe_sys_set_role(s, &ctx);
	hp_pool pool;
	hp_pool_init(&pool, 1 << 20);
	const char *rel[] = {"opt/bin", "alias", "opt/bin", "opt/pub", "opt/procl"};
	for (int i = 0; i < 5; i++) {
		char *p = fx_path(c->dir, rel[i]);
		hp_value a = hp_v_str(p, (uint32_t)strlen(p));
		hp_value v = hp_backend_ask(hp_probe_sys_backend(s), HP_ROLE_AGENT,
		                            HP_PROBE_WRITABLE_ENTRIES, &a, &pool);
		hp_buf b = {0};
		hp_value_format(&b, &v);
		snprintf(c->got[i], sizeof c->got[i], "%s", b.data ? b.data : "");
		hp_buf_free(&b);
		free(p);
	}
	hp_pool_free(&pool);
	hp_backend_destroy(hp_probe_sys_backend(s));
	return 0;
}

static void test_writable_entries_live(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	const char *d = f->dir;
	fx_dir(d, "opt", 0755, 0, 0);
	fx_dir(d, "opt/bin", 0755, 0, 0);
	fx_file(d, "opt/bin/ls", "#!", 0755, 0, 0);            /* ruled out by its mode */
	fx_file(d, "opt/bin/grp", "#!", 0664, 0, FX_GROUP);    /* a group's: the kernel says no */
	fx_file(d, "opt/bin/mine", "#!", 0555, FX_AGENT, FX_AGENT);
	fx_file(d, "opt/bin/wide", "#!", 0666, 0, 0);
	fx_file(d, "opt/bin/acl", "#!", 0644, 0, 0);
	acl_user_rw(d, "opt/bin/acl", FX_AGENT);               /* the mode says no, the ACL yes */
	fx_dir(d, "opt/bin/sub", 0755, FX_AGENT, FX_AGENT);
	fx_dir(d, "home", 0755, 0, 0);
	fx_dir(d, "home/agent", 0755, FX_AGENT, FX_AGENT);
	fx_file(d, "home/agent/tool", "#!", 0755, FX_AGENT, FX_AGENT);
	fx_file(d, "rootf", "x", 0644, 0, 0);
	char *home_tool = fx_path(d, "home/agent/tool"), *rootf = fx_path(d, "rootf"),
	     *later = fx_path(d, "home/agent/later"), *bin = fx_path(d, "opt/bin");
	fx_link(d, "opt/bin/to-home", home_tool);
	fx_link(d, "opt/bin/to-root", rootf);
	fx_link(d, "opt/bin/to-missing-home", later);
	fx_link(d, "opt/bin/to-ls", "ls");
	/* links to a name beside them, judged without walking to it again */
	fx_link(d, "opt/bin/sib-wide", "wide");
	fx_link(d, "opt/bin/sib-mine", "mine");
	fx_link(d, "opt/bin/sib-gone", "gone");
	fx_link(d, "opt/bin/sib-sub", "sub");
	fx_dir(d, "opt/pub", 01777, 0, 0);
	fx_file(d, "opt/pub/rf", "#!", 0644, 0, 0);
	fx_file(d, "opt/pub/af", "#!", 0644, FX_AGENT, FX_AGENT);
	fx_link(d, "opt/pub/l-rf", "rf");   /* root's link to root's file: sticky keeps both */
	fx_link(d, "opt/pub/l-af", "af");   /* to the agent's own file */
	fx_link(d, "opt/pub/l-gone", "gone"); /* the agent may create the name */
	fx_link(d, "opt/pub/l-mine", "rf");   /* the agent's own link: it may replace it */
	char *lm = fx_path(d, "opt/pub/l-mine");
	assert_int_equal(lchown(lm, FX_AGENT, FX_AGENT), 0);
	free(lm);
	/* links to a name elsewhere, judged from the listing's own look at
	 * them: the target's way from where the link is ("..", a symlinked
	 * directory on it), and the link's own step in a sticky directory */
	fx_dir(d, "opt/w", 0777, 0, 0);
	fx_file(d, "opt/w/tool", "#!", 0755, 0, 0);
	fx_dir(d, "opt/ro", 0755, 0, 0);
	fx_file(d, "opt/ro/tool", "#!", 0755, 0, 0);
	fx_dir(d, "opt/ro/sub", 0755, FX_AGENT, FX_AGENT);
	fx_file(d, "opt/ro/sub/tool", "#!", 0755, 0, 0);
	fx_link(d, "opt/wl", "w");
	fx_link(d, "opt/bin/up-w", "../w/tool");      /* its directory writable */
	fx_link(d, "opt/bin/up-ro", "../ro/tool");    /* nothing on the way: no */
	fx_link(d, "opt/bin/up-deep", "../ro/sub/tool"); /* the agent owns a directory on it */
	fx_link(d, "opt/bin/up-via", "../wl/tool");   /* through a link to a writable one */
	fx_link(d, "opt/bin/up-many", "./../ro/../w/./tool");
	fx_link(d, "opt/ro/hop", "../w/tool");
	fx_dir(d, "opt/pub/rsub", 0755, 0, 0);
	fx_link(d, "opt/bin/up-dotdot", "../pub/rsub/.."); /* ends on pub, after rsub */
	fx_file(d, "opt/ro/wide", "#!", 0666, 0, 0);
	fx_file(d, "opt/ro/acl", "#!", 0644, 0, 0);
	acl_user_rw(d, "opt/ro/acl", FX_AGENT);
	fx_link(d, "opt/bin/up-wide", "../ro/wide"); /* the file it ends on, by its mode */
	fx_link(d, "opt/bin/up-acl", "../ro/acl");   /* by its ACL */
	fx_link(d, "opt/bin/up-chain", "../ro/hop");  /* a link again where it ends */
	fx_link(d, "opt/pub/far-root", "../bin/ls");  /* root's, sticky keeps it */
	fx_link(d, "opt/pub/far-mine", "../bin/ls");  /* the agent's own, in a sticky one */
	char *fm = fx_path(d, "opt/pub/far-mine");
	assert_int_equal(lchown(fm, FX_AGENT, FX_AGENT), 0);
	free(fm);
	fx_link(d, "alias", bin);
	/* a link through /proc/self/root leads where the kernel says, not
	 * where its text reads: never a "no" */
	fx_dir(d, "opt/procl", 0755, 0, 0);
	char *via = hp_xasprintf("/proc/self/root%s", rootf);
	fx_link(d, "opt/procl/via-proc", via);
	free(via);
	free(home_tool);
	free(rootf);
	free(later);
	free(bin);
	live_entries *c =
	    mmap(NULL, sizeof *c, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(c != MAP_FAILED);
	c->dir = d;
	assert_int_equal(fx_run_as(FX_AGENT, FX_AGENT, entries_as_agent, c), 0);
	const char *want = "{ \"acl\", \"mine\", \"sib-mine\", \"sib-sub\", \"sib-wide\", \"sub\", "
	                   "\"to-home\", \"to-missing-home\", \"up-acl\", \"up-chain\", \"up-deep\", "
	                   "\"up-dotdot\", \"up-many\", \"up-via\", \"up-w\", \"up-wide\", \"wide\" }";
	assert_string_equal(c->got[0], want);
	assert_string_equal(c->got[1], want);
	assert_string_equal(c->got[2], want);
	assert_string_equal(c->got[3],
	                    "{ \"af\", \"far-mine\", \"l-af\", \"l-gone\", \"l-mine\" }");
	assert_true(strncmp(c->got[4], "unknown", 7) == 0);
	assert_non_null(strstr(c->got[4], "via-proc"));
	munmap(c, sizeof *c);
}

static void test_access_computed(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	tree(f->dir);
	acl_user_rw(f->dir, "etc/acl", FX_AGENT);
	as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/usr/local/bin"), "true");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/usr/bin"), "false");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/bin"), "false");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/etc/acl"), "true");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_READABLE, "/etc/shadow"), "false");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_EXECUTABLE, "/usr/bin/ls"), "true");
	/* the owner can always chmod */
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/tmp/agentf"), "true");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/nowhere"), "false");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_EXISTS, "/nowhere"), "false");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_EXISTS, "/usr/bin/ls"), "true");
	/* behind a directory the agent cannot search: it cannot read the key by
	 * its name, but whether the key is there is not the agent's to know */
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_READABLE, "/var/lib/hangar-ctl/key"),
	                    "false");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/var/lib/hangar-ctl/key"),
	                    "false");
	assert_string_equal(
	    ask_str(f, HP_ROLE_AGENT, HP_PROBE_EXISTS, "/var/lib/hangar-ctl/key"),
	    "unknown (/var/lib/hangar-ctl/key: the role cannot search the directory holding "
	    "'key' (computed))");
	/* the hangar role owns it */
	as_role(f, HP_ROLE_HANGAR, FX_HANGAR, FX_HANGAR, 0);
	assert_string_equal(
	    ask_str(f, HP_ROLE_HANGAR, HP_PROBE_READABLE, "/var/lib/hangar-ctl/key"), "true");
	/* root reads everything */
	as_role(f, HP_ROLE_ROOT, 0, 0, ~0ull >> 23);
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_READABLE, "/etc/shadow"), "true");
}

static void test_ancestor_computed(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	tree(f->dir);
	as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(
	    ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ANCESTOR, "/usr/local/bin/tool"), "true");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ANCESTOR, "/usr/bin"),
	                    "false");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ANCESTOR, "/tmp/rootf"),
	                    "false");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ANCESTOR, "/tmp/agentf"),
	                    "true");
	assert_string_equal(
	    ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ANCESTOR, "/home/agent/x/y"), "true");
}

/* In a child that is the agent (uid and gid only): the kernel's answer is
 * asked too, and agrees with the computed one. */
static int kernel_child(void *arg)
{
	fx *f = arg;
	hp_sys_role ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.role = HP_ROLE_AGENT;
	ctx.as_role = true;
	ctx.cred = (hp_cred){FX_AGENT, FX_AGENT, NULL, 0, 0};
	hp_probe_sys_set_role(f->s, &ctx);
	if (strcmp(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/usr/local/bin"), "true") != 0)
		return 1;
	if (strcmp(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/etc/acl"), "true") != 0)
		return 2;
	if (strcmp(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/usr/bin"), "false") != 0)
		return 3;
	if (strcmp(ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ANCESTOR, "/usr/local/bin/x"),
	           "true") != 0)
		return 4;
	/* resolution is the kernel's too: the agent cannot search hangar-ctl */
	if (strcmp(ask_str(f, HP_ROLE_AGENT, HP_PROBE_READABLE, "/var/lib/hangar-ctl/key"),
	           "false") != 0)
		return 5;
	if (strcmp(ask_str(f, HP_ROLE_AGENT, HP_PROBE_EXISTS, "/var/lib/hangar-ctl/key"),
	           "unknown (/var/lib/hangar-ctl/key: a directory on the way refuses search)") != 0)
		return 6;
	return 0;
}

static void test_access_kernel_and_computed(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	tree(f->dir);
	acl_user_rw(f->dir, "etc/acl", FX_AGENT);
	sb(f);
	assert_int_equal(fx_run_as(FX_AGENT, FX_AGENT, kernel_child, f), 0);
}

/* The kernel and the image's owners and modes disagree (here because the
 * credentials the computed answer uses are not the process's, as when an
 * LSM or the filesystem on this machine denies what the image allows):
 * unknown, naming both answers. */
static int disagree_child(void *arg)
{
	fx *f = arg;
	hp_sys_role ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.role = HP_ROLE_AGENT;
	ctx.as_role = true;
	/* credentials that differ from the process's: the kernel says no where
	 * the computed answer, for uid FX_OTHER, says yes */
	ctx.cred = (hp_cred){FX_OTHER, FX_OTHER, NULL, 0, 0};
	hp_probe_sys_set_role(f->s, &ctx);
	const char *v = ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/etc/other");
	return strcmp(v, "unknown (/etc/other: the kernel, asked as agent on this machine, says "
	                 "no; the image's owners, modes and ACLs say yes (an LSM, a mount option "
	                 "or the filesystem here differs from the image's))") != 0;
}

static void test_access_disagreement(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	fx_file(f->dir, "etc/other", "x", 0600, FX_OTHER, FX_OTHER);
	sb(f);
	assert_int_equal(fx_run_as(FX_AGENT, FX_AGENT, disagree_child, f), 0);
}

/* --- probes that need a live sandbox, and env --------------------------------------- */

static void test_live_skipped(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(ask_none(f, HP_ROLE_AGENT, HP_PROBE_SUDO),
	                    "skipped (needs a live sandbox)");
	assert_string_equal(ask_none(f, HP_ROLE_AGENT, HP_PROBE_CAPS_AMBIENT),
	                    "skipped (needs a live sandbox)");
	assert_string_equal(ask_none(f, HP_ROLE_AGENT, HP_PROBE_NO_NEW_PRIVS),
	                    "skipped (needs a live sandbox)");
	assert_string_equal(ask_str(f, HP_ROLE_AGENT, HP_PROBE_READ_ONLY, "/"),
	                    "skipped (needs a live sandbox)");
	hp_value r = hp_v_role(HP_ROLE_HANGAR);
	assert_string_equal(show(f, hp_backend_ask(hp_probe_sys_backend(sb(f)), HP_ROLE_AGENT,
	                                           HP_PROBE_SIGNAL, &r, &f->pool)),
	                    "skipped (needs a live sandbox)");
	/* a role probe asked for another role than the process runs */
	assert_string_equal(ask_str(f, HP_ROLE_HANGAR, HP_PROBE_WRITABLE, "/"),
	                    "unknown (writable: asked as hangar in the process of role agent)");
}

static void test_env(void **state)
{
	fx *f = *state;
	setenv("HP_TEST_ENV", "a value", 1);
	unsetenv("HP_TEST_UNSET");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_ENV, "HP_TEST_ENV"), "\"a value\"");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_ENV, "HP_TEST_UNSET"), "absent");
	assert_string_equal(ask_str(f, HP_ROLE_ROOT, HP_PROBE_ENV, "A=B"),
	                    "unknown (env(\"A=B\"): not a variable name)");
}

static void test_bad_root(void **state)
{
	(void)state;
	hp_sys_opts o = {.kind = HP_SYS_ROOTFS, .root_dir = "/nonexistent/image"};
	hp_err e;
	assert_null(hp_probe_sys_open(&o, &e));
	assert_string_equal(e.msg, "/nonexistent/image: cannot open as a root directory: No such "
	                           "file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_users, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_passwords, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_shadow_missing, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_gshadow_members, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_gshadow_missing, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_gshadow_malformed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_gshadow_not_regular, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_users_unlocked_unknown, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_uid0_finding, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_nss_other_source, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_nss_systemd_records, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_passwd_fifo, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_passwd_malformed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_passwd_missing, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_user_ids, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_file_facts, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_setuid_root, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_writable_entries, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_writable_entries_live, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_users_with_uid, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_setuid_image, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_setid_image, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_setid_image_unknown, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tree_writable_by, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tree_writable_twins, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_command_files_and_trees, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_access_computed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ancestor_computed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_access_kernel_and_computed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_access_disagreement, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_live_skipped, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_env, setup, teardown),
	    cmocka_unit_test(test_bad_root),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
