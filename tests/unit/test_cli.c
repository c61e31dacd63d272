/* test_cli.c: the option parser every command uses: long options with
 * '=' or apart, short ones attached or apart and bundled, '--', '-' as an
 * operand, operands before options, and each usage error with its message
 * and status. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check/cli.h"

#define MAXV 16
typedef struct {
	int ids[MAXV];
	const char *args[MAXV];
	int n;
	int end; /* HP_OPT_END or HP_OPT_STOP */
	int rc;
	int noperands;
	char *operands[MAXV];
	char err[1024];
} parsed;

/* Parse argv (NULL-terminated) for its command, stderr captured. */
static void parse(parsed *p, const char **argv_in)
{
	static char *argv[MAXV];
	int argc = 0;
	while (argv_in[argc]) {
		argv[argc] = (char *)argv_in[argc];
		argc++;
	}
	argv[argc] = NULL;
	memset(p, 0, sizeof *p);
	fflush(stderr);
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	int saved = dup(STDERR_FILENO);
	dup2(fileno(tmp), STDERR_FILENO);
	hp_opts o;
	hp_opts_begin(&o, argc, argv);
	int id;
	while ((id = hp_opts_next(&o)) != HP_OPT_END && id != HP_OPT_STOP) {
		p->ids[p->n] = id;
		p->args[p->n++] = o.arg;
	}
	p->end = id;
	p->rc = o.rc;
	p->noperands = o.noperands;
	for (int i = 0; i < o.noperands && i < MAXV; i++)
		p->operands[i] = o.operands[i];
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	size_t n = fread(p->err, 1, sizeof p->err - 1, tmp);
	p->err[n] = 0;
	fclose(tmp);
}

static void test_forms(void **state)
{
	(void)state;
	parsed p;
	parse(&p, (const char *[]){"check", "--provider=docker", "--mode", "auto", "-oout",
	                           "pol.hpb", "-q", NULL});
	assert_int_equal(p.end, HP_OPT_END);
	assert_int_equal(p.n, 4);
	assert_int_equal(p.ids[0], HP_OPT_check_provider);
	assert_string_equal(p.args[0], "docker");
	assert_int_equal(p.ids[1], HP_OPT_check_mode);
	assert_string_equal(p.args[1], "auto");
	assert_int_equal(p.ids[2], HP_OPT_check_output);
	assert_string_equal(p.args[2], "out");
	assert_int_equal(p.ids[3], HP_OPT_check_quiet);
	assert_int_equal(p.noperands, 1);
	assert_string_equal(p.operands[0], "pol.hpb");
	assert_string_equal(p.err, "");
}

static void test_bundle_and_dash(void **state)
{
	(void)state;
	parsed p;
	parse(&p, (const char *[]){"check", "-qo-", "-", NULL});
	assert_int_equal(p.end, HP_OPT_END);
	assert_int_equal(p.n, 2);
	assert_int_equal(p.ids[0], HP_OPT_check_quiet);
	assert_int_equal(p.ids[1], HP_OPT_check_output);
	assert_string_equal(p.args[1], "-");
	assert_int_equal(p.noperands, 1);
	assert_string_equal(p.operands[0], "-");
	/* after --, everything is an operand */
	parse(&p, (const char *[]){"lint", "--werror", "--", "--format", "-q", NULL});
	assert_int_equal(p.end, HP_OPT_END);
	assert_int_equal(p.n, 1);
	assert_int_equal(p.ids[0], HP_OPT_lint_werror);
	assert_int_equal(p.noperands, 2);
	assert_string_equal(p.operands[0], "--format");
	assert_string_equal(p.operands[1], "-q");
	/* a value that starts with '-' is the option's value */
	parse(&p, (const char *[]){"compile", "-o", "-x.hpb", "a.hpol", NULL});
	assert_int_equal(p.n, 1);
	assert_string_equal(p.args[0], "-x.hpb");
	assert_string_equal(p.operands[0], "a.hpol");
}

static void test_errors(void **state)
{
	(void)state;
	parsed p;
	parse(&p, (const char *[]){"check", "--provder", "docker", NULL});
	assert_int_equal(p.end, HP_OPT_STOP);
	assert_int_equal(p.rc, HP_EXIT_USAGE);
	assert_non_null(strstr(p.err, "hangar-policy check: unknown option '--provder'; did you "
	                              "mean '--provider'?\n"));
	parse(&p, (const char *[]){"check", "--f=x", NULL});
	assert_int_equal(p.rc, HP_EXIT_USAGE);
	assert_non_null(
	    strstr(p.err, "hangar-policy check: option '--f' is ambiguous: --facts, --format\n"));
	parse(&p, (const char *[]){"lint", "--werror=1", NULL});
	assert_int_equal(p.rc, HP_EXIT_USAGE);
	assert_non_null(strstr(p.err, "hangar-policy lint: --werror takes no value\n"));
	parse(&p, (const char *[]){"compile", "x.hpol", "-o", NULL});
	assert_int_equal(p.rc, HP_EXIT_USAGE);
	assert_non_null(strstr(p.err, "hangar-policy compile: -o (--output) needs a value (FILE)\n"));
	parse(&p, (const char *[]){"check", "--root", NULL});
	assert_non_null(strstr(p.err, "hangar-policy check: --root needs a value (DIR)\n"));
	parse(&p, (const char *[]){"fmt", "-z", NULL});
	assert_non_null(strstr(p.err, "hangar-policy fmt: unknown option '-z'\n"));
	/* an option of another command is unknown here */
	parse(&p, (const char *[]){"fmt", "--werror", NULL});
	assert_int_equal(p.rc, HP_EXIT_USAGE);
	assert_non_null(strstr(p.err, "hangar-policy fmt: unknown option '--werror'"));
	parse(&p, (const char *[]){"lint", "--color=sometimes", NULL});
	assert_int_equal(p.rc, HP_EXIT_USAGE);
	assert_non_null(
	    strstr(p.err, "hangar-policy lint: --color 'sometimes' is not auto, always or never\n"));
	/* --color alone takes no operand as its value (as for ls and git) */
	parse(&p, (const char *[]){"lint", "--color", "never", NULL});
	assert_int_equal(p.end, HP_OPT_END);
	assert_int_equal(p.n, 0);
	assert_int_equal(p.noperands, 1);
	assert_string_equal(p.operands[0], "never");
	assert_string_equal(p.err, "");
}

static void test_again(void **state)
{
	(void)state;
	/* a second parse in the same process starts afresh */
	parsed p;
	for (int i = 0; i < 2; i++) {
		parse(&p, (const char *[]){"fmt", "a", "--check", "b", NULL});
		assert_int_equal(p.n, 1);
		assert_int_equal(p.ids[0], HP_OPT_fmt_check);
		assert_int_equal(p.noperands, 2);
		assert_string_equal(p.operands[0], "a");
		assert_string_equal(p.operands[1], "b");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_forms),
	    cmocka_unit_test(test_bundle_and_dash),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_again),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
