/* cmd_unbuilt.c: runtime commands not part of this build yet. Each says so
 * and exits 2 rather than pretending; a command moves out of this file when
 * it is built. */
#include "cli.h"
#include "commands.h"

const char hp_help_check[] = "This command is not part of this build yet.\n";
int hp_cmd_check(int argc, char **argv)
{
	(void)argc;
	return hp_cli_unbuilt(argv[0]);
}
