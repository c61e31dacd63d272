/* test_sysb_entries.c: writable_entries, the names in a directory whose
 * file the role could change, from the image and live as the agent: every
 * way a listing's entry or link is writable, and the names that are not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysb_fixture.h"

/* writable_entries: each way a name in a directory can lead to a file the
 * agent controls, and the names that cannot. */
static void test_writable_entries(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_tree(f->dir);
	fx_dir(f->dir, "opt", 0755, 0, 0);
	fx_dir(f->dir, "opt/bin", 0755, 0, 0);
	fx_file(f->dir, "opt/bin/ls", "#!", 0755, 0, 0);
	fx_file(f->dir, "opt/bin/mine", "#!", 0555, FX_AGENT, FX_AGENT); /* chmod is the owner's */
	fx_file(f->dir, "opt/bin/wide", "#!", 0666, 0, 0);
	fx_file(f->dir, "opt/bin/acl", "#!", 0644, 0, 0);
	sx_acl_user_rw(f->dir, "opt/bin/acl", FX_AGENT);
	fx_file(f->dir, "opt/bin/hangars", "#!", 0755, FX_HANGAR, FX_HANGAR);
	fx_dir(f->dir, "opt/bin/sub", 0755, FX_AGENT, FX_AGENT);
	fx_file(f->dir, "home/agent/tool", "#!", 0755, FX_AGENT, FX_AGENT);
	fx_link(f->dir, "opt/bin/to-ls", "/usr/bin/ls");
	fx_link(f->dir, "opt/bin/to-home", "/home/agent/tool");
	fx_link(f->dir, "opt/bin/to-missing-home", "../../home/agent/later");
	fx_link(f->dir, "opt/bin/to-missing-root", "/usr/bin/later");
	fx_link(f->dir, "opt/bin/to-tmp", "/tmp/rootf"); /* sticky: root's file stays root's */
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, "/opt/bin"),
	                    "{ \"acl\", \"mine\", \"sub\", \"to-home\", \"to-missing-home\", "
	                    "\"wide\" }");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, "/opt/bin/"),
	                    "{ \"acl\", \"mine\", \"sub\", \"to-home\", \"to-missing-home\", "
	                    "\"wide\" }");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, "/usr/bin"),
	                    "{ \"mine\" }");
	/* a directory it may write is writable()'s; its entries are root's */
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, "/usr/local/bin"),
	                    "{}");
	/* nothing there, or out of the agent's reach: nothing to change through it */
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, "/usr/games"), "{}");
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, "/var/lib/hangar-ctl"), "{}");
	/* searchable, not readable: it could write a name it knows */
	fx_dir(f->dir, "opt/hidden", 0711, 0, 0);
	fx_file(f->dir, "opt/hidden/wide", "#!", 0666, 0, 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, "/opt/hidden"),
	                    "{ \"wide\" }");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, "/etc/passwd"),
	                    "unknown (/etc/passwd: not a directory (file))");
	/* hangar owns its own file, nothing of the agent's */
	sx_as_role(f, HP_ROLE_HANGAR, FX_HANGAR, FX_HANGAR, 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_HANGAR, HP_PROBE_WRITABLE_ENTRIES, "/opt/bin"),
	                    "{ \"hangars\", \"wide\" }");
}

/* writable_entries live, as the agent's own process: the kernel asked of
 * each entry the owner and mode do not already rule out (an ACL entry, a
 * group the agent is not in), symlinks followed, and a directory reached
 * by a second path (a symlink to it) listed once with the same answer. */
static void test_writable_entries_live(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	const char *d = f->dir;
	fx_dir(d, "opt", 0755, 0, 0);
	fx_dir(d, "opt/bin", 0755, 0, 0);
	fx_file(d, "opt/bin/ls", "#!", 0755, 0, 0);            /* ruled out by its mode */
	fx_file(d, "opt/bin/grp", "#!", 0664, 0, FX_GROUP);    /* a group's: the kernel says no */
	fx_file(d, "opt/bin/mine", "#!", 0555, FX_AGENT, FX_AGENT);
	fx_file(d, "opt/bin/wide", "#!", 0666, 0, 0);
	fx_file(d, "opt/bin/acl", "#!", 0644, 0, 0);
	sx_acl_user_rw(d, "opt/bin/acl", FX_AGENT);               /* the mode says no, the ACL yes */
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
	sx_acl_user_rw(d, "opt/ro/acl", FX_AGENT);
	fx_link(d, "opt/bin/up-wide", "../ro/wide"); /* the file it ends on, by its mode */
	fx_link(d, "opt/bin/up-acl", "../ro/acl");   /* by its ACL */
	fx_link(d, "opt/bin/up-chain", "../ro/hop");  /* a link again where it ends */
	fx_link(d, "opt/pub/far-root", "../bin/ls");  /* root's, sticky keeps it */
	fx_link(d, "opt/pub/far-mine", "../bin/ls");  /* the agent's own, in a sticky one */
	char *fm = fx_path(d, "opt/pub/far-mine");
	assert_int_equal(lchown(fm, FX_AGENT, FX_AGENT), 0);
	free(fm);
	/* links with one text: each judged by its own name's step too */
	fx_link(d, "opt/bin/up-w2", "../w/tool");
	fx_link(d, "opt/bin/up-ro2", "../ro/tool");
	fx_link(d, "opt/pub/same-a", "../bin/ls");  /* root's: no */
	fx_link(d, "opt/pub/same-b", "../bin/ls");  /* the agent's, after root's: yes */
	char *sb = fx_path(d, "opt/pub/same-b");
	assert_int_equal(lchown(sb, FX_AGENT, FX_AGENT), 0);
	free(sb);
	/* many texts that differ only in "./" steps, half of them to a file
	 * the agent can replace through its directory: each link answered
	 * by its own text */
	fx_dir(d, "opt/many", 0755, 0, 0);
	char many_want[1024] = "{ ";
	for (int k = 0; k < 24; k++) {
		char rel[64], text[128];
		for (int w = 0; w < 2; w++) {
			snprintf(rel, sizeof rel, "opt/many/v%02d-%s", k, w ? "w" : "ro");
			snprintf(text, sizeof text, "../%s/%.*stool", w ? "w" : "ro", 2 * k,
			         "./././././././././././././././././././././././././././././././././././.");
			fx_link(d, rel, text);
		}
		snprintf(many_want + strlen(many_want), sizeof many_want - strlen(many_want),
		         "%s\"v%02d-w\"", k ? ", " : "", k);
	}
	strcat(many_want, " }");
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
	sx_live_asks *c = sx_live_asks_new(d, HP_PROBE_WRITABLE_ENTRIES);
	const char *rel[] = {"opt/bin", "alias", "opt/bin", "opt/pub", "opt/procl", "opt/many"};
	for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++)
		sx_live_asks_add(c, rel[i]);
	assert_int_equal(fx_run_as(FX_AGENT, FX_AGENT, sx_ask_as_agent, c), 0);
	const char *want = "{ \"acl\", \"mine\", \"sib-mine\", \"sib-sub\", \"sib-wide\", \"sub\", "
	                   "\"to-home\", \"to-missing-home\", \"up-acl\", \"up-chain\", \"up-deep\", "
	                   "\"up-dotdot\", \"up-many\", \"up-via\", \"up-w\", \"up-w2\", \"up-wide\", "
	                   "\"wide\" }";
	assert_string_equal(c->got[0], want);
	assert_string_equal(c->got[1], want);
	assert_string_equal(c->got[2], want);
	assert_string_equal(c->got[3],
	                    "{ \"af\", \"far-mine\", \"l-af\", \"l-gone\", \"l-mine\", \"same-b\" }");
	assert_true(strncmp(c->got[4], "unknown", 7) == 0);
	assert_non_null(strstr(c->got[4], "via-proc"));
	assert_string_equal(c->got[5], many_want);
	munmap(c, sizeof *c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_writable_entries, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_writable_entries_live, sx_setup, sx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
