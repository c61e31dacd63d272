/* cmd_test.c: hangar-policy test: run the test cases kept beside policies
 * (docs/testing.md), print what differs, and measure coverage. Each PATH
 * is a test file or a directory searched for *_test.yaml files; the
 * policies beside each test file count for coverage even when no case
 * names them, so an untested policy shows as uncovered. */
#include <dirent.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/cli.h"
#include "check/commands.h"
#include "lib/buf.h"
#include "lib/strv.h"
#include "testfile.h"
#include "testreport.h"
#include "testrun.h"

const char hp_help_test[] =
    "PATH is a test file or a directory: every *_test.yaml below it runs, in sorted\n"
    "order (default: the current directory). docs/testing.md describes test files.\n"
    "Each case runs the way `check --facts` does, and its decisions and rule results\n"
    "are compared with what it expects. Text ends with \"N passed, N failed\"; the other\n"
    "formats write that line on standard error.\n"
    "\n"
    "exit status: 0 every case passed (and coverage reached --coverage-min),\n"
    "1 a case failed or coverage is below the minimum, 2 bad usage or bad input\n"
    "(a test file, policy or facts file that does not load).\n";

#define WALK_MAX_DEPTH 64

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n > k && strcmp(s + n - k, suffix) == 0;
}

static bool is_test_file(const char *name)
{
	return ends_with(name, "_test.yaml") || ends_with(name, "_test.yml");
}

/* Test files under dir (sorted, symlinks not followed). */
static bool walk(const char *dir, hp_strv *out, int depth)
{
	if (depth > WALK_MAX_DEPTH) {
		hp_cli_error("test", "%s: directories nested too deeply", dir);
		return false;
	}
	DIR *d = opendir(dir);
	if (!d) {
		hp_cli_error("test", "%s: %s", dir, strerror(errno));
		return false;
	}
	hp_strv names = {0};
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			hp_strv_push(&names, e->d_name);
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof *names.v, cmp_str);
	bool ok = true;
	for (size_t i = 0; i < names.n; i++) {
		char *p = strcmp(dir, ".") == 0
		              ? hp_xstrdup(names.v[i])
		              : hp_xasprintf("%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/",
		                             names.v[i]);
		struct stat st;
		if (lstat(p, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				ok &= walk(p, out, depth + 1);
			else if (S_ISREG(st.st_mode) && is_test_file(names.v[i]))
				hp_strv_push(out, p);
		}
		free(p);
	}
	hp_strv_free(&names);
	return ok;
}

/* The *.hpol files in the directory of a test file, for coverage. */
static bool sibling_policies(hp_testrun *tr, const char *test_file, hp_strv *done)
{
	const char *slash = strrchr(test_file, '/');
	char *dir = slash ? hp_xstrndup(test_file, (size_t)(slash - test_file + (slash == test_file)))
	                  : hp_xstrdup(".");
	for (size_t i = 0; i < done->n; i++)
		if (strcmp(done->v[i], dir) == 0) {
			free(dir);
			return true;
		}
	hp_strv_push(done, dir);
	DIR *d = opendir(dir);
	if (!d) {
		hp_cli_error("test", "%s: %s", dir, strerror(errno));
		free(dir);
		return false;
	}
	hp_strv names = {0};
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && ends_with(e->d_name, ".hpol"))
			hp_strv_push(&names, e->d_name);
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof *names.v, cmp_str);
	bool ok = true;
	for (size_t i = 0; i < names.n; i++) {
		char *p = slash ? hp_xasprintf("%s/%s", dir, names.v[i]) : hp_xstrdup(names.v[i]);
		struct stat st;
		hp_err err;
		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && !hp_testrun_add_policy(tr, p, &err)) {
			if (err.msg[0])
				hp_cli_error("test", "%s", err.msg);
			ok = false;
		}
		free(p);
	}
	hp_strv_free(&names);
	free(dir);
	return ok;
}

static bool parse_percent(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0 && v <= 100))
		return false;
	*out = v;
	return true;
}

int hp_cmd_test(int argc, char **argv)
{
	hp_strv paths = {0}, files = {0}, dirs = {0};
	const char *run = NULL;
	hp_test_format format = HP_TFMT_TEXT;
	bool coverage = false;
	double min = -1;
	int rc = HP_EXIT_USAGE;
	regex_t re;
	bool have_re = false;
	hp_opts o;
	hp_opts_begin(&o, argc, argv);
	for (int id; (id = hp_opts_next(&o)) != HP_OPT_END;) {
		const char *v = o.arg;
		switch (id) {
		case HP_OPT_STOP:
			rc = o.rc;
			goto out;
		case HP_OPT_test_run:
			run = v;
			break;
		case HP_OPT_test_format: {
			static const char *const names[] = {"text", "json", "junit", "tap"};
			int f = hp_lookup_name(names, 4, v);
			if (f < 0) {
				rc = hp_cli_bad_value("test", "--format", v, names, 4);
				goto out;
			}
			format = (hp_test_format)f;
			break;
		}
		case HP_OPT_test_coverage_min:
			if (!parse_percent(v, &min)) {
				hp_cli_usage_error(
				    "test", "--coverage-min '%s' is not a percentage from 0 to 100", v);
				goto out;
			}
			break;
		case HP_OPT_test_coverage:
			coverage = true;
			break;
		}
	}
	for (int i = 0; i < o.noperands; i++)
		hp_strv_push(&paths, o.operands[i]);
	if (run) {
		int e = regcomp(&re, run, REG_EXTENDED | REG_NOSUB);
		if (e) {
			char msg[200];
			regerror(e, &re, msg, sizeof msg);
			hp_cli_usage_error("test", "--run '%s': %s", run, msg);
			goto out;
		}
		have_re = true;
	}
	if (!paths.n)
		hp_strv_push(&paths, ".");
	bool ok = true;
	for (size_t i = 0; i < paths.n; i++) {
		struct stat st;
		if (stat(paths.v[i], &st) != 0) {
			hp_cli_error("test", "%s: %s", paths.v[i], strerror(errno));
			ok = false;
		} else if (S_ISDIR(st.st_mode)) {
			ok &= walk(paths.v[i], &files, 0);
		} else {
			hp_strv_push(&files, paths.v[i]);
		}
	}
	if (ok && !files.n) {
		hp_cli_error("test", "no test files (*_test.yaml) under %s%s", paths.v[0],
		             paths.n > 1 ? " or the other paths" : "");
		ok = false;
	}
	if (!ok)
		goto out;

	hp_testrun *tr = hp_testrun_new();
	hp_test_file *tfs = hp_xcalloc(files.n, sizeof *tfs);
	size_t cap = 0, nres = 0;
	hp_case_result *res = NULL;
	bool bad = false;
	size_t unread = 0; /* test files that did not load: each counts as failed */
	for (size_t i = 0; i < files.n; i++) {
		hp_err err;
		if (!hp_test_file_load(files.v[i], &tfs[i], &err)) {
			hp_cli_error("test", "%s", err.msg);
			bad = true;
			unread++;
			continue;
		}
		bad |= !sibling_policies(tr, files.v[i], &dirs);
		for (size_t k = 0; k < tfs[i].ncases; k++) {
			const hp_test_case *c = &tfs[i].cases[k];
			if (have_re && regexec(&re, c->name, 0, NULL, 0) != 0)
				continue;
			res = hp_xgrow(res, &cap, nres + 1, sizeof *res);
			hp_testrun_case(tr, c, &res[nres]);
			bad |= res[nres].status == HP_CASE_ERROR;
			nres++;
		}
	}
	hp_test_summary sum = {res, nres, unread, NULL, 0, coverage};
	sum.cov = hp_testrun_coverage(tr, &sum.ncov);
	hp_buf b = {0};
	hp_test_report(&sum, format, &b);
	size_t failed = 0;
	for (size_t i = 0; i < nres; i++)
		failed += res[i].status != HP_CASE_PASS;
	hp_cov_totals t = hp_cov_count(sum.cov, sum.ncov, NULL);
	bool below = min >= 0 && (hp_cov_percent(t.rules_covered, t.rules) < min ||
	                          hp_cov_percent(t.asserts_covered, t.asserts) < min);
	if (below)
		hp_buf_printf(&b, "%scoverage below %.1f%%: rules %.1f%%, assertions %.1f%%\n",
		              format == HP_TFMT_TEXT ? "" : "", min,
		              hp_cov_percent(t.rules_covered, t.rules),
		              hp_cov_percent(t.asserts_covered, t.asserts));
	if (format == HP_TFMT_TEXT) {
		fwrite(b.data, 1, b.len, stdout);
	} else {
		/* the machine-readable form alone on stdout; people's lines on stderr */
		char *nl = below ? strrchr(b.data, '\n') : NULL;
		size_t keep = b.len;
		if (below) {
			*nl = '\0';
			char *prev = strrchr(b.data, '\n');
			keep = prev ? (size_t)(prev - b.data + 1) : 0;
			*nl = '\n';
			fputs(b.data + keep, stderr);
		}
		fwrite(b.data, 1, keep, stdout);
		fprintf(stderr, "%zu passed, %zu failed\n", nres - failed, failed + unread);
	}
	fflush(stdout);
	hp_buf_free(&b);
	rc = bad ? HP_EXIT_USAGE : (failed || below) ? HP_EXIT_FINDINGS : HP_EXIT_OK;
	for (size_t i = 0; i < nres; i++)
		hp_case_result_free(&res[i]);
	free(res);
	for (size_t i = 0; i < files.n; i++)
		hp_test_file_free(&tfs[i]);
	free(tfs);
	hp_testrun_free(tr);
out:
	if (have_re)
		regfree(&re);
	hp_strv_free(&paths);
	hp_strv_free(&files);
	hp_strv_free(&dirs);
	return rc;
}
