/* cli.h: the command-line front door shared by hangar-policy and
 * hangar-policy-runtime: usage, --help, --version, help SUBCOMMAND, and
 * dispatch to the commands listed in commands.def. */
#ifndef HP_CLI_H
#define HP_CLI_H

#include <stddef.h>

/* Exit statuses shared by every command (check adds its decisions, see
 * domain.def): 2 is "your input or usage is wrong", 4 "could not run". */
enum { HP_EXIT_OK = 0, HP_EXIT_FINDINGS = 1, HP_EXIT_USAGE = 2, HP_EXIT_CANNOT_RUN = 4 };

typedef struct {
	const char *name;
	const char *usage;
	const char *summary;
	const char *help; /* the options, after usage and summary */
	int (*run)(int argc, char **argv);
} hp_command;

int hp_cli_main(const char *prog, const hp_command *cmds, size_t ncmds, int argc, char **argv);

/* The name the program was invoked as, for messages ("hangar-policy"). */
extern const char *hp_progname;

/* Print "PROG CMD: message" on stderr. */
void hp_cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A command that is not part of this build yet: says so, exit status 2. */
int hp_cli_unbuilt(const char *cmd);
/* Print a command's usage on stderr and return HP_EXIT_USAGE. */
int hp_cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
