/* test_codegen.c: code generation from source: every shipped policy
 * compiles to verified bytecode, twice to the same bytes; constants are
 * folded and params are not; the bytecode's limits are reported as
 * diagnostics at the source; and small policies evaluated from facts give
 * the language's three-valued results. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"
#include "model/disasm.h"
#include "check/eval.h"
#include "probe/facts.h"
#include "front.h"

static uint8_t *compile_text(const char *src, size_t *len, char *errbuf, size_t errlen)
{
	hp_diags d;
	hp_diags_init(&d);
	hp_program *p = hp_front_compile_text("t.hpol", src, strlen(src), NULL, &d);
	uint8_t *out = p->ok ? hp_codegen(p, len, &d) : NULL;
	if (errbuf) {
		errbuf[0] = '\0';
		if (d.n)
			snprintf(errbuf, errlen, "%u:%u: %s", d.v[0].span.line, d.v[0].span.col,
			         d.v[0].msg);
	}
	hp_program_free(p);
	hp_diags_free(&d);
	return out;
}

static hp_bc *load_text(const char *src)
{
	size_t len;
	char e[512];
	uint8_t *data = compile_text(src, &len, e, sizeof e);
	if (!data)
		fail_msg("does not compile: %s", e);
	hp_err err;
	hp_bc *bc = hp_bc_load("t.hpb", data, len, &err);
	free(data);
	if (!bc)
		fail_msg("does not verify: %s", err.msg);
	return bc;
}

static void test_policies_compile_deterministically(void **state)
{
	(void)state;
	DIR *d = opendir("policies");
	assert_non_null(d);
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 6 || strcmp(e->d_name + l - 5, ".hpol") != 0)
			continue;
		char path[512];
		snprintf(path, sizeof path, "policies/%s", e->d_name);
		hp_diags d1, d2;
		hp_diags_init(&d1);
		hp_diags_init(&d2);
		size_t l1, l2;
		hp_program *p1, *p2;
		uint8_t *a = hp_compile_file(path, &l1, &d1, &p1);
		uint8_t *b = hp_compile_file(path, &l2, &d2, &p2);
		if (!a)
			fail_msg("%s does not compile: %s", path, d1.n ? d1.v[0].msg : "?");
		assert_non_null(b);
		assert_int_equal(l1, l2);
		assert_memory_equal(a, b, l1);
		/* file names are relative to the policy's directory */
		assert_null(memmem(a, l1, "policies/", 9));
		free(a);
		free(b);
		hp_program_free(p1);
		hp_program_free(p2);
		hp_diags_free(&d1);
		hp_diags_free(&d2);
		n++;
	}
	closedir(d);
	assert_true(n >= 1);
}

static char listing[65536];

static const char *disasm(const hp_bc *bc)
{
	hp_buf b = {0};
	hp_bc_region all = {0, bc->ncode};
	hp_disasm_region(&b, bc, all);
	snprintf(listing, sizeof listing, "%s", b.data);
	hp_buf_free(&b);
	return listing;
}

static void test_folding(void **state)
{
	(void)state;
	hp_bc *bc = load_text("policy \"t\" version 1\n"
	                      "param dirs = split(\"/a:\" + \"/b\", \":\")\n"
	                      "param mode_mask = 0o755 & 0o022\n"
	                      "param yes = not false and (1 < 2 or 3 > 4)\n"
	                      "param path = \"/x\" or \"/y\"\n"
	                      "param tag = \"v\" + 2\n"
	                      "param has = \"su\" in { \"su\", \"sudo\" }\n"
	                      "param sub = { \"a\" } <= { \"a\", \"b\" }\n"
	                      "param inter = { \"b\", \"a\" } & { \"a\" }\n"
	                      "param uses = dirs\n"
	                      "role agent = uid 1000\n"
	                      "rule r \"t\" { as agent { require yes } }\n");
	const char *l = disasm(bc);
	assert_non_null(strstr(l, "PUSH_LIST     { \"/a\", \"/b\" }"));
	assert_non_null(strstr(l, "PUSH_INT      0\n"));
	assert_non_null(strstr(l, "PUSH_BOOL     true"));
	assert_non_null(strstr(l, "PUSH_STR      \"/x\""));
	assert_non_null(strstr(l, "PUSH_STR      \"v2\""));
	assert_non_null(strstr(l, "PUSH_LIST     { \"a\" }"));
	/* params stay params: overridable with --param */
	assert_non_null(strstr(l, "LOAD_PARAM    dirs"));
	assert_null(strstr(l, "SPLIT"));
	assert_null(strstr(l, "CONCAT"));
	assert_null(strstr(l, "JUMP"));
	hp_bc_free(bc);
}

static const char *compile_error(const char *src)
{
	static char e[512];
	size_t len;
	uint8_t *out = compile_text(src, &len, e, sizeof e);
	free(out);
	return out ? "(compiled)" : e;
}

static void test_limits(void **state)
{
	(void)state;
	/* a right-leaning chain needs a stack slot per level */
	hp_buf b = {0};
	hp_buf_puts(&b, "policy \"t\" version 1\nrole agent = uid 1\nparam p = env(\"A\") == ");
	for (int i = 0; i < 70; i++)
		hp_buf_puts(&b, "(env(\"A\") + ");
	hp_buf_puts(&b, "\"x\"");
	for (int i = 0; i < 70; i++)
		hp_buf_puts(&b, ")");
	hp_buf_puts(&b, "\nrule r \"t\" { as agent { require p } }\n");
	assert_string_equal(compile_error(b.data),
	                    "3:11: this expression needs more than 64 values on the stack");
	hp_buf_free(&b);
	hp_buf_puts(&b, "policy \"t\" version 1\nrole agent = uid 1\nrule r \"t\" { as agent {\n");
	for (int i = 0; i < 9; i++)
		hp_buf_printf(&b, "for v%d in split(env(\"P\"), \":\") max 2 {\n", i);
	hp_buf_puts(&b, "forbid writable(v0)\n");
	for (int i = 0; i < 9; i++)
		hp_buf_puts(&b, "}\n");
	hp_buf_puts(&b, "} }\n");
	assert_string_equal(compile_error(b.data), "12:1: loops are nested more than 8 deep");
	hp_buf_free(&b);
}

/* Evaluate src against facts; the rule results, one word each. */
static const hp_param_override *eval_ov;
static size_t eval_nov;

static const char *evaluate(const char *src, const char *facts)
{
	static char out[4096];
	hp_bc *bc = load_text(src);
	hp_facts *f = hp_probe_facts_new();
	hp_err err;
	if (!hp_probe_facts_load(f, "f.yaml", facts, strlen(facts), &err))
		fail_msg("%s", err.msg);
	hp_eval ev;
	assert_true(
	    hp_eval_run(bc, hp_probe_facts_backend(f), eval_ov, eval_nov, NULL, &ev, &err));
	hp_buf b = {0};
	for (uint32_t i = 0; i < bc->nrules; i++) {
		hp_buf_printf(&b, "%s%s", i ? " " : "", hp_result_names[ev.rules[i].result]);
		if (ev.rules[i].result != HP_RESULT_PASS) {
			hp_buf_puts(&b, " [");
			hp_rule_result_evidence(&b, bc, &ev.rules[i]);
			hp_buf_puts(&b, "]");
		}
	}
	snprintf(out, sizeof out, "%s", b.data);
	hp_buf_free(&b);
	hp_eval_free(&ev);
	hp_probe_facts_free(f);
	hp_bc_free(bc);
	return out;
}

static const char *policy =
    "policy \"t\" version 1\n"
    "param agent_user = env(\"AGENT\") or \"agent\"\n"
    "role root = uid 0\n"
    "role agent = user(agent_user), no caps, no_new_privs\n"
    "rule exists-user \"e\" { as root { require exists user(agent_user) } }\n"
    "rule no-sudo \"s\" { as agent { forbid sudo } }\n"
    "rule path \"p\" { as agent { for d in split(env(\"PATH\") or \"/bin\", \":\") max 2 {\n"
    "  forbid writable(d) } } }\n"
    "rule kleene \"k\" { as agent { require no_new_privs or sudo } }\n";

/* A record's fields are its own (a uid is not the gid), the more severe of
 * two non-values wins (absent == unknown is unknown), and a loop over a list
 * that could not be computed makes its assertions unknown. */
static void test_fields_and_non_values(void **state)
{
	(void)state;
	static const char src[] =
	    "policy \"t\" version 1\n"
	    "role root = uid 0\n"
	    "rule ids \"i\" { as root { require user(\"h\").uid == 1001\n"
	    "  require user(\"h\").gid == 1002\n"
	    "  require group(\"g\").gid == 7 } }\n"
	    "rule sev \"s\" { as root { require env(\"A\") == env(\"B\") } }\n"
	    "rule loop \"l\" { as root { for d in split(env(\"P\"), \":\") { forbid writable(d) } } }\n";
	assert_string_equal(
	    evaluate(src, "facts:\n"
	                  "- {probe: user, arg: h, answer: {name: h, uid: 1001, gid: 1002}}\n"
	                  "- {probe: group, arg: g, answer: {name: g, gid: 7}}\n"
	                  "- {probe: env, arg: A, answer: absent}\n"
	                  "- {probe: env, arg: B, answer: unknown, reason: unreadable}\n"
	                  "- {probe: env, arg: P, answer: unknown, reason: unreadable}\n"),
	    "pass "
	    "error [require env(\"A\") == env(\"B\") (t.hpol:6:26) as root: unknown "
	    "(unreadable); observed env(\"A\") is absent, env(\"B\") is unknown (unreadable)] "
	    "error [forbid writable(d) (t.hpol:7:59) as root: unknown (unreadable); observed "
	    "env(\"P\") is unknown (unreadable)]");
}

static void test_semantics(void **state)
{
	(void)state;
	/* everything answered and holding */
	assert_string_equal(
	    evaluate(policy, "facts:\n"
	                     "- {probe: env, arg: AGENT, answer: absent}\n"
	                     "- {probe: env, arg: PATH, answer: absent}\n"
	                     "- {probe: user, arg: agent, answer: {name: agent, uid: 1, gid: 1}}\n"
	                     "- {role: agent, probe: sudo, answer: false}\n"
	                     "- {role: agent, probe: writable, arg: /bin, answer: false}\n"
	                     "- {role: agent, probe: no_new_privs, answer: true}\n"),
	    "pass pass pass pass");
	/* a failure, an unknown, a skipped role probe; Kleene: true or unknown */
	assert_string_equal(
	    evaluate(policy, "facts:\n"
	                     "- {probe: env, arg: AGENT, answer: ghost}\n"
	                     "- {probe: env, arg: PATH, answer: \"/a:/b:/c\"}\n"
	                     "- {probe: user, arg: ghost, answer: absent}\n"
	                     "- {role: agent, probe: sudo, answer: skipped, reason: offline}\n"
	                     "- {role: agent, probe: no_new_privs, answer: true}\n"),
	    "fail [require exists user(agent_user) (t.hpol:5:34) as root: fails; observed "
	    "user(\"ghost\") is absent] "
	    "skipped [forbid sudo (t.hpol:6:31) as agent: skipped (offline); observed sudo as "
	    "agent "
	    "is skipped (offline)] "
	    "error [forbid writable(d) (t.hpol:8:3) as agent: unknown (the list has 3 items, more "
	    "than the loop's bound of 2); observed env(\"PATH\") is \"/a:/b:/c\"] "
	    "pass");
	/* an unknown param poisons everything that reads it */
	assert_string_equal(
	    evaluate(policy, "facts:\n- {role: agent, probe: no_new_privs, answer: false}\n"
	                     "- {role: agent, probe: sudo, answer: false}\n"),
	    "error [require exists user(agent_user) (t.hpol:5:34) as root: unknown (no fact "
	    "answers env(\"AGENT\"))] "
	    "pass "
	    "error [forbid writable(d) (t.hpol:8:3) as agent: unknown (no fact answers "
	    "env(\"PATH\")); observed env(\"PATH\") is unknown (no fact answers env(\"PATH\"))] "
	    "fail [require no_new_privs or sudo (t.hpol:9:30) as agent: fails; observed "
	    "no_new_privs as agent is false, sudo as agent is false]");
}

/* A loop over an empty list is unknown, with a sentence naming the loop,
 * its list and the params it comes from, unless it says `allow empty`;
 * `never empty` says the default on purpose. The compiler emits NONEMPTY
 * before every FOR but an `allow empty` one. */
static const char empty_src[] =
    "policy \"t\" version 1\n"
    "param l = { \"a\", \"b\" }\n"
    "role root = uid 0\n"
    "rule unsaid \"u\" { as root { for g in user(\"u\").groups & { \"sudo\" } {\n"
    "  forbid g == \"sudo\" } } }\n"
    "rule allowed \"a\" { as root { for g in user(\"u\").groups allow empty {\n"
    "  forbid g == \"sudo\" } } }\n"
    "rule forbidden \"f\" { as root { for g in l max 4 never empty {\n"
    "  forbid g == \"sudo\" } } }\n";

static void test_empty_loops(void **state)
{
	(void)state;
	static const char facts[] =
	    "facts:\n- {probe: user, arg: u, answer: {name: u, uid: 5, gid: 5, groups: []}}\n";
	hp_param_override ov = {"l", ""};
	eval_ov = &ov;
	eval_nov = 1;
	const char *got = evaluate(empty_src, facts);
	eval_ov = NULL;
	eval_nov = 0;
	assert_string_equal(
	    got,
	    "error [forbid g == \"sudo\" (t.hpol:5:3) as root: unknown (the loop 'for g in "
	    "user(\"u\").groups & { \"sudo\" }' went over an empty list: it checked nothing, and "
	    "that is no pass unless the loop says 'allow empty'); observed user(\"u\") is "
	    "user \"u\" (uid 5, gid 5, home \"\", shell \"\", groups {})] "
	    "pass "
	    "error [forbid g == \"sudo\" (t.hpol:9:3) as root: unknown (the loop 'for g in l' "
	    "went over an empty list (from param 'l'): it checked nothing, and that is no pass "
	    "unless the loop says 'allow empty')]");
	/* with the param as declared its loop runs; the probe's list is still empty */
	assert_string_equal(
	    evaluate(empty_src, facts),
	    "error [forbid g == \"sudo\" (t.hpol:5:3) as root: unknown (the loop 'for g in "
	    "user(\"u\").groups & { \"sudo\" }' went over an empty list: it checked nothing, and "
	    "that is no pass unless the loop says 'allow empty'); observed user(\"u\") is "
	    "user \"u\" (uid 5, gid 5, home \"\", shell \"\", groups {})] pass pass");
	hp_bc *bc = load_text(empty_src);
	unsigned nonempty = 0, loops = 0;
	for (uint32_t i = 0; i < bc->ncode; i++) {
		nonempty += bc->code[i].op == HP_I_NONEMPTY;
		if (bc->code[i].op == HP_I_FOR) {
			loops++;
			/* NONEMPTY stands right before FOR, or not at all */
			assert_true(i > 0);
		}
	}
	assert_int_equal(loops, 3);
	assert_int_equal(nonempty, 2);
	hp_bc_free(bc);
}

/* lint's empty-loop warning: a loop over a list param that says nothing of
 * an empty list, at the list, with the fix; none for a list that is not a
 * param's, nor once the loop says what empty means. */
static void test_empty_loop_warning(void **state)
{
	(void)state;
	static const char src[] =
	    "policy \"t\" version 1\n"
	    "param l = { \"a\" }\n"
	    "param p = \"/bin\"\n"
	    "role root = uid 0\n"
	    "rule w \"w\" { as root {\n"
	    "  for g in l { forbid g == \"x\" }\n"
	    "  for g in split(p, \":\") { forbid g == \"x\" }\n"
	    "  for g in l allow empty { forbid g == \"x\" }\n"
	    "  for g in l never empty { forbid g == \"x\" }\n"
	    "  for g in l & { \"b\" } { forbid g == \"x\" } } }\n";
	hp_diags d;
	hp_diags_init(&d);
	hp_program *p = hp_front_compile_text("t.hpol", src, strlen(src), NULL, &d);
	assert_true(p->ok);
	hp_buf b = {0};
	for (size_t i = 0; i < d.n; i++)
		hp_buf_printf(&b, "%u:%u %s: %s | help: %s\n", d.v[i].span.line, d.v[i].span.col,
		              hp_diag_code_names[d.v[i].code], d.v[i].msg, d.v[i].help ? d.v[i].help : "");
	const char *want = "'for g' goes over param 'l', which can be empty (`--param l=` empties it): the loop then checks nothing, and its assertions are unknown | help: say what an empty list means: `never empty` (unknown, never a pass) or `allow empty` (the loop holds) before the '{'";
	char both[1024];
	snprintf(both, sizeof both, "6:12 empty-loop: %s\n10:12 empty-loop: %s\n", want, want);
	assert_string_equal(b.data ? b.data : "", both);
	hp_buf_free(&b);
	hp_program_free(p);
	hp_diags_free(&d);
}

static void test_roles_and_providers(void **state)
{
	(void)state;
	hp_bc *bc = load_text("policy \"t\" version 1\n"
	                      "role root = uid 0\n"
	                      "role hangar = user(\"hangar\"), keep caps { setuid, kill }\n"
	                      "rule r \"t\" when mode in { ask } and provider == e2b {\n"
	                      "  as hangar { require caps.ambient >= { kill } }\n"
	                      "  remedy \"fix it\"\n}\n"
	                      "provider e2b { uid_split default required\n"
	                      "  split needs env(\"X\") == \"1\"\n"
	                      "  never split when env(\"Y\") == \"1\" because \"no token\" }\n");
	assert_int_equal(bc->nroles, 2);
	assert_int_equal(bc->roles[0].role, HP_ROLE_ROOT);
	assert_int_equal(bc->roles[0].identity_type, HP_T_INT);
	assert_int_equal(bc->roles[1].identity_type, HP_T_USER);
	assert_int_equal(bc->roles[1].flags, HP_BC_ROLE_KEEP_CAPS);
	assert_int_equal(bc->roles[1].keep_caps, (1u << 5) | (1u << 7));
	assert_int_equal(bc->rules[0].applies, HP_APPLIES_BIT(HP_MODE_ASK, HP_PROVIDER_E2B));
	assert_string_equal(hp_bc_str(bc, bc->rules[0].remedy), "fix it");
	assert_int_equal(bc->nproviders, 1);
	assert_int_equal(bc->providers[0].uid_split, HP_SETTING_REQUIRED);
	assert_int_equal(bc->nconds, 2);
	assert_string_equal(hp_bc_str(bc, bc->conds[0].text), "env(\"X\") == \"1\"");
	assert_string_equal(hp_bc_str(bc, bc->conds[1].because), "no token");
	/* the adapters decide.h reads */
	hp_facts *f = hp_probe_facts_new();
	hp_err err;
	const char *facts = "facts:\n- {probe: env, arg: X, answer: \"1\"}\n";
	assert_true(hp_probe_facts_load(f, "f.yaml", facts, strlen(facts), &err));
	hp_eval ev;
	assert_true(
	    hp_eval_run(bc, hp_probe_facts_backend(f), eval_ov, eval_nov, NULL, &ev, &err));
	hp_strv keep = {0};
	hp_rule_outcome ro[1];
	hp_eval_rule_outcomes(&ev, ro, &keep);
	assert_string_equal(ro[0].id, "r");
	assert_string_equal(ro[0].location, "t.hpol:4:1");
	assert_int_equal(ro[0].result, HP_RESULT_ERROR);
	hp_provider_policy pp;
	hp_condition conds[2];
	assert_false(hp_eval_provider(&ev, HP_PROVIDER_DOCKER, &pp, conds, &keep));
	assert_true(hp_eval_provider(&ev, HP_PROVIDER_E2B, &pp, conds, &keep));
	assert_int_equal(pp.default_setting, HP_SETTING_REQUIRED);
	assert_int_equal(pp.nneeds, 1);
	assert_int_equal(pp.needs[0].holds, HP_TRUE);
	assert_int_equal(pp.nnever, 1);
	assert_int_equal(pp.never[0].holds, HP_UNKNOWN);
	assert_string_equal(pp.never[0].observed, "unknown (no fact answers env(\"Y\"))");
	assert_string_equal(pp.never[0].because, "no token");
	hp_strv_free(&keep);
	hp_eval_free(&ev);
	hp_probe_facts_free(f);
	hp_bc_free(bc);
}

/* The probes of a role's body in the order its code asks them. */
static size_t body_probes(const hp_bc *bc, hp_role role, int *out, size_t max)
{
	const hp_bc_region b = bc->roles[bc->role_index[role]].body;
	size_t n = 0;
	for (uint32_t pc = b.start; pc < b.start + b.len && n < max; pc++)
		if (bc->code[pc].op == HP_I_PROBE0 || bc->code[pc].op == HP_I_PROBE1)
			out[n++] = (int)bc->code[pc].b;
	return n;
}

/* A block that asks a probe answered by a job (sudo) comes after the
 * role's others, whatever the rule order: the role's child does its other
 * checks while sudo runs. Each assertion keeps its number, so the results
 * are the same. */
static void test_job_blocks_last(void **state)
{
	(void)state;
	hp_bc *bc = load_text("policy \"t\" version 1\n"
	                      "role agent = user(\"agent\"), no caps, no_new_privs\n"
	                      "rule s \"t\" { as agent { forbid sudo and not no_new_privs } }\n"
	                      "rule w \"t\" { as agent { forbid writable(\"/usr/bin\") } }\n"
	                      "rule l \"t\" { as agent {\n"
	                      "  for d in split(\"/a:/b\", \":\") { forbid writable(d) or sudo } } }\n"
	                      "rule c \"t\" { as agent { require no_new_privs } }\n");
	int got[8];
	size_t n = body_probes(bc, HP_ROLE_AGENT, got, 8);
	assert_int_equal(n, 6);
	assert_int_equal(got[0], HP_PROBE_WRITABLE);
	assert_int_equal(got[1], HP_PROBE_NO_NEW_PRIVS);
	assert_int_equal(got[2], HP_PROBE_SUDO); /* rule s, first in the source */
	assert_int_equal(got[3], HP_PROBE_NO_NEW_PRIVS);
	assert_int_equal(got[4], HP_PROBE_WRITABLE); /* rule l, its loop whole */
	assert_int_equal(got[5], HP_PROBE_SUDO);
	/* the assertions are numbered in source order, as before; their code
	 * is where the body now has it */
	assert_int_equal(bc->nasserts, 4);
	assert_int_equal(bc->asserts[0].rule, 0);
	assert_int_equal(bc->asserts[3].rule, 3);
	assert_true(bc->asserts[1].pc < bc->asserts[3].pc);
	assert_true(bc->asserts[3].pc < bc->asserts[0].pc);
	assert_true(bc->asserts[0].pc < bc->asserts[2].pc);
	hp_bc_free(bc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_policies_compile_deterministically),
	    cmocka_unit_test(test_folding),
	    cmocka_unit_test(test_limits),
	    cmocka_unit_test(test_semantics),
	    cmocka_unit_test(test_fields_and_non_values),
	    cmocka_unit_test(test_empty_loops),
	    cmocka_unit_test(test_empty_loop_warning),
	    cmocka_unit_test(test_roles_and_providers),
	    cmocka_unit_test(test_job_blocks_last),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
