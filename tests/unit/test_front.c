/* test_front.c: the front end through its entry point: the checked
 * annotations code generation relies on (probe ids, folded when masks,
 * loop bounds, capability masks, resolved names), includes from memory,
 * independence of two compilations, and the exact text of diagnostics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "diag_out.h"
#include "front.h"

static const char *files[][2] = {
    {"lib/roles.hpol", "policy \"roles\" version 1\n"
                       "role root = uid 0\n"
                       "role hangar = user(\"hangar\"), keep caps { setuid, kill }\n"
                       "role agent = user(agent_user), no caps, no_new_privs\n"},
};

static int reader(void *ctx, const char *path, char **text, size_t *len, char *err, size_t n)
{
	(void)ctx;
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		if (strcmp(path, files[i][0]) == 0) {
			*text = strdup(files[i][1]);
			*len = strlen(files[i][1]);
			return 0;
		}
	}
	snprintf(err, n, "No such file or directory");
	return -1;
}

static hp_program *compile(const char *text, hp_diags *d)
{
	hp_front_opts o = {0};
	o.read = reader;
	hp_diags_init(d);
	return hp_front_compile_text("main.hpol", text, strlen(text), &o, d);
}

static const char good[] = "policy \"t\" version 3\n"
                           "param agent_user = env(\"HANGAR_AGENT_USER\") or user(uid 1000).name\n"
                           "param path = \"/bin:/usr/bin\"\n"
                           "include \"lib/roles.hpol\"\n"
                           "rule r \"title\" when mode in { ask, governed } and provider != e2b {\n"
                           "    as agent {\n"
                           "        for d in split(path, \":\") max 8 {\n"
                           "            forbid writable(d)\n"
                           "        }\n"
                           "        forbid signal(canary hangar)\n"
                           "        require exists user(agent_user)\n"
                           "        require exists(\"/x\")\n"
                           "    }\n"
                           "    as hangar { require caps.ambient >= { setuid, kill } }\n"
                           "    remedy \"do it\"\n"
                           "}\n"
                           "provider e2b { uid_split default required }\n";

static void test_checked_annotations(void **state)
{
	(void)state;
	hp_diags d;
	hp_program *p = compile(good, &d);
	assert_int_equal(d.nerrors, 0);
	assert_true(p->ok);
	assert_string_equal(p->name, "t");
	assert_int_equal(p->version, 3);
	assert_int_equal(p->nfiles, 2);
	assert_string_equal(p->files[1]->path, "lib/roles.hpol");
	assert_int_equal(p->nparams, 2);
	assert_int_equal(p->params[0]->u.param.expr->type, HP_T_STR);
	assert_non_null(p->roles[HP_ROLE_HANGAR]);
	uint64_t caps = p->roles[HP_ROLE_HANGAR]->u.role.caps;
	assert_true(caps & (1ull << CAP_SETUID));
	assert_true(caps & (1ull << CAP_KILL));
	assert_false(caps & (1ull << CAP_SETGID));
	assert_true(p->roles[HP_ROLE_AGENT]->u.role.no_new_privs);
	assert_int_equal(p->nrules, 1);
	hp_decl *r = p->rules[0];
	/* when: ask or governed, any provider but e2b */
	hp_applies want = 0;
	for (int pv = 0; pv < HP_PROVIDER_COUNT; pv++)
		if (pv != HP_PROVIDER_E2B)
			want |=
			    HP_APPLIES_BIT(HP_MODE_ASK, pv) | HP_APPLIES_BIT(HP_MODE_GOVERNED, pv);
	assert_int_equal(r->u.rule.applies, want);
	assert_int_equal(r->u.rule.roles, (1u << HP_ROLE_AGENT) | (1u << HP_ROLE_HANGAR));
	assert_string_equal(r->u.rule.remedy, "do it");
	hp_block *b = r->u.rule.blocks;
	assert_int_equal(b->role, HP_ROLE_AGENT);
	hp_stmt *loop = b->body;
	assert_int_equal(loop->kind, HP_ST_FOR);
	assert_int_equal(loop->max, 8);
	assert_int_equal(loop->expr->u.call.builtin, HP_BUILTIN_SPLIT);
	hp_expr *w = loop->body->expr;
	assert_int_equal(w->u.call.probe, HP_PROBE_WRITABLE);
	assert_int_equal(w->u.call.args->u.name.ref, HP_REF_LOOP);
	assert_ptr_equal(w->u.call.args->u.name.loop, loop);
	hp_expr *sig = loop->next->expr;
	assert_int_equal(sig->u.call.probe, HP_PROBE_SIGNAL);
	assert_int_equal(sig->u.call.args->u.canary.role, HP_ROLE_HANGAR);
	hp_expr *ex_user = loop->next->next->expr;
	assert_int_equal(ex_user->u.op.probe, -1); /* a record test */
	hp_expr *ex_path = loop->next->next->next->expr;
	assert_int_equal(ex_path->u.op.probe, HP_PROBE_EXISTS);
	/* user(uid 1000) is user_by_uid */
	hp_expr *fb = p->params[0]->u.param.expr->u.op.b;
	assert_int_equal(fb->u.field.base->u.call.probe, HP_PROBE_USER_BY_UID);
	assert_int_equal(fb->u.field.field, HP_FIELD_NAME);
	hp_expr *ge = b->next->body->expr;
	assert_int_equal(ge->u.op.a->u.name.ref, HP_REF_PROBE);
	assert_int_equal(ge->u.op.a->u.name.index, HP_PROBE_CAPS_AMBIENT);
	assert_int_equal(ge->u.op.b->type, HP_T_CAPS);
	assert_int_equal(p->providers[HP_PROVIDER_E2B]->u.provider.setting, HP_SETTING_REQUIRED);
	assert_null(p->providers[HP_PROVIDER_DOCKER]);
	hp_program_free(p);
	hp_diags_free(&d);
}

static char *printed(hp_diags *d)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	hp_diag_style st = {false, 0};
	hp_diags_print(f, d, &st);
	hp_diags_print_summary(f, d, (uint32_t)d->n);
	fclose(f);
	return buf;
}

static void test_two_compilations_interleaved(void **state)
{
	(void)state;
	static const char bad[] = "policy \"a\" version 1\nparam x = writable(\"/\")\n";
	hp_diags d1, d2, d3;
	hp_program *p1 = compile(bad, &d1);
	hp_program *p2 = compile(good, &d2);
	hp_program *p3 = compile(bad, &d3);
	assert_false(p1->ok);
	assert_true(p2->ok);
	assert_false(p3->ok);
	assert_int_equal(d2.nerrors, 0);
	hp_program_free(p2);
	hp_diags_free(&d2);
	char *out1 = printed(&d1);
	char *out3 = printed(&d3);
	assert_string_equal(out1, "main.hpol:2:11: error: 'writable' is asked as a role, so it "
	                          "cannot be used in a param\n"
	                          "   2 | param x = writable(\"/\")\n"
	                          "     |           ^~~~~~~~\n"
	                          "help: use it in a rule, inside an 'as ROLE { ... }' block\n"
	                          "1 error generated\n");
	assert_string_equal(out1, out3);
	free(out1);
	free(out3);
	hp_program_free(p1);
	hp_program_free(p3);
	hp_diags_free(&d1);
	hp_diags_free(&d3);
}

static void test_diagnostics_sorted_with_tabs(void **state)
{
	(void)state;
	hp_diags d;
	hp_program *p = compile("policy \"t\" version 1\nrole root = uid 0\n"
	                        "rule b \"t\" {\n\tas root {\n\t\trequire 1 == \"x\"\n\t}\n}\n"
	                        "rule a \"t\" { as root { require nope } }\n",
	                        &d);
	char *out = printed(&d);
	assert_string_equal(out, "main.hpol:5:11: error: '==' compares an int with a string\n"
	                         "   5 | \t\trequire 1 == \"x\"\n"
	                         "     | \t\t        ^~~~~~~~\n"
	                         "main.hpol:8:32: error: undefined name 'nope'\n"
	                         "   8 | rule a \"t\" { as root { require nope } }\n"
	                         "     |                                ^~~~\n"
	                         "2 errors generated\n");
	free(out);
	hp_program_free(p);
	hp_diags_free(&d);
}

static void test_unreadable_top(void **state)
{
	(void)state;
	hp_diags d;
	hp_diags_init(&d);
	hp_program *p = hp_front_compile("/nonexistent/x.hpol", NULL, &d);
	assert_false(p->ok);
	char *out = printed(&d);
	assert_string_equal(out,
	                    "/nonexistent/x.hpol: error: cannot read: No such file or directory\n"
	                    "1 error generated\n");
	free(out);
	hp_program_free(p);
	hp_diags_free(&d);
}

static void test_json_record(void **state)
{
	(void)state;
	hp_diags d;
	hp_program *p = compile("policy \"t\" version 1\nparam x = \"\xc3\xa9\" + 1 + true\n", &d);
	hp_diag_recs r = {0};
	for (size_t i = 0; i < d.n; i++)
		assert_int_equal(hp_diag_recs_add(&r, &d.v[i]), 1);
	assert_int_equal(hp_diag_recs_add(&r, &d.v[0]), 0); /* the same one again */
	hp_buf b = {0};
	hp_diag_recs_json(&b, &r);
	assert_string_equal(
	    b.data,
	    "{\"format_version\": 1, \"diagnostics\": [\n  {\"file\": \"main.hpol\", \"line\": 2, \"column\": 11, \"end_column\": 26, "
	    "\"severity\": \"error\", \"code\": \"type-mismatch\", \"message\": \"'+' joins "
	    "strings, "
	    "not a string and a bool\", \"help\": \"an int is joined to a string as its decimal "
	    "digits\", \"note\": null}\n]}\n");
	assert_int_equal(r.v[0].end_ccol, 25); /* é is one code point */
	hp_buf_free(&b);
	hp_diag_recs_free(&r);
	hp_program_free(p);
	hp_diags_free(&d);
}

/* compile, free, then print: everything printed was copied when reported */
static void test_diagnostics_outlive_program(void **state)
{
	(void)state;
	hp_diags d;
	hp_program *p = compile("policy \"t\" version 1\nparam x = 1 == \"a\"\nparam x = 2\n", &d);
	hp_program_free(p);
	char *out = printed(&d);
	assert_string_equal(out, "main.hpol:2:11: error: '==' compares an int with a string\n"
	                         "   2 | param x = 1 == \"a\"\n"
	                         "     |           ^~~~~~~~\n"
	                         "main.hpol:3:7: error: param 'x' is declared twice\n"
	                         "   3 | param x = 2\n"
	                         "     |       ^\n"
	                         "main.hpol:2:7: note: the first declaration is here\n"
	                         "   2 | param x = 1 == \"a\"\n"
	                         "     |       ^\n"
	                         "2 errors generated\n");
	free(out);
	hp_diags_free(&d);
}

static void test_edit_distance(void **state)
{
	(void)state;
	assert_int_equal(hp_edit_distance("setuid", "setuidd", 3), 1);
	assert_int_equal(hp_edit_distance("kill", "kill", 3), 0);
	assert_int_equal(hp_edit_distance("abc", "xyz", 2), 3);
	assert_int_equal(hp_edit_distance("writeable", "writable", 3), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_checked_annotations),
	    cmocka_unit_test(test_two_compilations_interleaved),
	    cmocka_unit_test(test_diagnostics_sorted_with_tabs),
	    cmocka_unit_test(test_unreadable_top),
	    cmocka_unit_test(test_json_record),
	    cmocka_unit_test(test_diagnostics_outlive_program),
	    cmocka_unit_test(test_edit_distance),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
