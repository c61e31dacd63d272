/* cmd_unbuilt.c: compiler commands not part of this build yet. Each says so
 * and exits 2 rather than pretending; a command moves out of this file when
 * it is built. */
#include "check/cli.h"
#include "check/commands.h"

#define UNBUILT(name)                                                                  \
	const char hp_help_##name[] = "This command is not part of this build yet.\n"; \
	int hp_cmd_##name(int argc, char **argv)                                       \
	{                                                                              \
		(void)argc;                                                            \
		return hp_cli_unbuilt(argv[0]);                                        \
	}

