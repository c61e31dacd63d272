/* cmd_compile.c: hangar-policy compile POLICY.hpol [-o POLICY.hpb]: source to
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
    "options:\n"
    "  -o FILE  write the bytecode to FILE (default: POLICY with .hpol replaced\n"
    "           by .hpb, or .hpb added)\n"
    "\n"
    "The bytecode is verified before it is written, and written atomically. The\n"
    "same sources always give the same bytes: no time stamps, no addresses, and\n"
    "file names relative to the policy's directory.\n"
    "\n"
    "exit status: 0 compiled, 2 the policy has errors or a file cannot be read\n"
    "or written.\n";

/* Compile with diagnostics on stderr, as a compiler prints them. */
static uint8_t *compile_printing(const char *path, size_t *len)
{
	hp_diags d;
	hp_diags_init(&d);
	hp_program *p;
	uint8_t *out = hp_compile_file(path, len, &d, &p);
	hp_diag_style st = hp_diag_style_for(stderr);
	hp_diags_sort(&d);
	hp_diags_print(stderr, &d, &st);
	hp_diags_print_summary(stderr, &d,
	                       d.n < st.max_shown || !st.max_shown ? (uint32_t)d.n : st.max_shown);
	hp_program_free(p);
	hp_diags_free(&d);
	return out;
}

uint8_t *hp_compile_source_printing(const char *path, size_t *len)
{
	return compile_printing(path, len);
}

int hp_cmd_compile(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			if (i + 1 >= argc)
				return hp_cli_usage_error("compile", "%s needs a file name", a);
			out = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			return hp_cli_usage_error("compile", "unknown option '%s'", a);
		} else if (in) {
			return hp_cli_usage_error("compile", "one policy at a time ('%s' and '%s')",
			                          in, a);
		} else {
			in = a;
		}
	}
	if (!in)
		return hp_cli_usage_error("compile", "no policy to compile");
	size_t len;
	uint8_t *data = compile_printing(in, &len);
	if (!data)
		return HP_EXIT_USAGE;
	char *target;
	size_t n = strlen(in);
	if (out)
		target = hp_xstrdup(out);
	else if (n > 5 && strcmp(in + n - 5, ".hpol") == 0)
		target = hp_xasprintf("%.*s.hpb", (int)(n - 5), in);
	else
		target = hp_xasprintf("%s.hpb", in);
	hp_err err;
	int rc = HP_EXIT_OK;
	if (!hp_atomic_write(target, data, len, 0644, &err)) {
		hp_cli_error("compile", "%s", err.msg);
		rc = HP_EXIT_USAGE;
	}
	free(target);
	free(data);
	return rc;
}
