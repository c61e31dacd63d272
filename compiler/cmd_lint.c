/* cmd_lint.c: hangar-policy lint: compile each policy named (every *.hpol
 * under a directory, in sorted order) through the front end and report
 * every diagnostic as text, JSON or SARIF. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/buf.h"
#include "check/cli.h"
#include "check/commands.h"
#include "diag_out.h"
#include "front.h"
#include "lib/strv.h"
#include "lib/xalloc.h"

const char hp_help_lint[] =
    "PATH is a policy file, a directory (every *.hpol below it is linted, in\n"
    "sorted order) or '-', standard input. Each file is compiled as a\n"
    "top-level policy with its includes.\n"
    "\n"
    "exit status: 0 no error (and no warning with --werror), 1 errors found,\n"
    "2 bad usage or a PATH that cannot be read, 4 standard output cannot be\n"
    "written.\n";

enum { FMT_TEXT, FMT_JSON, FMT_SARIF };

/* Directory walks stop this deep (a symlink loop, or a hostile tree). */
#define WALK_MAX_DEPTH 64

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with_hpol(const char *s)
{
	size_t n = strlen(s);
	return n > 5 && strcmp(s + n - 5, ".hpol") == 0;
}

/* Collect *.hpol under dir, sorted; -1 when dir cannot be read. */
static int walk(const char *dir, hp_strv *out, int depth)
{
	if (depth > WALK_MAX_DEPTH) {
		hp_cli_error("lint", "%s: directories nested too deeply", dir);
		return -1;
	}
	DIR *d = opendir(dir);
	if (!d) {
		hp_cli_error("lint", "%s: %s", dir, strerror(errno));
		return -1;
	}
	hp_strv names = {0};
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			hp_strv_push(&names, e->d_name);
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof *names.v, cmp_str);
	int rc = 0;
	for (size_t i = 0; i < names.n; i++) {
		char *p =
		    hp_xasprintf("%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names.v[i]);
		struct stat st;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (walk(p, out, depth + 1) < 0)
				rc = -1;
		} else if (ends_with_hpol(names.v[i]) && lstat(p, &st) == 0 &&
		           !S_ISLNK(st.st_mode)) {
			hp_strv_push(out, p);
		}
		free(p);
	}
	hp_strv_free(&names);
	return rc;
}

int hp_cmd_lint(int argc, char **argv)
{
	static const char *const formats[] = {"text", "json", "sarif"};
	int format = FMT_TEXT;
	bool werror = false, quiet = false;
	hp_opts o;
	hp_opts_begin(&o, argc, argv);
	for (int id; (id = hp_opts_next(&o)) != HP_OPT_END;) {
		switch (id) {
		case HP_OPT_STOP:
			return o.rc;
		case HP_OPT_lint_werror:
			werror = true;
			break;
		case HP_OPT_lint_quiet:
			quiet = true;
			break;
		case HP_OPT_lint_format:
			for (format = 0; format < 3 && strcmp(o.arg, formats[format]) != 0; format++)
				;
			if (format == 3)
				return hp_cli_bad_value("lint", "--format", o.arg, formats, 3);
			break;
		}
	}
	if (!o.noperands)
		return hp_cli_usage_error("lint", "no policy to lint");

	int status = HP_EXIT_OK;
	hp_strv files = {0};
	uint8_t *stdin_text = NULL;
	size_t stdin_len = 0;
	bool have_stdin = false;
	for (int i = 0; i < o.noperands; i++) {
		const char *path = o.operands[i];
		struct stat st;
		if (hp_cli_is_stdio(path)) {
			hp_err err;
			if (have_stdin) {
				hp_strv_free(&files);
				free(stdin_text);
				return hp_cli_usage_error("lint",
				                          "standard input ('-') named more than once");
			}
			have_stdin = true;
			if (!hp_cli_read_stdin(HP_FRONT_MAX_FILE, &stdin_text, &stdin_len, &err)) {
				hp_cli_error("lint", "%s", err.msg);
				status = HP_EXIT_USAGE;
				continue;
			}
			hp_strv_push(&files, path);
		} else if (stat(path, &st) != 0) {
			hp_cli_error("lint", "%s: %s", path, strerror(errno));
			status = HP_EXIT_USAGE;
		} else if (S_ISDIR(st.st_mode)) {
			if (walk(path, &files, 0) < 0)
				status = HP_EXIT_USAGE;
		} else {
			hp_strv_push(&files, path);
		}
	}
	if (quiet)
		format = -1;

	hp_diag_style st = hp_diag_style_for(stderr);
	hp_diag_recs recs = {0};
	uint32_t shown = 0, nerr = 0, nwarn = 0;
	for (size_t i = 0; i < files.n; i++) {
		hp_diags d;
		hp_diags_init(&d);
		hp_program *p =
		    hp_cli_is_stdio(files.v[i])
		        ? hp_front_compile_text(HP_STDIN_NAME, (const char *)stdin_text, stdin_len,
		                                NULL, &d)
		        : hp_front_compile(files.v[i], NULL, &d);
		hp_diags_sort(&d);
		for (size_t k = 0; k < d.n; k++) {
			const hp_diag *g = &d.v[k];
			if (g->code == HP_DG_IO && !g->src && i < files.n) {
				/* a named file that cannot be read is a usage problem */
				status = HP_EXIT_USAGE;
			}
			if (!hp_diag_recs_add(&recs, g))
				continue;
			if (g->sev == HP_SEV_ERROR)
				nerr++;
			else
				nwarn++;
			if (format == FMT_TEXT && (st.max_shown == 0 || shown < st.max_shown)) {
				hp_diag_print(stderr, g, &st);
				shown++;
			}
		}
		/* beyond the kept diagnostics, only counts remain */
		nerr += d.dropped;
		hp_program_free(p);
		hp_diags_free(&d);
	}
	if (format < 0) {
		/* --quiet: the exit status alone */
	} else if (format == FMT_TEXT) {
		hp_diags sum;
		hp_diags_init(&sum);
		sum.nerrors = nerr;
		sum.nwarnings = nwarn;
		hp_diags_print_summary(stderr, &sum, shown);
	} else {
		hp_buf b = {0};
		if (format == FMT_JSON)
			hp_diag_recs_json(&b, &recs);
		else
			hp_diag_recs_sarif(&b, &recs);
		if (!hp_cli_write_stdout("lint", b.data, b.len))
			status = HP_EXIT_CANNOT_RUN;
		hp_buf_free(&b);
	}
	if (status == HP_EXIT_OK && (nerr || (werror && nwarn)))
		status = HP_EXIT_FINDINGS;
	hp_diag_recs_free(&recs);
	hp_strv_free(&files);
	free(stdin_text);
	return status;
}
