/* cli.h: the command line shared by hangar-policy and hangar-policy-runtime:
 * usage, --help, --version, `help`, dispatch to the commands of
 * commands.def, and the one option parser every command uses (getopt_long
 * underneath, so `--opt=value`, `--opt value`, `-oVALUE`, `-o VALUE`,
 * bundled short options and `--` behave as in every GNU tool).
 *
 *   hp_opts o;
 *   hp_opts_begin(&o, argc, argv);
 *   for (int id; (id = hp_opts_next(&o)) != HP_OPT_END;) {
 *           switch (id) {
 *           case HP_OPT_STOP: return o.rc;     // --help shown, or a usage error
 *           case HP_OPT_lint_werror: werror = true; break;
 *           case HP_OPT_lint_format: fmt = o.arg; break;
 *           }
 *   }
 *   // operands: o.operands[0 .. o.noperands)
 */
#ifndef HP_CLI_H
#define HP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/xalloc.h"

/* Exit statuses, the same for every command (docs/cli.md, EXIT STATUS in
 * hangar-policy(1)); check's decisions are 0, 1 and 3 (domain.def). */
enum {
	HP_EXIT_OK = 0,         /* done; check: split */
	HP_EXIT_FINDINGS = 1,   /* lint found errors, fmt --check files to change; check: single-user */
	HP_EXIT_USAGE = 2,      /* bad usage, or an input that cannot be read or does not load */
	HP_EXIT_REFUSE = 3,     /* check: refuse */
	HP_EXIT_CANNOT_RUN = 4, /* could not do the work: an output that cannot be written, a
	                           system or image that cannot be examined, an internal error */
};

/* One option id per HP_OPTION and HP_COMMON line of commands.def. */
enum {
	HP_OPT_STOP = -2, /* stop: return o.rc (0 after --help, 2 after a usage error) */
	HP_OPT_END = -1,  /* the options are done; the operands are in o.operands */
	HP_OPT_FIRST_ = 256,
#define HP_OPTION(cmd, id, name, short_name, metavar, values, help) HP_OPT_##cmd##_##id,
#define HP_COMMON(id, name, short_name, metavar, values, help) HP_OPT_##id,
#include "check/commands.def"
};

typedef struct {
	const char *name;
	const char *operands;
	const char *summary;
	const char *help; /* the prose after the options */
	int (*run)(int argc, char **argv);
} hp_command;

typedef struct {
	const char *cmd;   /* the command's name (argv[0]) */
	const char *arg;   /* the value of the option just returned, NULL if none */
	int rc;            /* after HP_OPT_STOP: the exit status */
	char **operands;   /* after HP_OPT_END */
	int noperands;
	/* private to the parser */
	int argc;
	char **argv;
	void *longopts;
	char *shortopts;
	bool done;
} hp_opts;

void hp_opts_begin(hp_opts *o, int argc, char **argv);
/* The next option's id (HP_OPT_cmd_id), HP_OPT_END, or HP_OPT_STOP.
 * Errors (an unknown option, with a suggestion when one is close; a
 * missing value; a value given to an option that takes none) are printed
 * with the command's usage line. */
int hp_opts_next(hp_opts *o);

int hp_cli_main(const char *prog, const hp_command *cmds, size_t ncmds, int argc, char **argv);

/* The name the program was invoked as, for messages ("hangar-policy"). */
extern const char *hp_progname;

/* Print "PROG CMD: message" on stderr. */
void hp_cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print "PROG CMD: message", the command's usage line, and return HP_EXIT_USAGE. */
int hp_cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An option's value that is not one of words[0..n): the message names the
 * option and the values, with a suggestion when one is close; returns
 * HP_EXIT_USAGE. */
int hp_cli_bad_value(const char *cmd, const char *option, const char *value,
                     const char *const *words, size_t n);

/* "-" as a file operand: standard input (or output). */
bool hp_cli_is_stdio(const char *path);
/* The name standard input has in messages and diagnostics. */
#define HP_STDIN_NAME "<stdin>"
/* Read all of standard input, at most max bytes (NUL after them); false
 * with err set when it cannot be read or is longer. */
bool hp_cli_read_stdin(size_t max, uint8_t **data, size_t *len, hp_err *err);
/* Write data to standard output, flushed; false with a message printed. */
bool hp_cli_write_stdout(const char *cmd, const void *data, size_t len);

#endif
