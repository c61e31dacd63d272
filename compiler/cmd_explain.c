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
    "POLICY ('-': standard input) is source (compiled in memory) or bytecode (loaded and verified);\n"
    "bytecode is recognised by its first bytes, not its name.\n"
    "\n"
    "Prints the params, roles, rules and providers tables; the most instructions\n"
    "and probes each role's checks can take (and the params' and providers' code,\n"
    "run once as root); and the disassembly, each source line shown above the\n"
    "instructions compiled from it.\n"
    "\n"
    "exit status: 0 shown, 2 the policy has errors, is rejected by the verifier or\n"
    "cannot be read, 4 standard output cannot be written.\n";

/* The rule ids, one a line: what shell completion offers for a rule. */
static void list_rules(hp_buf *b, const hp_bc *bc)
{
	for (uint32_t i = 0; i < bc->nrules; i++)
		hp_buf_printf(b, "%s\n", hp_bc_str(bc, bc->rules[i].id));
}

int hp_cmd_explain(int argc, char **argv)
{
	bool rules = false;
	hp_opts o;
	hp_opts_begin(&o, argc, argv);
	for (int id; (id = hp_opts_next(&o)) != HP_OPT_END;) {
		switch (id) {
		case HP_OPT_STOP:
			return o.rc;
		case HP_OPT_explain_rules:
			rules = true;
			break;
		}
	}
	if (o.noperands == 0)
		return hp_cli_usage_error("explain", "no policy to explain");
	if (o.noperands > 1)
		return hp_cli_usage_error("explain", "one policy at a time ('%s' and '%s')",
		                          o.operands[0], o.operands[1]);
	hp_err err;
	hp_bc *bc = hp_policy_load_operand(o.operands[0], &err);
	if (!bc) {
		if (err.msg[0])
			hp_cli_error("explain", "%s", err.msg);
		return HP_EXIT_USAGE;
	}
	hp_buf b = {0};
	if (rules)
		list_rules(&b, bc);
	else
		hp_explain(&b, bc);
	int rc = hp_cli_write_stdout("explain", b.data, b.len) ? HP_EXIT_OK : HP_EXIT_CANNOT_RUN;
	hp_buf_free(&b);
	hp_bc_free(bc);
	return rc;
}
