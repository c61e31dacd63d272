/* cmd_fmt.c: hangar-policy fmt: print, check or rewrite policy files in
 * the canonical layout. Every result is parsed again and compared with the
 * original's tree before it is used, so fmt never changes what a file
 * means. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/atomic_file.h"
#include "lib/buf.h"
#include "check/cli.h"
#include "check/commands.h"
#include "fmt.h"
#include "front.h"
#include "udiff.h"

const char hp_help_fmt[] =
    "--diff prints, for each file not in the canonical layout, a unified diff\n"
    "from it to the canonical text (as --check, exit status 1 when there is one).\n"
    "Without --check, --diff or --write each file's canonical text is printed on\n"
    "standard output. FILE '-' is standard input (not with --write).\n"
    "A file with a syntax error is not formatted: its diagnostics are printed.\n"
    "\n"
    "exit status: 0 done, 1 --check or --diff found a file to change, 2 bad usage or a\n"
    "file that cannot be read or has a syntax error, 4 a file or standard output\n"
    "that cannot be written, or a layout that would change the policy's meaning\n"
    "(a bug in fmt).\n";

enum { MODE_PRINT, MODE_CHECK, MODE_WRITE, MODE_DIFF };

/* The tree dump of text parsed alone, or NULL on a syntax error. */
static char *tree_of(const char *name, const char *text, size_t len, hp_program **pp, hp_diags *d)
{
	hp_front_opts o = {0};
	o.parse_only = true;
	hp_program *p = hp_front_compile_text(name, text, len, &o, d);
	*pp = p;
	if (!p->ok)
		return NULL;
	hp_buf b = {0};
	hp_ast_dump(p->files[0], &b);
	if (!b.data)
		hp_buf_puts(&b, "");
	return b.data;
}

/* 0 formatted (changed or not), 2 input error, 4 an output that cannot
 * be written or an internal failure. text is standard input's, or NULL. */
static int format_one(const char *path, const char *text, size_t tlen, int mode, bool quiet,
                      bool *changed)
{
	hp_diags d;
	hp_diags_init(&d);
	hp_front_opts o = {0};
	o.parse_only = true;
	hp_program *p = text ? hp_front_compile_text(path, text, tlen, &o, &d)
	                     : hp_front_compile(path, &o, &d);
	int rc = 0;
	if (!p->ok) {
		hp_diag_style st = hp_diag_style_for(stderr);
		hp_diags_print(stderr, &d, &st);
		uint32_t shown = (uint32_t)d.n;
		if (st.max_shown && shown > st.max_shown)
			shown = st.max_shown;
		hp_diags_print_summary(stderr, &d, shown);
		hp_program_free(p);
		hp_diags_free(&d);
		return HP_EXIT_USAGE;
	}
	const hp_src *src = p->files[0];
	hp_buf out = {0};
	hp_fmt_src(src, &out);
	if (!out.data)
		hp_buf_puts(&out, "");
	hp_buf before = {0};
	hp_ast_dump(src, &before);
	hp_program *q = NULL;
	hp_diags d2;
	hp_diags_init(&d2);
	char *after = tree_of(path, out.data, out.len, &q, &d2);
	if (!after || strcmp(after, before.data ? before.data : "") != 0) {
		hp_cli_error("fmt",
		             "%s: the canonical layout would change the policy's meaning; "
		             "nothing written (a bug in fmt, please report it)",
		             path);
		rc = HP_EXIT_CANNOT_RUN;
		goto done;
	}
	*changed = out.len != src->len || memcmp(out.data, src->text, out.len) != 0;
	if (mode == MODE_PRINT) {
		if (!hp_cli_write_stdout("fmt", out.data, out.len))
			rc = HP_EXIT_CANNOT_RUN;
	} else if (mode == MODE_DIFF) {
		hp_buf df = {0};
		char *a = hp_xasprintf("a/%s", path), *b = hp_xasprintf("b/%s", path);
		hp_udiff(&df, a, src->text, src->len, b, out.data, out.len);
		if (df.len && !quiet && !hp_cli_write_stdout("fmt", df.data, df.len))
			rc = HP_EXIT_CANNOT_RUN;
		free(a);
		free(b);
		hp_buf_free(&df);
	} else if (mode == MODE_CHECK) {
		if (*changed && !quiet && (printf("%s\n", path) < 0 || fflush(stdout) != 0)) {
			hp_cli_error("fmt", "standard output: %s", strerror(errno));
			rc = HP_EXIT_CANNOT_RUN;
		}
	} else if (*changed) {
		hp_err e;
		if (!hp_atomic_write(path, out.data, out.len, 0644, &e)) {
			hp_cli_error("fmt", "%s: %s", path, e.msg);
			rc = HP_EXIT_CANNOT_RUN;
		}
	}
done:
	free(after);
	hp_buf_free(&before);
	hp_buf_free(&out);
	hp_program_free(q);
	hp_diags_free(&d2);
	hp_program_free(p);
	hp_diags_free(&d);
	return rc;
}

int hp_cmd_fmt(int argc, char **argv)
{
	int mode = MODE_PRINT;
	bool quiet = false, diff = false;
	hp_opts o;
	hp_opts_begin(&o, argc, argv);
	for (int id; (id = hp_opts_next(&o)) != HP_OPT_END;) {
		int m = MODE_PRINT;
		switch (id) {
		case HP_OPT_STOP:
			return o.rc;
		case HP_OPT_fmt_check:
			m = MODE_CHECK;
			break;
		case HP_OPT_fmt_write:
			m = MODE_WRITE;
			break;
		case HP_OPT_fmt_quiet:
			quiet = true;
			break;
		case HP_OPT_fmt_diff:
			diff = true;
			break;
		}
		if (m != MODE_PRINT) {
			if (mode != MODE_PRINT && mode != m)
				return hp_cli_usage_error("fmt",
				                          "--check and --write exclude each other");
			mode = m;
		}
	}
	if (diff && mode == MODE_WRITE)
		return hp_cli_usage_error("fmt", "--diff and --write exclude each other");
	if (diff)
		mode = MODE_DIFF; /* with or without --check: the diff instead of the names */
	if (!o.noperands)
		return hp_cli_usage_error("fmt", "no file to format");
	int nstdin = 0;
	for (int i = 0; i < o.noperands; i++)
		nstdin += hp_cli_is_stdio(o.operands[i]);
	if (nstdin && mode == MODE_WRITE)
		return hp_cli_usage_error("fmt", "--write cannot rewrite standard input");
	if (nstdin > 1)
		return hp_cli_usage_error("fmt", "standard input ('-') named more than once");
	int status = HP_EXIT_OK;
	bool any_changed = false;
	for (int i = 0; i < o.noperands; i++) {
		bool changed = false;
		int rc;
		if (hp_cli_is_stdio(o.operands[i])) {
			uint8_t *text;
			size_t tlen;
			hp_err err;
			if (!hp_cli_read_stdin(HP_FRONT_MAX_FILE, &text, &tlen, &err)) {
				hp_cli_error("fmt", "%s", err.msg);
				rc = HP_EXIT_USAGE;
			} else {
				rc = format_one(HP_STDIN_NAME, (const char *)text, tlen, mode, quiet,
				                &changed);
				free(text);
			}
		} else {
			rc = format_one(o.operands[i], NULL, 0, mode, quiet, &changed);
		}
		if (rc > status)
			status = rc;
		any_changed |= changed;
	}
	if (status == HP_EXIT_OK && (mode == MODE_CHECK || mode == MODE_DIFF) && any_changed)
		status = HP_EXIT_FINDINGS;
	return status;
}
