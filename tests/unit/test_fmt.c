/* test_fmt.c: the formatter's promises on every .hpol file in the
 * repository (policies/ and tests/): a file and its formatted text parse to
 * the same tree, compile to the same outcome, and formatting formatted text
 * changes nothing. Also the exact layout of a small file, and colours. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fmt.h"
#include "front.h"

static hp_program *parse(const char *name, const char *text, size_t len, bool only, hp_diags *d)
{
	hp_front_opts o = {0};
	o.parse_only = only;
	hp_diags_init(d);
	return hp_front_compile_text(name, text, len, &o, d);
}

static char *dump(const hp_program *p)
{
	hp_buf b = {0};
	hp_ast_dump(p->files[0], &b);
	hp_buf_puts(&b, "");
	return b.data;
}

/* Returns 1 when the file parsed and was checked. */
static int check_file(const char *path)
{
	hp_diags d0;
	hp_diags_init(&d0);
	hp_front_opts o = {0};
	o.parse_only = true;
	hp_program *p = hp_front_compile(path, &o, &d0);
	if (!p->ok) {
		hp_program_free(p);
		hp_diags_free(&d0);
		return 0;
	}
	hp_buf once = {0};
	hp_fmt_src(p->files[0], &once);
	hp_buf_puts(&once, "");
	char *before = dump(p);

	hp_diags d1;
	hp_program *q = parse(path, once.data, once.len, true, &d1);
	if (!q->ok)
		fail_msg("%s: formatted text does not parse", path);
	char *after = dump(q);
	if (strcmp(before, after) != 0)
		fail_msg("%s: formatting changed the tree", path);
	hp_buf twice = {0};
	hp_fmt_src(q->files[0], &twice);
	hp_buf_puts(&twice, "");
	if (strcmp(once.data, twice.data) != 0)
		fail_msg("%s: formatting is not idempotent", path);

	/* the whole compilation (includes resolved beside the file) agrees */
	hp_diags d2, d3;
	hp_diags_init(&d2);
	hp_program *full = hp_front_compile(path, NULL, &d2);
	hp_program *fullf = parse(path, once.data, once.len, false, &d3);
	if (full->ok != fullf->ok || d2.nerrors != d3.nerrors || d2.nwarnings != d3.nwarnings ||
	    full->nrules != fullf->nrules || full->nparams != fullf->nparams)
		fail_msg("%s: the formatted text compiles differently", path);
	for (uint32_t i = 0; full->ok && i < full->nrules; i++)
		if (full->rules[i]->u.rule.applies != fullf->rules[i]->u.rule.applies ||
		    full->rules[i]->u.rule.nloops != fullf->rules[i]->u.rule.nloops)
			fail_msg("%s: rule %u compiles differently", path, i);

	hp_program_free(full);
	hp_program_free(fullf);
	hp_diags_free(&d2);
	hp_diags_free(&d3);
	free(before);
	free(after);
	hp_buf_free(&once);
	hp_buf_free(&twice);
	hp_program_free(q);
	hp_program_free(p);
	hp_diags_free(&d1);
	hp_diags_free(&d0);
	return 1;
}

static int walk(const char *dir, int depth)
{
	if (depth > 16)
		return 0;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		struct stat st;
		if (lstat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			n += walk(path, depth + 1);
			continue;
		}
		size_t l = strlen(path);
		if (S_ISREG(st.st_mode) && l > 5 && strcmp(path + l - 5, ".hpol") == 0)
			n += check_file(path);
	}
	closedir(d);
	return n;
}

static void test_every_file(void **state)
{
	(void)state;
	int n = walk("policies", 0) + walk("tests", 0);
	assert_true(n >= 20);
}

static void test_layout(void **state)
{
	(void)state;
	static const char in[] =
	    "policy \"x\" version 1\n"
	    "role root=uid 0 # r\n"
	    "rule r \"t\" { as root { require mode(\"/x\")&0o077==0 and not (1<2) } }\n";
	hp_diags d;
	hp_program *p = parse("x.hpol", in, sizeof in - 1, true, &d);
	assert_true(p->ok);
	hp_buf b = {0};
	hp_fmt_src(p->files[0], &b);
	assert_string_equal(b.data, "policy \"x\" version 1\n"
	                            "\n"
	                            "role root = uid 0  # r\n"
	                            "\n"
	                            "rule r \"t\" {\n"
	                            "    as root {\n"
	                            "        require mode(\"/x\") & 0o077 == 0 and not (1 < 2)\n"
	                            "    }\n"
	                            "}\n");
	hp_buf_free(&b);
	hp_program_free(p);
	hp_diags_free(&d);
}

/* A loop's empty clause is printed after its bound; a comment after it
 * stays on the loop's line. */
static void test_loop_clauses(void **state)
{
	(void)state;
	static const char in[] =
	    "policy \"x\" version 1\n"
	    "param l = { \"a\" }\n"
	    "role root = uid 0\n"
	    "rule r \"t\" { as root { for g in l   max 3   allow\n empty { forbid g == \"x\" }\n"
	    " for h in l never empty # why\n { require h == \"a\" } for i in l { require i == "
	    "\"a\" } } }\n";
	hp_diags d;
	hp_program *p = parse("x.hpol", in, sizeof in - 1, true, &d);
	assert_true(p->ok);
	hp_buf b = {0};
	hp_fmt_src(p->files[0], &b);
	assert_string_equal(b.data, "policy \"x\" version 1\n"
	                            "\n"
	                            "param l = { \"a\" }\n"
	                            "\n"
	                            "role root = uid 0\n"
	                            "\n"
	                            "rule r \"t\" {\n"
	                            "    as root {\n"
	                            "        for g in l max 3 allow empty {\n"
	                            "            forbid g == \"x\"\n"
	                            "        }\n"
	                            "        for h in l never empty {  # why\n"
	                            "            require h == \"a\"\n"
	                            "        }\n"
	                            "        for i in l {\n"
	                            "            require i == \"a\"\n"
	                            "        }\n"
	                            "    }\n"
	                            "}\n");
	hp_buf_free(&b);
	hp_program_free(p);
	hp_diags_free(&d);
}

static void test_colour(void **state)
{
	(void)state;
	static const char in[] = "policy \"x\" version 1\nparam p = 1 @ 2\n";
	hp_diags d;
	hp_program *p = parse("x.hpol", in, sizeof in - 1, false, &d);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	hp_diag_style st = {true, 0};
	hp_diags_print(f, &d, &st);
	fclose(f);
	assert_non_null(strstr(buf, "\033[1;31merror:\033[0m"));
	assert_non_null(strstr(buf, "^\033[0m"));
	free(buf);
	setenv("NO_COLOR", "1", 1);
	f = fopen("/dev/null", "w");
	assert_false(hp_diag_style_for(f).color);
	fclose(f);
	hp_program_free(p);
	hp_diags_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_file),
	    cmocka_unit_test(test_layout),
	    cmocka_unit_test(test_loop_clauses),
	    cmocka_unit_test(test_colour),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
