/* test_session.c: whole checks through hp_session_run on fixture image
 * roots: roles in children with their identities (as root) or in this
 * process with computed answers (not root), --role, bad params and roles,
 * identities that cannot be had, the check's deadline, the root helper for
 * global probes in a non-root role, the facts backend, and --record with
 * its round trip through the facts reader. */
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

#include "codegen.h"
#include "front.h"
#include "diag.h"
#include "probe/facts.h"
#include "fixture.h"
#include "check/record.h"
#include "check/session.h"

typedef struct {
	char *dir; /* the image */
	char *src; /* policies */
	hp_bc *bc;
} fx;

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static hp_bc *compile(fx *f, const char *text)
{
	char *path = fx_path(f->src, "p.hpol");
	write_file(path, text);
	hp_diags d;
	hp_diags_init(&d);
	size_t len;
	hp_program *prog;
	uint8_t *bytes = hp_compile_file(path, &len, &d, &prog);
	if (!bytes)
		fail_msg("the test policy does not compile (%zu diagnostics)", d.n);
	hp_program_free(prog);
	hp_diags_free(&d);
	hp_err e;
	hp_bc *bc = hp_bc_load("p.hpb", bytes, len, &e);
	free(bytes);
	free(path);
	assert_non_null(bc);
	return bc;
}

static void put(const char *dir, const char *rel, const char *text)
{
	char *p = fx_path(dir, rel);
	write_file(p, text);
	free(p);
}

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	f->dir = fx_tmpdir();
	f->src = fx_tmpdir();
	const char *d = f->dir;
	char pw[512], gr[256];
	fx_dir(d, "etc", 0755, 0, 0);
	snprintf(pw, sizeof pw,
	         "root:x:0:0:root:/root:/bin/sh\nhangar:x:%u:%u::/var/lib/hangar:/bin/false\n"
	         "agent:x:%u:%u::/home/agent:/bin/sh\n",
	         (unsigned)FX_HANGAR, (unsigned)FX_HANGAR, (unsigned)FX_AGENT, (unsigned)FX_AGENT);
	snprintf(gr, sizeof gr, "root:x:0:\nhangar:x:%u:\nagent:x:%u:\nstaff:x:%u:agent\n",
	         (unsigned)FX_HANGAR, (unsigned)FX_AGENT, (unsigned)FX_GROUP);
	put(d, "etc/passwd", pw);
	put(d, "etc/group", gr);
	fx_dir(d, "pub", 0777, 0, 0);
	fx_dir(d, "shut", 0700, FX_HANGAR, FX_HANGAR);
	fx_file(d, "shut/key", "k", 0600, FX_HANGAR, FX_HANGAR);
	fx_dir(d, "staff", 0770, 0, FX_GROUP);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fx *f = *state;
	hp_bc_free(f->bc);
	fx_rmtree(f->dir);
	fx_rmtree(f->src);
	free(f);
	return 0;
}

static const char policy[] = "policy \"t\" version 1\n"
                             "param agent_user = \"agent\"\n"
                             "role root = uid 0\n"
                             "role hangar = user(\"hangar\"), keep caps { kill }\n"
                             "role agent = user(agent_user), no caps, no_new_privs\n"
                             "rule pub-open \"the agent can write pub\" {\n"
                             "    as agent { require writable(\"/pub\") }\n"
                             "}\n"
                             "rule shut-shut \"the agent cannot read the key\" {\n"
                             "    as agent { forbid readable(\"/shut/key\") }\n"
                             "    as hangar { require readable(\"/shut/key\") }\n"
                             "}\n"
                             "rule staff \"the agent's supplementary group counts\" {\n"
                             "    as agent { require writable(\"/staff\") }\n"
                             "}\n"
                             "rule no-caps \"offline: skipped\" {\n"
                             "    as agent { require caps.effective == {} }\n"
                             "}\n";

static hp_session_status run(fx *f, hp_session_opts *o, hp_session *s, hp_err *e)
{
	o->source = HP_SESSION_ROOTFS;
	o->root_dir = f->dir;
	return hp_session_run(f->bc, o, s, e);
}

static const char *result_of(const hp_session *s, uint32_t rule)
{
	return hp_result_names[s->eval.rules[rule].result];
}

static void check_offline_results(hp_session *s)
{
	assert_string_equal(result_of(s, 0), "pass");
	assert_string_equal(result_of(s, 1), "pass");
	assert_string_equal(result_of(s, 2), "pass");
	assert_string_equal(result_of(s, 3), "skipped");
	assert_true(s->offline);
	assert_string_equal(s->backend, "rootfs");
	assert_int_equal(s->live_needed, 1);
	assert_int_equal(s->roles_run, 3);
	assert_int_equal(s->notes.n, 0);
}

static void test_rootfs_as_root(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	f->bc = compile(f, policy);
	hp_session_opts o;
	hp_session_opts_default(&o);
	hp_session s;
	hp_err e;
	assert_int_equal(run(f, &o, &s, &e), HP_SESSION_OK);
	check_offline_results(&s);
	for (int r = 0; r < HP_ROLE_COUNT; r++)
		assert_true(s.ran[r]);
	hp_session_free(&s);
}

/* Without root: every role in this process, computed. */
static int not_root_child(void *arg)
{
	fx *f = arg;
	hp_session_opts o;
	hp_session_opts_default(&o);
	hp_session s;
	hp_err e;
	if (run(f, &o, &s, &e) != HP_SESSION_OK)
		return 1;
	int bad = strcmp(result_of(&s, 0), "pass") || strcmp(result_of(&s, 2), "pass") ||
	          strcmp(result_of(&s, 3), "skipped") || s.roles_run != 3;
	/* hangar's read of its key is computed; this process cannot even look
	 * into /shut, so the walk is unknown: never a pass, and never the
	 * "cannot reach it" that is the answer only when the process is the
	 * role */
	bad = bad || strcmp(result_of(&s, 1), "error");
	if (bad)
		for (uint32_t i = 0; i < f->bc->nrules; i++) {
			hp_buf b = {0};
			hp_rule_result_evidence(&b, f->bc, &s.eval.rules[i]);
			print_error("rule %u: %s: %s\n", i, result_of(&s, i), b.data);
			hp_buf_free(&b);
		}
	hp_session_free(&s);
	return bad ? 2 : 0;
}

static void test_rootfs_not_root(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	f->bc = compile(f, policy);
	assert_int_equal(fx_run_as(FX_OTHER, FX_OTHER, not_root_child, f), 0);
}

static void test_role_selection(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	f->bc = compile(f, policy);
	hp_session_opts o;
	hp_session_opts_default(&o);
	hp_err e;
	unsigned mask = 0;
	assert_true(hp_session_role_bit("agent", &mask, &e));
	assert_false(hp_session_role_bit("driver", &mask, &e));
	assert_string_equal(e.msg, "--role driver: not a role (roles: root, hangar, agent)");
	o.roles = mask;
	hp_session s;
	assert_int_equal(run(f, &o, &s, &e), HP_SESSION_OK);
	assert_int_equal(s.roles_run, 1);
	assert_int_equal(s.notes.n, 2);
	assert_string_equal(s.notes.v[0], "role root not run: not selected with --role");
	assert_string_equal(s.notes.v[1], "role hangar not run: not selected with --role");
	assert_string_equal(result_of(&s, 0), "pass");
	/* shut-shut has an assertion in hangar, which did not run */
	assert_string_equal(result_of(&s, 1), "skipped");
	hp_session_free(&s);
}

static void test_usage_errors(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	f->bc = compile(f, "policy \"t\" version 1\nrole root = uid 0\n"
	                   "rule r \"t\" { as root { require exists(\"/etc\") } }\n");
	hp_session_opts o;
	hp_session_opts_default(&o);
	o.roles = 1u << HP_ROLE_AGENT;
	hp_session s;
	hp_err e;
	assert_int_equal(run(f, &o, &s, &e), HP_SESSION_USAGE);
	assert_string_equal(e.msg, "--role agent: the policy declares no role agent");
	hp_session_free(&s);
	hp_session_opts_default(&o);
	hp_param_override ov = {"nope", "1"};
	o.params = &ov;
	o.nparams = 1;
	assert_int_equal(run(f, &o, &s, &e), HP_SESSION_USAGE);
	assert_string_equal(
	    e.msg, "--param nope: the policy has no param named 'nope' (its params: none)");
	hp_session_free(&s);
	hp_session_opts_default(&o);
	o.source = HP_SESSION_ROOTFS;
	o.root_dir = "/nonexistent/image";
	assert_int_equal(hp_session_run(f->bc, &o, &s, &e), HP_SESSION_FAILED);
	assert_string_equal(e.msg, "/nonexistent/image: cannot open as a root directory: No such "
	                           "file or directory");
	hp_session_free(&s);
}

static void test_identity_missing(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	f->bc = compile(f, policy);
	hp_session_opts o;
	hp_session_opts_default(&o);
	hp_param_override ov = {"agent_user", "ghost"};
	o.params = &ov;
	o.nparams = 1;
	hp_session s;
	hp_err e;
	assert_int_equal(run(f, &o, &s, &e), HP_SESSION_OK);
	assert_string_equal(result_of(&s, 0), "error");
	hp_buf b = {0};
	hp_rule_result_evidence(&b, f->bc, &s.eval.rules[0]);
	assert_string_equal(b.data, "as agent: role agent cannot run: its identity is absent (no "
	                            "user \"ghost\" in etc/passwd)");
	hp_buf_free(&b);
	assert_int_equal(s.eval.roles[HP_ROLE_AGENT].status, HP_RUN_STOPPED);
	hp_session_free(&s);
}

static void test_deadline(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	f->bc = compile(f, policy);
	hp_session_opts o;
	hp_session_opts_default(&o);
	o.deadline_ms = 1;
	hp_session s;
	hp_err e;
	assert_int_equal(run(f, &o, &s, &e), HP_SESSION_OK);
	for (uint32_t i = 0; i < f->bc->nrules; i++)
		assert_string_not_equal(result_of(&s, i), "pass");
	hp_buf b = {0};
	hp_rule_result_evidence(&b, f->bc, &s.eval.rules[0]);
	assert_string_equal(b.data,
	                    "as agent: role agent not run: the check's deadline of 1 ms passed");
	hp_buf_free(&b);
	hp_session_free(&s);
}

/* A role whose checks outlast the check's deadline: its child's VM stops
 * itself (or, on a loaded machine, the child is killed at its deadline),
 * and every rule of the role is an error (never a pass), with the reason. */
static void test_slow_role_stops(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	f->bc = compile(f, "policy \"t\" version 1\n"
	                   "param dirs = \"\"\n"
	                   "role root = uid 0\n"
	                   "role agent = user(\"agent\"), no caps, no_new_privs\n"
	                   "rule r \"t\" {\n"
	                   "    as agent {\n"
	                   "        for a in split(dirs, \":\") max 3000 {\n"
	                   "            for b in split(dirs, \":\") max 3000 {\n"
	                   "                forbid writable(a + b)\n"
	                   "            }\n"
	                   "        }\n"
	                   "    }\n"
	                   "}\n");
	hp_buf dirs = {0};
	hp_buf_puts(&dirs, "dirs=");
	for (int i = 0; i < 3000; i++)
		hp_buf_printf(&dirs, "%s/pub/%d", i ? ":" : "", i);
	hp_param_override ov = {"dirs", dirs.data + 5};
	hp_session_opts o;
	hp_session_opts_default(&o);
	o.params = &ov;
	o.nparams = 1;
	o.deadline_ms = 600;
	hp_session s;
	hp_err e;
	assert_int_equal(run(f, &o, &s, &e), HP_SESSION_OK);
	assert_string_equal(result_of(&s, 0), "error");
	assert_int_equal(s.eval.roles[HP_ROLE_AGENT].status, HP_RUN_STOPPED);
	const char *why =
	    hp_role_result_str(&s.eval.roles[HP_ROLE_AGENT], s.eval.roles[HP_ROLE_AGENT].reason);
	assert_non_null(why);
	/* the VM's own time limit; on a loaded machine the child can run past
	 * its deadline first and be killed, which stops the role the same way
	 * (how soon is the benchmarks' business, not a test's) */
	if (!strstr(why, "time limit of "))
		assert_non_null(strstr(why, "exceeded its"));
	assert_true(s.millis < 600 + 2000); /* never past the backstop */
	hp_session_free(&s);
	hp_buf_free(&dirs);
}

/* A global probe in the agent's block about a path the agent cannot reach
 * is root's answer (the root helper), not unknown. */
static void test_root_helper(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	char text[1024];
	snprintf(text, sizeof text,
	         "policy \"t\" version 1\nrole root = uid 0\n"
	         "role agent = user(\"agent\"), no caps, no_new_privs\n"
	         "rule r \"t\" {\n"
	         "    as agent {\n"
	         "        require owner(\"/shut/key\") == %u\n"
	         "        require mode(\"/shut/key\") == 0o600\n"
	         "        require setuid_root(\"/shut\") == {}\n"
	         "        forbid readable(\"/shut/key\")\n"
	         "    }\n"
	         "}\n",
	         (unsigned)FX_HANGAR);
	f->bc = compile(f, text);
	hp_session_opts o;
	hp_session_opts_default(&o);
	hp_session s;
	hp_err e;
	assert_int_equal(run(f, &o, &s, &e), HP_SESSION_OK);
	assert_string_equal(result_of(&s, 0), "pass");
	assert_int_equal(s.eval.rules[0].count[HP_OUT_HOLDS], 4);
	hp_session_free(&s);
}

/* --record, then the recording through the facts backend: the same rule
 * results. */
static void test_record_roundtrip(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	f->bc = compile(f, policy);
	char *rec = fx_path(f->src, "rec.yaml");
	hp_session_opts o;
	hp_session_opts_default(&o);
	o.record = rec;
	hp_session s;
	hp_err e;
	assert_int_equal(run(f, &o, &s, &e), HP_SESSION_OK);
	struct stat st;
	assert_int_equal(stat(rec, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	hp_facts *facts = hp_probe_facts_new();
	if (!hp_probe_facts_load_file(facts, rec, &e))
		fail_msg("the recording does not load: %s", e.msg);
	hp_session_opts fo;
	hp_session_opts_default(&fo);
	fo.source = HP_SESSION_FACTS;
	fo.facts = hp_probe_facts_backend(facts);
	hp_session r;
	assert_int_equal(hp_session_run(f->bc, &fo, &r, &e), HP_SESSION_OK);
	assert_string_equal(r.backend, "facts");
	for (uint32_t i = 0; i < f->bc->nrules; i++)
		assert_int_equal(r.eval.rules[i].result, s.eval.rules[i].result);
	hp_session_free(&r);
	hp_session_free(&s);
	hp_probe_facts_free(facts);
	/* a record that cannot be written: the results are still there */
	hp_session_opts_default(&o);
	o.record = "/nonexistent/dir/rec.yaml";
	assert_int_equal(run(f, &o, &s, &e), HP_SESSION_FAILED);
	assert_non_null(s.eval.rules);
	assert_int_equal(strncmp(e.msg, "--record /nonexistent/dir/rec.yaml: ", 36), 0);
	hp_session_free(&s);
	free(rec);
}

/* The recording's text: each question once, global ones without a role,
 * values the format cannot hold recorded as unknown. */
static void test_record_text(void **state)
{
	FX_NEED_ROOT();
	fx *f = *state;
	fx_file(f->dir, "bad\xff", "x", 04755, 0, 0);
	f->bc = compile(f, "policy \"t\" version 1\n"
	                   "param p = env(\"HP_REC_TEST\")\n"
	                   "role root = uid 0\n"
	                   "role agent = user(\"agent\"), no caps, no_new_privs\n"
	                   "rule r \"t\" {\n"
	                   "    as root { require owner(\"/pub\") == 0 and p == \"a\\\"b\" }\n"
	                   "    as agent {\n"
	                   "        require owner(\"/pub\") == 0\n"
	                   "        require writable(\"/pub\")\n"
	                   "        require caps.ambient == {}\n"
	                   "        require setuid_root(\"/\") == {}\n"
	                   "    }\n"
	                   "}\n");
	setenv("HP_REC_TEST", "a\"b", 1);
	hp_session_opts o;
	hp_session_opts_default(&o);
	hp_session s;
	hp_err e;
	assert_int_equal(run(f, &o, &s, &e), HP_SESSION_OK);
	hp_buf b = {0};
	hp_record_text(&b, f->bc, &s.eval.globals, s.eval.roles, "rootfs");
	char want[2048];
	snprintf(want, sizeof want,
	         "# facts recorded by hangar-policy check (rootfs) from policy \"t\"\n"
	         "version: 1\n"
	         "facts:\n"
	         "  - probe: env\n"
	         "    arg: \"HP_REC_TEST\"\n"
	         "    answer: \"a\\\"b\"\n"
	         "  - probe: user\n"
	         "    arg: \"agent\"\n"
	         "    answer: {name: \"agent\", uid: %u, gid: %u, home: \"/home/agent\", shell: "
	         "\"/bin/sh\", groups: [\"agent\", \"staff\"]}\n"
	         /* hangar's own setting, asked after phase one whatever the policy */
	         "  - probe: env\n"
	         "    arg: \"HANGAR_E2B_ALLOW_UNAUTHENTICATED_ENVD\"\n"
	         "    answer: absent\n"
	         "  - probe: owner\n"
	         "    arg: \"/pub\"\n"
	         "    answer: 0\n"
	         "  - role: agent\n"
	         "    probe: writable\n"
	         "    arg: \"/pub\"\n"
	         "    answer: true\n"
	         "  - role: agent\n"
	         "    probe: caps.ambient\n"
	         "    answer: skipped\n"
	         "    reason: \"needs a live sandbox\"\n"
	         "  - probe: setuid_root\n"
	         "    arg: \"/\"\n"
	         "    answer: unknown\n"
	         "    reason: \"the observed value is not valid UTF-8 and cannot be recorded\"\n",
	         (unsigned)FX_AGENT, (unsigned)FX_AGENT);
	assert_string_equal(b.data, want);
	hp_buf_free(&b);
	hp_session_free(&s);
	unsetenv("HP_REC_TEST");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_rootfs_as_root, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rootfs_not_root, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_role_selection, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_usage_errors, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_identity_missing, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_deadline, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_slow_role_stops, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_root_helper, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_record_roundtrip, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_record_text, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
