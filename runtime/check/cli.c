/* cli.c: usage, --help, --version, help SUBCOMMAND and dispatch. */
#include "check/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/version.h"

const char *hp_progname = "hangar-policy";
static const hp_command *g_cmds;
static size_t g_ncmds;

static const hp_command *find(const char *name)
{
	for (size_t i = 0; i < g_ncmds; i++)
		if (strcmp(g_cmds[i].name, name) == 0)
			return &g_cmds[i];
	return NULL;
}

static void print_usage(FILE *f)
{
	fprintf(f,
	        "usage: %s COMMAND [ARGS]...\n       %s --help | --version | help "
	        "COMMAND\n\ncommands:\n",
	        hp_progname, hp_progname);
	for (size_t i = 0; i < g_ncmds; i++)
		fprintf(f, "  %-9s %s\n", g_cmds[i].name, g_cmds[i].summary);
	fprintf(f, "\nRun '%s help COMMAND' for a command's options.\n", hp_progname);
}

static void print_command_help(FILE *f, const hp_command *c)
{
	fprintf(f, "usage: %s %s\n\n%s.\n", hp_progname, c->usage, c->summary);
	if (c->help && *c->help)
		fprintf(f, "\n%s", c->help);
}

void hp_cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s %s: ", hp_progname, cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int hp_cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s %s: ", hp_progname, cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	const hp_command *c = find(cmd);
	if (c)
		fprintf(stderr, "usage: %s %s\n", hp_progname, c->usage);
	return HP_EXIT_USAGE;
}

int hp_cli_unbuilt(const char *cmd)
{
	fprintf(stderr, "%s %s: this command is not part of this build yet\n", hp_progname, cmd);
	return HP_EXIT_USAGE;
}

int hp_cli_main(const char *prog, const hp_command *cmds, size_t ncmds, int argc, char **argv)
{
	hp_progname = prog;
	g_cmds = cmds;
	g_ncmds = ncmds;
	if (argc < 2) {
		print_usage(stderr);
		return HP_EXIT_USAGE;
	}
	const char *a = argv[1];
	if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
		print_usage(stdout);
		return HP_EXIT_OK;
	}
	if (strcmp(a, "--version") == 0) {
		printf("%s %s\n", prog, HP_VERSION);
		return HP_EXIT_OK;
	}
	if (strcmp(a, "help") == 0) {
		if (argc == 2) {
			print_usage(stdout);
			return HP_EXIT_OK;
		}
		const hp_command *c = find(argv[2]);
		if (!c || argc > 3) {
			fprintf(stderr, "%s help: no command '%s'\n", prog, argv[2]);
			print_usage(stderr);
			return HP_EXIT_USAGE;
		}
		print_command_help(stdout, c);
		return HP_EXIT_OK;
	}
	if (a[0] == '-') {
		fprintf(stderr, "%s: unknown option '%s'\n", prog, a);
		print_usage(stderr);
		return HP_EXIT_USAGE;
	}
	const hp_command *c = find(a);
	if (!c) {
		fprintf(stderr, "%s: unknown command '%s'\n", prog, a);
		print_usage(stderr);
		return HP_EXIT_USAGE;
	}
	/* Every command takes --help after its name too. */
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			print_command_help(stdout, c);
			return HP_EXIT_OK;
		}
	}
	return c->run(argc - 1, argv + 1);
}
