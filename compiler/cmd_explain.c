/* cmd_explain.c: hangar-policy explain POLICY: the tables, the compile-time
 * bounds and the disassembly of a policy, from source (compiled in memory)
 * or from bytecode (loaded and verified). */
#include <stdio.h>
#include <string.h>

#include "lib/buf.h"
#include "check/cli.h"
#include "check/commands.h"
#include "model/disasm.h"
#include "check/policy.h"

const char hp_help_explain[] =
    "POLICY is source (compiled in memory) or bytecode (loaded and verified);\n"
    "bytecode is recognised by its first bytes, not its name.\n"
    "\n"
    "Prints the params, roles, rules and providers tables; the most instructions\n"
    "and probes each role's checks can take (and the params' and providers' code,\n"
    "run once as root); and the disassembly, each source line shown above the\n"
    "instructions compiled from it.\n"
    "\n"
    "exit status: 0 shown, 2 the policy has errors, is rejected by the verifier or\n"
    "cannot be read.\n";

int hp_cmd_explain(int argc, char **argv)
{
	const char *in = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] == '-' && a[1])
			return hp_cli_usage_error("explain", "unknown option '%s'", a);
		if (in)
			return hp_cli_usage_error("explain", "one policy at a time ('%s' and '%s')",
			                          in, a);
		in = a;
	}
	if (!in)
		return hp_cli_usage_error("explain", "no policy to explain");
	hp_err err;
	hp_bc *bc = hp_policy_load(in, &err);
	if (!bc) {
		if (err.msg[0])
			hp_cli_error("explain", "%s", err.msg);
		return HP_EXIT_USAGE;
	}
	hp_buf b = {0};
	hp_explain(&b, bc);
	fwrite(b.data, 1, b.len, stdout);
	hp_buf_free(&b);
	hp_bc_free(bc);
	return HP_EXIT_OK;
}
