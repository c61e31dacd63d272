/* cmd_compile.c: hangar-policy compile [-o POLICY.hpb] POLICY.hpol: source to
 * verified bytecode, written atomically. Also the source compiler that
 * hangar-policy registers so that `check` and `explain` accept source. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/atomic_file.h"
#include "check/cli.h"
#include "codegen.h"
#include "check/commands.h"
#include "diag.h"
#include "front.h"
#include "lib/xalloc.h"

const char hp_help_compile[] =
    "POLICY.hpol '-' is standard input. The bytecode is verified before it is\n"
    "written, and written atomically. The same sources always give the same\n"
    "bytes: no time stamps, no addresses, and file names relative to the\n"
    "policy's directory.\n"
    "\n"
    "exit status: 0 compiled, 2 the policy has errors or cannot be read, 4 the\n"
    "bytecode cannot be written.\n";

/* Compile with diagnostics on stderr, as a compiler prints them. */
uint8_t *hp_compile_source_printing(const char *path, const char *text, size_t textlen,
                                    size_t *len)
{
	hp_diags d;
	hp_diags_init(&d);
	hp_program *p;
	uint8_t *out = text ? hp_compile_text(path, text, textlen, len, &d, &p)
	                    : hp_compile_file(path, len, &d, &p);
	hp_diag_style st = hp_diag_style_for(stderr);
	hp_diags_sort(&d);
	hp_diags_print(stderr, &d, &st);
	hp_diags_print_summary(stderr, &d,
	                       d.n < st.max_shown || !st.max_shown ? (uint32_t)d.n : st.max_shown);
	hp_program_free(p);
	hp_diags_free(&d);
	return out;
}

int hp_cmd_compile(int argc, char **argv)
{
	const char *out = NULL;
	hp_opts o;
	hp_opts_begin(&o, argc, argv);
	for (int id; (id = hp_opts_next(&o)) != HP_OPT_END;) {
		switch (id) {
		case HP_OPT_STOP:
			return o.rc;
		case HP_OPT_compile_output:
			out = o.arg;
			break;
		}
	}
	if (o.noperands == 0)
		return hp_cli_usage_error("compile", "no policy to compile");
	if (o.noperands > 1)
		return hp_cli_usage_error("compile", "one policy at a time ('%s' and '%s')",
		                          o.operands[0], o.operands[1]);
	const char *in = o.operands[0];
	hp_err err;
	size_t len;
	uint8_t *data;
	if (hp_cli_is_stdio(in)) {
		uint8_t *text;
		size_t tlen;
		if (!hp_cli_read_stdin(HP_FRONT_MAX_FILE, &text, &tlen, &err)) {
			hp_cli_error("compile", "%s", err.msg);
			return HP_EXIT_USAGE;
		}
		data = hp_compile_source_printing(HP_STDIN_NAME, (const char *)text, tlen, &len);
		free(text);
	} else {
		data = hp_compile_source_printing(in, NULL, 0, &len);
	}
	if (!data)
		return HP_EXIT_USAGE;
	char *target;
	size_t n = strlen(in);
	if (out)
		target = hp_xstrdup(out);
	else if (hp_cli_is_stdio(in))
		target = hp_xstrdup("-");
	else if (n > 5 && strcmp(in + n - 5, ".hpol") == 0)
		target = hp_xasprintf("%.*s.hpb", (int)(n - 5), in);
	else
		target = hp_xasprintf("%s.hpb", in);
	int rc = HP_EXIT_OK;
	if (hp_cli_is_stdio(target)) {
		if (!hp_cli_write_stdout("compile", data, len))
			rc = HP_EXIT_CANNOT_RUN;
	} else if (!hp_atomic_write(target, data, len, 0644, &err)) {
		hp_cli_error("compile", "%s", err.msg);
		rc = HP_EXIT_CANNOT_RUN;
	}
	free(target);
	free(data);
	return rc;
}
