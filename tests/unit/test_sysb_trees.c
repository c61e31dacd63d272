/* test_sysb_trees.c: the live/rootfs backend's answers about what a role
 * could change in a whole tree: tree_writable_by for another user,
 * command_files and tree_writable (links judged by where they resolve, a
 * twin tree answered once, an absolute link still walked, links out of a
 * tree and directories judged however the role may write them, default
 * ACLs, devices whose content never changes, an overlay's own copy of
 * owner and mode). writable_entries is test_sysb_entries.c's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <unistd.h>

#include "elf_fixture.h"
#include "sysb_fixture.h"

/* tree_writable_by: root's walk of a tree the user cannot search (0700),
 * each file answered for the user's credentials: owned, mode 0666, writable
 * by its group, a symlink to its file are found; hangar's own are not; the
 * argument's forms. */
static void test_tree_writable_by(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_tree(f->dir);
	fx_dir(f->dir, "var/lib/hangar", 0700, FX_HANGAR, FX_HANGAR);
	fx_dir(f->dir, "var/lib/hangar/bin", 0755, FX_HANGAR, FX_HANGAR);
	fx_file(f->dir, "var/lib/hangar/bin/driver", "x", 0755, FX_AGENT, FX_AGENT);
	const char *arg = "agent:/var/lib/hangar";
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, arg), "true");
	char *drv = fx_path(f->dir, "var/lib/hangar/bin/driver");
	assert_int_equal(chown(drv, FX_HANGAR, FX_HANGAR), 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, arg), "false");
	/* the user owns nothing, but may write by the mode or its group */
	assert_int_equal(chmod(drv, 0666), 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, arg), "true");
	assert_int_equal(chmod(drv, 0664), 0);
	assert_int_equal(chown(drv, FX_HANGAR, FX_AGENT), 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, arg), "true");
	assert_int_equal(chown(drv, FX_HANGAR, FX_HANGAR), 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, arg), "false");
	/* a symlink out of the tree to the user's file */
	fx_file(f->dir, "home/agent/tool", "x", 0755, FX_AGENT, FX_AGENT);
	fx_link(f->dir, "var/lib/hangar/bin/tool", "/home/agent/tool");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, arg), "true");
	/* a dangling symlink to where only hangar (and root) could create the
	 * file: not the agent's */
	fx_dir(f->dir, "var/lib/hangar/lnk", 0755, FX_HANGAR, FX_HANGAR);
	fx_link(f->dir, "var/lib/hangar/lnk/x", "/var/lib/hangar-ctl/new");
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "agent:/var/lib/hangar/lnk"), "false");
	/* the owner of the tree may write it */
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "hangar:/var/lib/hangar/bin/driver"),
	    "true");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "agent:/nowhere"),
	                    "false");
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "nosuch:/var/lib/hangar"),
	    "absent (no user \"nosuch\" in etc/passwd)");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "agent:var/lib"),
	                    "unknown ('agent:var/lib': the path is not absolute)");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "/var/lib/hangar"),
	                    "unknown ('/var/lib/hangar': not USER:PATH)");
	/* past the walk's depth: unknown, never "nothing writable" */
	char rel[512] = "deep";
	fx_dir(f->dir, rel, 0755, 0, 0);
	for (int i = 0; i < 130; i++) {
		strcat(rel, "/d");
		fx_dir(f->dir, rel, 0755, 0, 0);
	}
	const char *deep = sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "agent:/deep");
	assert_true(strncmp(deep, "unknown (more than 128 directories deep", 39) == 0);
	free(drv);
}

static void test_command_files_and_trees(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_tree(f->dir);
	fx_dir(f->dir, "usr/lib", 0755, 0, 0);
	fx_dir(f->dir, "usr/lib/node_modules", 0755, 0, 0);
	fx_dir(f->dir, "usr/lib/node_modules/tool", 0755, 0, 0);
	fx_file(f->dir, "usr/lib/node_modules/tool/package.json", "{}", 0644, 0, 0);
	fx_file(f->dir, "usr/lib/node_modules/tool/cli.js", "#!/usr/bin/nodejs\n", 0755, 0, 0);
	const fx_elf plain = {0};
	fx_elf_file(f->dir, "usr/bin/nodejs", &plain, 0755, 0, 0);
	fx_link(f->dir, "usr/bin/tool", "../lib/node_modules/tool/cli.js");
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_COMMAND_FILES, "tool:/usr/local/bin:/usr/bin"),
	    "{ \"/usr/bin/tool\", \"/usr/bin/../lib/node_modules/tool/cli.js\", "
	    "\"/usr/bin/../lib/node_modules/tool\", \"/usr/bin/../lib/node_modules\", "
	    "\"/usr/bin/nodejs\" }");
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_COMMAND_FILES, "nope:/usr/bin"),
	                    "absent (no nope on the PATH /usr/bin)");
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_COMMAND_FILES, "tool:bin:/usr/bin"),
	    "unknown (a directory of the PATH: 'bin' is not an absolute path: it is resolved "
	    "against the working directory of whoever uses it, which the agent may choose)");
	/* tree_writable, computed for the agent: a file it owns, a directory
	 * anyone writes, an ACL; hangar's closed directory and the package are
	 * out of its reach */
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	sx_acl_user_rw(f->dir, "etc/acl", FX_AGENT);
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/bin"), "true");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/local"), "true");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/etc"), "true");
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/node_modules"), "false");
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/var/lib/hangar-ctl"), "false");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/nowhere"),
	                    "false");
	/* a symlink in the package out to a file the agent owns */
	fx_link(f->dir, "usr/lib/node_modules/tool/dep.js", "/tmp/agentf");
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/node_modules/tool"),
	    "true");
	/* a dangling one out to where the agent can create the file (/tmp is
	 * sticky and open to all), and one where it cannot (/usr/bin is root's) */
	sx_rm(f->dir, "usr/lib/node_modules/tool/dep.js");
	fx_link(f->dir, "usr/lib/node_modules/tool/dep.js", "/tmp/later.js");
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/node_modules/tool"),
	    "true");
	sx_rm(f->dir, "usr/lib/node_modules/tool/dep.js");
	fx_link(f->dir, "usr/lib/node_modules/tool/dep.js", "/usr/bin/none.js");
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/node_modules/tool"),
	    "false");
	/* ...and to a directory out of the tree, walked as a tree of its own
	 * (a new role's process: what one found of a tree is kept for it):
	 * the agent's home, and a root-owned directory holding only root's */
	sx_rm(f->dir, "usr/lib/node_modules/tool/dep.js");
	fx_link(f->dir, "usr/lib/node_modules/tool/deps", "/home/agent");
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/node_modules"), "true");
	fx_dir(f->dir, "opt", 0755, 0, 0);
	fx_dir(f->dir, "opt/dep", 0755, 0, 0);
	fx_dir(f->dir, "opt/dep/lib", 0755, 0, 0);
	fx_file(f->dir, "opt/dep/lib/x.js", "x", 0644, 0, 0);
	sx_rm(f->dir, "usr/lib/node_modules/tool/deps");
	fx_link(f->dir, "usr/lib/node_modules/tool/deps", "/opt/dep");
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/node_modules"), "false");
	/* deep in it, a file the agent owns */
	fx_file(f->dir, "opt/dep/lib/y.js", "y", 0644, FX_AGENT, FX_AGENT);
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/node_modules"), "true");
	sx_rm(f->dir, "opt/dep/lib/y.js");
	/* links out of each walked directory into the next, round again:
	 * unknown once they are nested past the bound */
	fx_link(f->dir, "opt/dep/lib/back", "/usr/lib/node_modules");
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_non_null(strstr(
	    sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/node_modules"),
	    "links out of a tree to a directory nested more than 8 deep"));
	sx_rm(f->dir, "opt/dep/lib/back");
	sx_rm(f->dir, "usr/lib/node_modules/tool/deps");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "usr/lib"),
	                    "unknown ('usr/lib' is not an absolute path: it is resolved against "
	                    "the working directory of whoever uses it, which the agent may "
	                    "choose)");
}

/* A link stays in the tree only when it resolves there, every link on
 * its way followed: one that reads as staying (../../usr/local/evil from
 * /etc/claude-code, lexically below it; d/f, relative without "..",
 * through that one) but leads to a file the agent may write is "true",
 * whichever link the walk meets first (the directory out of the tree is
 * walked as a tree of its own); links that do stay, by
 * any spelling, are walked and "false". The same for root's walk for the
 * agent (tree_writable_by). */
static void test_tree_writable_links_resolved(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_tree(f->dir);
	fx_dir(f->dir, "etc/claude-code", 0755, 0, 0);
	fx_dir(f->dir, "usr/local/evil", 0755, 0, 0);
	fx_file(f->dir, "usr/local/evil/managed-settings.json", "{}", 0666, 0, 0);
	fx_link(f->dir, "etc/claude-code/d", "../../usr/local/evil");
	fx_link(f->dir, "etc/claude-code/managed-settings.json", "d/managed-settings.json");
	const char *spellings[][2] = {
	    {"../../usr/local/evil", "d/managed-settings.json"},
	    {"../../usr/local/evil", "d/../d/managed-settings.json"},
	    {"/etc/claude-code/../../usr/local/evil", "d/managed-settings.json"},
	    {"/usr/local/evil", "./d/managed-settings.json"},
	};
	for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
		sx_rm(f->dir, "etc/claude-code/d");
		sx_rm(f->dir, "etc/claude-code/managed-settings.json");
		fx_link(f->dir, "etc/claude-code/d", spellings[i][0]);
		fx_link(f->dir, "etc/claude-code/managed-settings.json", spellings[i][1]);
		char got[2][512];
		sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
		snprintf(got[0], sizeof got[0], "%s",
		         sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/etc/claude-code"));
		snprintf(got[1], sizeof got[1], "%s",
		         sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY,
		                    "agent:/etc/claude-code"));
		for (int k = 0; k < 2; k++) {
			if (strcmp(got[k], "true") != 0)
				print_error("d -> %s, managed-settings.json -> %s: %s (%s)\n",
				            spellings[i][0], spellings[i][1], got[k],
				            k ? "tree_writable_by" : "tree_writable");
			assert_string_equal(got[k], "true");
		}
	}
	/* the link to the directory alone: out of the tree, walked there */
	sx_rm(f->dir, "etc/claude-code/managed-settings.json");
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/etc/claude-code"),
	                    "true");
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "agent:/etc/claude-code"), "true");
	/* the file by a link with "..": judged where it leads */
	sx_rm(f->dir, "etc/claude-code/d");
	fx_link(f->dir, "etc/claude-code/managed-settings.json",
	        "../../usr/local/evil/managed-settings.json");
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/etc/claude-code"),
	                    "true");
	/* links that stay in the tree, spelled every way: walked, and root's */
	sx_rm(f->dir, "etc/claude-code/managed-settings.json");
	fx_dir(f->dir, "etc/claude-code/conf", 0755, 0, 0);
	fx_file(f->dir, "etc/claude-code/conf/managed-settings.json", "{}", 0644, 0, 0);
	fx_link(f->dir, "etc/claude-code/c", "conf");
	fx_link(f->dir, "etc/claude-code/managed-settings.json", "c/managed-settings.json");
	fx_link(f->dir, "etc/claude-code/conf/again.json", "../c/managed-settings.json");
	fx_link(f->dir, "etc/claude-code/round.json", "../claude-code/c/managed-settings.json");
	fx_link(f->dir, "etc/claude-code/abs", "/etc/claude-code/conf");
	fx_link(f->dir, "etc/claude-code/gone", "c/nothing");
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/etc/claude-code"),
	                    "false");
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "agent:/etc/claude-code"), "false");
	/* ...and found when what they lead to is the agent's */
	char *m = fx_path(f->dir, "etc/claude-code/conf/managed-settings.json");
	assert_int_equal(chmod(m, 0666), 0);
	free(m);
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/etc/claude-code"),
	                    "true");
}

/* tree_writable by two paths to one tree (/lib -> usr/lib, as on a merged
 * /usr): walked once when its links stay in the tree, each path's own
 * walk when one leads out of it by an absolute text: what it leads to was
 * found from the path the walk was asked by, so the first answer is not
 * reused. An absolute link to a directory of the tree, by the tree's other
 * path, is walked: where a directory is is found from its parents, never
 * from how the link reads. */
static void test_tree_writable_twins(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_tree(f->dir);
	fx_dir(f->dir, "usr/lib", 0755, 0, 0);
	fx_link(f->dir, "lib", "usr/lib");
	fx_dir(f->dir, "usr/lib/gconv", 0755, 0, 0);
	fx_file(f->dir, "usr/lib/gconv/A.so", "x", 0644, 0, 0);
	fx_link(f->dir, "usr/lib/gconv/B.so", "A.so");
	fx_dir(f->dir, "usr/lib/pkg", 0755, 0, 0);
	fx_dir(f->dir, "usr/lib/pkg/sub", 0755, 0, 0);
	fx_link(f->dir, "usr/lib/pkg/deps", "/usr/lib/pkg/sub");
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/gconv"),
	                    "false");
	/* the second path's answer is the first walk's: a file changed since
	 * (which no role's process sees within one check) is not looked at */
	char *a = fx_path(f->dir, "usr/lib/gconv/A.so");
	assert_int_equal(chown(a, FX_AGENT, FX_AGENT), 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/lib/gconv"), "false");
	assert_int_equal(chown(a, 0, 0), 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/pkg"),
	                    "false");
	/* walked again by the second path: a file changed since is seen */
	fx_file(f->dir, "usr/lib/pkg/sub/f", "x", 0644, FX_AGENT, FX_AGENT);
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/lib/pkg"), "true");
	sx_rm(f->dir, "usr/lib/pkg/sub/f");
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/lib/pkg"), "false");
	/* a file the agent owns: found by the first path, and the second */
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_int_equal(chown(a, FX_AGENT, FX_AGENT), 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/lib/gconv"), "true");
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/usr/lib/gconv"),
	                    "true");
	free(a);
}

/* A directory whose default ACL lets the agent write what another user
 * creates in it later: hangar-home itself, a directory below it, an empty
 * one; the agent named, its group named, other. Found by root's walk for
 * the agent and by the agent's own (computed); a default ACL that grants
 * it nothing is not. */
static void test_tree_default_acl(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	if (system("command -v setfacl >/dev/null 2>&1") != 0) {
		print_message("skipped: setfacl is not installed\n");
		skip();
	}
	sx_tree(f->dir);
	fx_dir(f->dir, "var/lib/hangar", 0755, FX_HANGAR, FX_HANGAR);
	fx_dir(f->dir, "var/lib/hangar/harness", 0755, FX_HANGAR, FX_HANGAR);
	fx_dir(f->dir, "var/lib/hangar/harness/empty", 0755, FX_HANGAR, FX_HANGAR);
	fx_file(f->dir, "var/lib/hangar/harness/settings.json", "{}", 0644, FX_HANGAR, FX_HANGAR);
	const char *by = "agent:/var/lib/hangar";
	assert_string_equal(sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, by), "false");
	const char *where[] = {"var/lib/hangar", "var/lib/hangar/harness",
	                       "var/lib/hangar/harness/empty"};
	char spec[64], cmd[1024];
	for (size_t w = 0; w < 3; w++) {
		for (int k = 0; k < 4; k++) {
			if (k == 0)
				snprintf(spec, sizeof spec, "u:%d:rwx", (int)FX_AGENT);
			else if (k == 1)
				snprintf(spec, sizeof spec, "g:%d:rw", (int)FX_AGENT);
			else if (k == 2)
				snprintf(spec, sizeof spec, "o::rw");
			else
				snprintf(spec, sizeof spec, "u:%d:rx", (int)FX_AGENT);
			const char *want = k == 3 ? "false" : "true";
			snprintf(cmd, sizeof cmd, "setfacl -d -m '%s' %s/%s", spec, f->dir, where[w]);
			assert_int_equal(system(cmd), 0);
			sx_as_role(f, HP_ROLE_ROOT, 0, 0, 0);
			assert_string_equal(
			    sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, by), want);
			sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
			assert_string_equal(
			    sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/var/lib/hangar"),
			    want);
			/* the directory listed: "." stands for what is created in it */
			char *top = hp_xasprintf("/%s", where[w]);
			assert_string_equal(
			    sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE_ENTRIES, top),
			    k == 3 ? "{}" : "{ \".\" }");
			free(top);
			snprintf(cmd, sizeof cmd, "setfacl -k %s/%s", f->dir, where[w]);
			assert_int_equal(system(cmd), 0);
		}
	}
}

/* A masked unit is a link to /dev/null: anyone may write it, and every
 * reader still reads nothing, so it is no way into the tree. A device
 * whose content a writer does change (a terminal mode 0666) is. For the
 * agent's own walk and root's walk with its credentials alike. */
static void test_tree_fixed_content_devices(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	sx_tree(f->dir);
	fx_dir(f->dir, "dev", 0755, 0, 0);
	char *p = fx_path(f->dir, "dev/null");
	assert_int_equal(mknod(p, S_IFCHR | 0666, makedev(1, 3)), 0);
	assert_int_equal(chmod(p, 0666), 0);
	free(p);
	fx_dir(f->dir, "etc/units", 0755, 0, 0);
	fx_link(f->dir, "etc/units/cron.service", "/dev/null");
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/etc/units"),
	                    "false");
	assert_string_equal(
	    sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, "agent:/etc/units"), "false");
	p = fx_path(f->dir, "dev/ttyX");
	assert_int_equal(mknod(p, S_IFCHR | 0666, makedev(4, 64)), 0);
	assert_int_equal(chmod(p, 0666), 0);
	free(p);
	fx_link(f->dir, "etc/units/console", "/dev/ttyX");
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	assert_string_equal(sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, "/etc/units"),
	                    "true");
}

/* A link out of a tree is judged by the file it ends on, however the
 * role may change it: by its group, its ACL, its owner, its mode, or its
 * directory, the file reached through another link too. The role's own
 * live walk rules most targets out by their owner and mode without opening
 * them; each way in must still be found there, and the image's walks (the
 * role's computed, and root's with its credentials) must agree. One tree
 * a case, etc/tN, holding one link. */
static const struct {
	const char *text;
	const char *want;
} links_out[] = {
    {"../../opt/rootf", "false"},   {"../../opt/hop-root", "false"},
    {"../../opt/missing", "false"}, {"../../opt/grp", "true"},
    {"../../opt/acl", "true"},      {"../../opt/mine", "true"},
    {"../../opt/wide", "true"},     {"../../opt/w/f", "true"},
    {"../../opt/hop", "true"},      {"../../opt/w/missing", "true"},
};
#define NLINKS_OUT (sizeof links_out / sizeof links_out[0])

/* Whether tree c->rel[i] is answered want by all three walks: the agent's
 * live one (c->got[i], asked by sx_ask_as_agent), its computed one in the
 * image, and root's walk of the image with its credentials; what differs
 * is printed, with what the case is. */
static bool tree_agrees(sx_fx *f, const sx_live_asks *c, size_t i, const char *want,
                        const char *what)
{
	char top[40], by[48], got[3][256];
	snprintf(top, sizeof top, "/%s", c->rel[i]);
	snprintf(by, sizeof by, "agent:%s", top);
	snprintf(got[0], sizeof got[0], "%s", c->got[i]);
	sx_as_role(f, HP_ROLE_AGENT, FX_AGENT, FX_AGENT, 0);
	snprintf(got[1], sizeof got[1], "%s", sx_ask_str(f, HP_ROLE_AGENT, HP_PROBE_TREE_WRITABLE, top));
	snprintf(got[2], sizeof got[2], "%s",
	         sx_ask_str(f, HP_ROLE_ROOT, HP_PROBE_TREE_WRITABLE_BY, by));
	static const char *how[] = {"live", "image", "image, root's walk"};
	bool same = true;
	for (int k = 0; k < 3; k++)
		if (strcmp(got[k], want) != 0) {
			print_error("%s: %s: %s (%s), want %s\n", top, what, got[k], how[k], want);
			same = false;
		}
	return same;
}

static void test_tree_links_out_judged(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	const char *d = f->dir;
	sx_tree(d);
	fx_dir(d, "opt", 0755, 0, 0);
	fx_file(d, "opt/rootf", "x", 0644, 0, 0);
	fx_file(d, "opt/grp", "x", 0664, 0, FX_AGENT);
	fx_file(d, "opt/acl", "x", 0644, 0, 0);
	sx_acl_user_rw(d, "opt/acl", FX_AGENT);
	fx_file(d, "opt/mine", "x", 0444, FX_AGENT, FX_AGENT);
	fx_file(d, "opt/wide", "x", 0666, 0, 0);
	fx_dir(d, "opt/w", 0777, 0, 0);
	fx_file(d, "opt/w/f", "x", 0644, 0, 0);
	fx_link(d, "opt/hop", "grp");
	fx_link(d, "opt/hop-root", "rootf");
	for (size_t i = 0; i < NLINKS_OUT; i++) {
		char rel[32];
		snprintf(rel, sizeof rel, "etc/t%zu", i);
		fx_dir(d, rel, 0755, 0, 0);
		snprintf(rel, sizeof rel, "etc/t%zu/l", i);
		fx_link(d, rel, links_out[i].text);
	}
	sx_live_asks *c = sx_live_asks_new(d, HP_PROBE_TREE_WRITABLE);
	for (size_t i = 0; i < NLINKS_OUT; i++) {
		char rel[32];
		snprintf(rel, sizeof rel, "etc/t%zu", i);
		sx_live_asks_add(c, rel);
	}
	assert_int_equal(fx_run_as(FX_AGENT, FX_AGENT, sx_ask_as_agent, c), 0);
	int wrong = 0;
	for (size_t i = 0; i < NLINKS_OUT; i++) {
		char what[64];
		snprintf(what, sizeof what, "l -> %s", links_out[i].text);
		wrong += !tree_agrees(f, c, i, links_out[i].want, what);
	}
	munmap(c, sizeof *c);
	assert_int_equal(wrong, 0);
}

/* A directory below the top the role can write, however it may: by its
 * group, an ACL entry, owning it, its mode, sticky or not; found by the
 * role's own live walk, which rules most directories out by their owner
 * and mode without asking the kernel, and by the image's walks alike.
 * A directory whose mode says no is still opened and its default ACL
 * read: one naming the agent lets it write what is created there later.
 * One tree a case, etc/dN, holding the directory sub (with a file in it,
 * so the walk goes on below it). */
static void test_tree_dirs_judged(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	const char *d = f->dir;
	sx_tree(d);
	const struct {
		mode_t mode;
		uid_t uid;
		gid_t gid;
		int acl; /* 1: an ACL entry for the agent, 2: a default ACL's */
		const char *want;
	} dirs[] = {
	    {0755, 0, 0, 0, "false"},        {0555, 0, 0, 0, "false"},
	    {0775, 0, FX_AGENT, 0, "true"},  {0755, 0, 0, 1, "true"},
	    {0555, FX_AGENT, FX_AGENT, 0, "true"}, {0777, 0, 0, 0, "true"},
	    {01777, 0, 0, 0, "true"},        {0757, 0, 0, 0, "true"},
	    {0770, 0, FX_OTHER, 0, "false"}, {0755, 0, 0, 2, "true"},
	};
	enum { NDIRS = sizeof dirs / sizeof dirs[0] };
	sx_live_asks *c = sx_live_asks_new(d, HP_PROBE_TREE_WRITABLE);
	for (size_t i = 0; i < NDIRS; i++) {
		char top[32], rel[40];
		snprintf(top, sizeof top, "etc/d%zu", i);
		sx_live_asks_add(c, top);
		fx_dir(d, top, 0755, 0, 0);
		snprintf(rel, sizeof rel, "%s/sub", top);
		fx_dir(d, rel, 0755, dirs[i].uid, dirs[i].gid);
		snprintf(rel, sizeof rel, "%s/sub/f", top);
		fx_file(d, rel, "x", 0644, 0, 0);
		snprintf(rel, sizeof rel, "%s/sub", top);
		if (dirs[i].acl == 2) {
			char cmd[1024];
			snprintf(cmd, sizeof cmd, "setfacl -d -m 'u:%d:rwx' %s/%s", (int)FX_AGENT, d,
			         rel);
			if (system(cmd) != 0) {
				print_message("skipped: setfacl is not installed\n");
				munmap(c, sizeof *c);
				skip();
			}
		} else if (dirs[i].acl) {
			sx_acl_user_rw(d, rel, FX_AGENT);
		} else {
			char *p = fx_path(d, rel);
			assert_int_equal(chmod(p, dirs[i].mode), 0);
			free(p);
		}
	}
	assert_int_equal(fx_run_as(FX_AGENT, FX_AGENT, sx_ask_as_agent, c), 0);
	int wrong = 0;
	for (size_t i = 0; i < NDIRS; i++) {
		char what[80];
		snprintf(what, sizeof what, "sub mode %o owner %u:%u%s", (unsigned)dirs[i].mode,
		         (unsigned)dirs[i].uid, (unsigned)dirs[i].gid,
		         dirs[i].acl == 2 ? " default ACL" : dirs[i].acl ? " ACL" : "");
		wrong += !tree_agrees(f, c, i, dirs[i].want, what);
	}
	munmap(c, sizeof *c);
	assert_int_equal(wrong, 0);
}

/* An overlay's statx shows its layer's owner and mode as they are now,
 * while the kernel's permission check uses the overlay inode's own copy
 * of them, refreshed only by changes made through the overlay: once a
 * layer's file is changed directly (here 0666 to 0644, a directory 0777 to
 * 0755, after a lookup through the overlay), the agent still writes it
 * through the overlay. So no owner and mode rule anything out on an
 * overlay, and every walk asks the kernel: tree_writable of a file, of a
 * directory and of a link out of its tree to a file there, and
 * writable_entries of a file and of a link to one. */
typedef struct {
	sx_live_asks *trees, *entries;
} overlay_asks;

static int overlay_stale_as_agent(void *arg)
{
	overlay_asks *o = arg;
	const char *d = o->trees->dir;
	char *lo = fx_path(d, "lo"), *up = fx_path(d, "up"), *wk = fx_path(d, "wk"),
	     *ov = fx_path(d, "ov");
	char *opts = hp_xasprintf("lowerdir=%s,upperdir=%s,workdir=%s", lo, up, wk);
	int r = 0;
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		r = 10;
	else if (mount("overlay", ov, "overlay", 0, opts) < 0)
		r = 77; /* no overlay here */
	/* looked up through the overlay and held, so that its inodes and
	 * their copies of owner and mode stay; then the layer changed */
	const char *held[] = {"ov/t1/f", "ov/t2/sub", "ov/t3/h"};
	const char *layer[] = {"lo/t1/f", "lo/t2/sub", "lo/t3/h"};
	const mode_t now[] = {0644, 0755, 0644};
	int fds[3] = {-1, -1, -1};
	for (int i = 0; i < 3 && r == 0; i++) {
		char *p = fx_path(d, held[i]), *q = fx_path(d, layer[i]);
		fds[i] = open(p, O_PATH | O_CLOEXEC);
		if (fds[i] < 0 || chmod(q, now[i]) < 0)
			r = 11;
		free(p);
		free(q);
	}
	if (r == 0)
		r = fx_run_as(FX_AGENT, FX_AGENT, sx_ask_as_agent, o->trees);
	if (r == 0)
		r = fx_run_as(FX_AGENT, FX_AGENT, sx_ask_as_agent, o->entries);
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(opts);
	free(lo);
	free(up);
	free(wk);
	free(ov);
	return r;
}

static void test_overlay_stale_modes(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	const char *d = f->dir;
	fx_dir(d, "lo", 0755, 0, 0);
	fx_dir(d, "up", 0755, 0, 0);
	fx_dir(d, "wk", 0755, 0, 0);
	fx_dir(d, "ov", 0755, 0, 0);
	fx_dir(d, "lo/t1", 0755, 0, 0);
	fx_file(d, "lo/t1/f", "x", 0666, 0, 0);
	fx_dir(d, "lo/t2", 0755, 0, 0);
	fx_dir(d, "lo/t2/sub", 0777, 0, 0);
	fx_dir(d, "lo/t3", 0755, 0, 0);
	fx_file(d, "lo/t3/h", "x", 0666, 0, 0);
	fx_dir(d, "etc/o", 0755, 0, 0);
	fx_link(d, "etc/o/l", "../../ov/t3/h");
	overlay_asks o = {sx_live_asks_new(d, HP_PROBE_TREE_WRITABLE),
	                  sx_live_asks_new(d, HP_PROBE_WRITABLE_ENTRIES)};
	sx_live_asks_add(o.trees, "ov/t1");
	sx_live_asks_add(o.trees, "ov/t2");
	sx_live_asks_add(o.trees, "etc/o");
	sx_live_asks_add(o.entries, "ov/t1");
	sx_live_asks_add(o.entries, "etc/o");
	int r = fx_in_child(overlay_stale_as_agent, &o);
	if (r == 77) {
		munmap(o.trees, sizeof *o.trees);
		munmap(o.entries, sizeof *o.entries);
		print_message("skipped: no overlay filesystem here\n");
		skip();
	}
	assert_int_equal(r, 0);
	const char *want[] = {"true", "true", "true", "{ \"f\" }", "{ \"l\" }"};
	int wrong = 0;
	for (int i = 0; i < 5; i++) {
		const sx_live_asks *c = i < 3 ? o.trees : o.entries;
		const char *got = c->got[i < 3 ? i : i - 3];
		if (strcmp(got, want[i]) != 0) {
			print_error("%s of %s: %s, want %s\n",
			            i < 3 ? "tree_writable" : "writable_entries",
			            c->rel[i < 3 ? i : i - 3], got, want[i]);
			wrong++;
		}
	}
	munmap(o.trees, sizeof *o.trees);
	munmap(o.entries, sizeof *o.entries);
	assert_int_equal(wrong, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_tree_writable_by, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_tree_writable_links_resolved, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_tree_default_acl, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_tree_writable_twins, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_command_files_and_trees, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_tree_fixed_content_devices, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_tree_links_out_judged, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_tree_dirs_judged, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_overlay_stale_modes, sx_setup, sx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
