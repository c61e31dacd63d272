/* main.c: hangar-policy, the whole command: compiler, linter, formatter and
 * the runtime's check. */
#include "check/cli.h"
#include "codegen.h"
#include "check/commands.h"
#include "check/default_policy.h"
#include "check/policy.h"

#define HP_COMMAND(name, where, operands, summary) \
	{#name, operands, summary, hp_help_##name, hp_cmd_##name},
static const hp_command commands[] = {
#include "check/commands.def"
};

int main(int argc, char **argv)
{
	/* the runtime's commands (check, explain) accept source here */
	hp_set_source_compiler(hp_compile_source_printing);
	hp_set_default_policy(hp_default_policy, hp_default_policy_len);
	return hp_cli_main("hangar-policy", commands, sizeof commands / sizeof commands[0], argc,
	                   argv);
}
