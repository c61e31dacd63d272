/* main.c: hangar-policy-runtime, the runtime alone. It runs compiled policies
 * (and the default policy built into it) and links no compiler code, so it
 * can be built as a small static executable and copied into any image. */
#include "check/cli.h"
#include "check/commands.h"
#include "check/default_policy.h"

#define HP_CMD_RUNTIME(name, operands, summary) \
	{#name, operands, summary, hp_help_##name, hp_cmd_##name},
#define HP_CMD_FULL(name, operands, summary)
#define HP_COMMAND(name, where, operands, summary) HP_CMD_##where(name, operands, summary)
static const hp_command commands[] = {
#include "check/commands.def"
};

int main(int argc, char **argv)
{
	hp_set_default_policy(hp_default_policy, hp_default_policy_len);
	return hp_cli_main("hangar-policy-runtime", commands, sizeof commands / sizeof commands[0],
	                   argc, argv);
}
