/* cmd_fmt.c: hangar-policy fmt: print, check or rewrite policy files in
 * the canonical layout. Every result is parsed again and compared with the
 * original's tree before it is used, so fmt never changes what a file
 * means. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/atomic_file.h"
#include "lib/buf.h"
#include "check/cli.h"
#include "check/commands.h"
#include "fmt.h"
#include "front.h"
#include "lib/strv.h"

const char hp_help_fmt[] =
    "options:\n"
    "  --check   list the files that are not in the canonical layout, change nothing\n"
    "            (exit status 1 when there is one)\n"
    "  --write   rewrite the files that are not in the canonical layout, in place\n"
    "\n"
    "Without an option each file's canonical text is printed on stdout.\n"
    "A file with a syntax error is not formatted: its diagnostics are printed and\n"
    "the exit status is 2.\n";

enum { MODE_PRINT, MODE_CHECK, MODE_WRITE };

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

/* 0 formatted (changed or not), 2 input error, 4 internal failure. */
static int format_one(const char *path, int mode, bool *changed)
{
	hp_diags d;
	hp_diags_init(&d);
	hp_front_opts o = {0};
	o.parse_only = true;
	hp_program *p = hp_front_compile(path, &o, &d);
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
		fwrite(out.data, 1, out.len, stdout);
	} else if (mode == MODE_CHECK) {
		if (*changed)
			printf("%s\n", path);
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
	hp_strv files = {0};
	bool opts_done = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!opts_done && strcmp(a, "--") == 0) {
			opts_done = true;
		} else if (!opts_done && (strcmp(a, "--check") == 0 || strcmp(a, "--write") == 0)) {
			int m = a[2] == 'c' ? MODE_CHECK : MODE_WRITE;
			if (mode != MODE_PRINT && mode != m) {
				hp_strv_free(&files);
				return hp_cli_usage_error("fmt",
				                          "--check and --write exclude each other");
			}
			mode = m;
		} else if (!opts_done && a[0] == '-' && a[1]) {
			hp_strv_free(&files);
			return hp_cli_usage_error("fmt", "unknown option '%s'", a);
		} else {
			hp_strv_push(&files, a);
		}
	}
	if (!files.n)
		return hp_cli_usage_error("fmt", "no file to format");
	int status = HP_EXIT_OK;
	bool any_changed = false;
	for (size_t i = 0; i < files.n; i++) {
		bool changed = false;
		int rc = format_one(files.v[i], mode, &changed);
		if (rc > status)
			status = rc;
		any_changed |= changed;
	}
	if (status == HP_EXIT_OK && mode == MODE_CHECK && any_changed)
		status = HP_EXIT_FINDINGS;
	hp_strv_free(&files);
	return status;
}
