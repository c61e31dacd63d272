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
#include "check/waiver.h"

const char hp_help_lint[] =
    "PATH is a policy file, a directory (every *.hpol below it is linted, in\n"
    "sorted order) or '-', standard input. Each file is compiled as a\n"
    "top-level policy with its includes. Waiver files (*waivers.yaml,\n"
    "docs/waivers.md) are checked too: an expired or malformed one is an\n"
    "error, one that expires within 30 days a warning.\n"
    "\n"
    "exit status: 0 no error (and no warning with --werror), 1 errors found,\n"
    "2 bad usage or a PATH that cannot be read, 4 standard output cannot be\n"
    "written.\n";

enum { FMT_TEXT, FMT_JSON, FMT_SARIF, FMT_GITHUB };

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

/* Waiver files: named *waivers.yaml (docs/waivers.md). */
static int is_waiver_file(const char *s)
{
	size_t n = strlen(s);
	return (n >= 12 && strcmp(s + n - 12, "waivers.yaml") == 0) ||
	       (n >= 11 && strcmp(s + n - 11, "waivers.yml") == 0);
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
		} else if ((ends_with_hpol(names.v[i]) || is_waiver_file(names.v[i])) &&
		           lstat(p, &st) == 0 &&
		           !S_ISLNK(st.st_mode)) {
			hp_strv_push(out, p);
		}
		free(p);
	}
	hp_strv_free(&names);
	return rc;
}

/* A waiver file: malformed or expired is an error, expiring within
 * HP_WAIVER_WARN_DAYS a warning. */
static void lint_waivers(const char *path, int64_t today, hp_diag_recs *recs, bool text,
                         uint32_t *shown, uint32_t *nerr, uint32_t *nwarn)
{
	hp_waivers w = {0};
	hp_err err;
	char msg[700];
	if (!hp_waivers_load_file(&w, path, today, &err)) {
		/* "PATH:LINE:COL: message" */
		unsigned line = 0, col = 0;
		const char *m = err.msg;
		size_t n = strlen(path);
		if (strncmp(m, path, n) == 0 && m[n] == ':' &&
		    sscanf(m + n, ":%u:%u: ", &line, &col) == 2) {
			m = strchr(strchr(m + n + 1, ':') + 1, ':') + 2;
		} else if (strncmp(m, path, n) == 0 && m[n] == ':') {
			m += n + 2;
		}
		hp_diag_recs_add_at(recs, path, line, col, HP_SEV_ERROR, HP_DG_WAIVER, m);
		if (text)
			fprintf(stderr, "%s\n", err.msg);
		++*nerr;
		++*shown;
		return;
	}
	for (size_t i = 0; i < w.n; i++) {
		const hp_waiver *x = &w.v[i];
		int64_t left = x->expires_day - today;
		if (left > HP_WAIVER_WARN_DAYS)
			continue;
		snprintf(msg, sizeof msg, "the waiver of rule '%s' expires on %s, in %lld day%s",
		         x->rule, x->expires, (long long)left, left == 1 ? "" : "s");
		unsigned line = 0, col = 0;
		const char *c = strrchr(x->where, ':');
		if (c) {
			col = (unsigned)atoi(c + 1);
			const char *l = c - 1;
			while (l > x->where && *l != ':')
				l--;
			line = (unsigned)atoi(l + 1);
		}
		hp_diag_recs_add_at(recs, path, line, col, HP_SEV_WARNING, HP_DG_WAIVER_EXPIRING,
		                    msg);
		if (text)
			fprintf(stderr, "%s: warning: %s\n", x->where, msg);
		++*nwarn;
		++*shown;
	}
	hp_waivers_free(&w);
}

int hp_cmd_lint(int argc, char **argv)
{
	static const char *const formats[] = {"text", "json", "sarif", "github"};
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
			for (format = 0; format < 4 && strcmp(o.arg, formats[format]) != 0; format++)
				;
			if (format == 4)
				return hp_cli_bad_value("lint", "--format", o.arg, formats, 4);
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
	int64_t today = 0;
	hp_err terr;
	if (!hp_today(&today, &terr)) {
		hp_cli_error("lint", "%s", terr.msg);
		status = HP_EXIT_USAGE;
	}
	for (size_t i = 0; i < files.n; i++) {
		if (!hp_cli_is_stdio(files.v[i]) && is_waiver_file(files.v[i])) {
			lint_waivers(files.v[i], today, &recs, format == FMT_TEXT, &shown, &nerr,
			             &nwarn);
			continue;
		}
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
		else if (format == FMT_GITHUB)
			hp_diag_recs_github(&b, &recs);
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
