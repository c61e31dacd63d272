/* commands.h: the entry point and help text of every command in
 * commands.def, declared from that list. */
#ifndef HP_COMMANDS_H
#define HP_COMMANDS_H

#define HP_COMMAND(name, where, operands, summary) \
	int hp_cmd_##name(int argc, char **argv);  \
	extern const char hp_help_##name[];
#include "check/commands.def"

#endif
