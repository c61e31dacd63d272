/* cli.c: the command line (cli.h): usage, `help`, --version, dispatch, and
 * the option parser every command reads its options with. Everything a
 * user sees about options (usage, help, errors, the completion listings)
 * comes from the one table in commands.def. */
#include "check/cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/color.h"
#include "check/commands.h"
#include "lib/buf.h"
#include "lib/similar.h"
#include "lib/version.h"
#include "lib/xalloc.h"
#include "model/domain.h"

const char *hp_progname = "hangar-policy";
static const hp_command *g_cmds;
static size_t g_ncmds;

typedef struct {
	const char *cmd; /* NULL: every command's (HP_COMMON) */
	int id;
	const char *name;
	int short_name;
	const char *metavar; /* NULL: takes no value; "[WHEN]": may take one, after '=' */
	const char *values;
	const char *help;
} opt_def;

static const opt_def g_opts[] = {
#define HP_COMMON(id, name, short_name, metavar, values, help) \
	{NULL, HP_OPT_##id, name, short_name, metavar, values, help},
#define HP_OPTION(cmd, id, name, short_name, metavar, values, help) \
	{#cmd, HP_OPT_##cmd##_##id, name, short_name, metavar, values, help},
#include "check/commands.def"
};
#define NOPTS (sizeof g_opts / sizeof g_opts[0])

/* Every command's name, built here or not (hangar-policy-runtime has some). */
static const char *const g_all_commands[] = {
#define HP_COMMAND(name, where, operands, summary) #name,
#include "check/commands.def"
};

static bool opt_of(const opt_def *d, const char *cmd)
{
	return !d->cmd || strcmp(d->cmd, cmd) == 0;
}

/* A command of the other executable (hangar-policy has the compiler's). */
static bool elsewhere(const char *name)
{
	for (size_t i = 0; i < sizeof g_all_commands / sizeof g_all_commands[0]; i++)
		if (strcmp(g_all_commands[i], name) == 0)
			return true;
	return false;
}

static const hp_command *find(const char *name)
{
	for (size_t i = 0; i < g_ncmds; i++)
		if (strcmp(g_cmds[i].name, name) == 0)
			return &g_cmds[i];
	return NULL;
}

static const char *suggest_command(const char *typed)
{
	const char **names = hp_xcalloc(g_ncmds ? g_ncmds : 1, sizeof *names);
	for (size_t i = 0; i < g_ncmds; i++)
		names[i] = g_cmds[i].name;
	const char *s = hp_similar_pick(typed, names, g_ncmds);
	free(names);
	return s;
}

/* --- help texts ------------------------------------------------------- */

static void print_usage(FILE *f)
{
	fprintf(f,
	        "usage: %s COMMAND [OPTION]... [ARG]...\n"
	        "       %s --help | --version\n\ncommands:\n",
	        hp_progname, hp_progname);
	for (size_t i = 0; i < g_ncmds; i++)
		fprintf(f, "  %-9s %s\n", g_cmds[i].name, g_cmds[i].summary);
	fprintf(f, "\nRun '%s help COMMAND' for a command's options.\n", hp_progname);
}

static void print_command_usage(FILE *f, const hp_command *c)
{
	fprintf(f, "usage: %s %s [OPTION]...%s%s\n", hp_progname, c->name,
	        c->operands[0] ? " " : "", c->operands);
}

/* "  -o, --output=FILE   help", continuation lines under the help. */
#define HELP_COL 24
#define HELP_WIDTH 79
static bool value_optional(const opt_def *d)
{
	return d->metavar && d->metavar[0] == '[';
}

static void print_option(FILE *f, const opt_def *d)
{
	char left[96];
	int n = value_optional(d)
	            ? snprintf(left, sizeof left, "      --%s[=%.*s]", d->name,
	                       (int)strlen(d->metavar) - 2, d->metavar + 1)
	            : snprintf(left, sizeof left, "  %c%c%s--%s%s%s", d->short_name ? '-' : ' ',
	                       d->short_name ? d->short_name : ' ', d->short_name ? ", " : "  ",
	                       d->name, d->metavar ? "=" : "", d->metavar ? d->metavar : "");
	fputs(left, f);
	int col = n;
	if (n + 2 > HELP_COL) {
		fputc('\n', f);
		col = 0;
	}
	fprintf(f, "%*s", HELP_COL - col, "");
	col = HELP_COL;
	/* the help's words, wrapped to HELP_WIDTH columns */
	const char *h = d->help;
	bool first = true;
	while (*h) {
		while (*h == ' ' || *h == '\n')
			h++;
		size_t w = strcspn(h, " \n");
		if (!w)
			break;
		if (!first && col + 1 + (int)w > HELP_WIDTH) {
			fprintf(f, "\n%*s", HELP_COL, "");
			col = HELP_COL;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)w, h);
		col += (int)w;
		h += w;
		first = false;
	}
	fputc('\n', f);
}

static void print_command_help(FILE *f, const hp_command *c)
{
	print_command_usage(f, c);
	fprintf(f, "\n%c%s.\n\noptions:\n", toupper((unsigned char)c->summary[0]), c->summary + 1);
	for (int common = 0; common < 2; common++)
		for (size_t i = 0; i < NOPTS; i++)
			if ((g_opts[i].cmd == NULL) == (common == 1) && opt_of(&g_opts[i], c->name))
				print_option(f, &g_opts[i]);
	if (c->help && *c->help)
		fprintf(f, "\n%s", c->help);
}

/* --- errors ------------------------------------------------------------ */

static void vmessage(const char *cmd, const char *fmt, va_list ap)
{
	if (cmd)
		fprintf(stderr, "%s %s: ", hp_progname, cmd);
	else
		fprintf(stderr, "%s: ", hp_progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void hp_cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(cmd, fmt, ap);
	va_end(ap);
}

static void usage_hint(const char *cmd)
{
	const hp_command *c = find(cmd);
	if (c) {
		print_command_usage(stderr, c);
		fprintf(stderr, "Run '%s help %s' for its options.\n", hp_progname, c->name);
	}
}

int hp_cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(cmd, fmt, ap);
	va_end(ap);
	usage_hint(cmd);
	return HP_EXIT_USAGE;
}

int hp_cli_bad_value(const char *cmd, const char *option, const char *value,
                     const char *const *words, size_t n)
{
	hp_buf b = {0};
	for (size_t i = 0; i < n; i++)
		hp_buf_printf(&b, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", words[i]);
	const char *s = hp_similar_pick(value, words, n);
	if (s)
		hp_cli_usage_error(cmd, "%s '%s' is not %s; did you mean '%s'?", option, value,
		                   b.data ? b.data : "", s);
	else
		hp_cli_usage_error(cmd, "%s '%s' is not %s", option, value, b.data ? b.data : "");
	hp_buf_free(&b);
	return HP_EXIT_USAGE;
}

/* --- the option parser ------------------------------------------------- */

static const opt_def *def_by_id(int id)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (g_opts[i].id == id)
			return &g_opts[i];
	return NULL;
}

static const opt_def *def_by_short(const char *cmd, int c)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (g_opts[i].short_name == c && opt_of(&g_opts[i], cmd))
			return &g_opts[i];
	return NULL;
}

/* The tables of the parse under way. Kept here as well as in the hp_opts,
 * so that a command that returns from its option loop early (a usage error
 * of its own) leaks nothing: the next parse, or exit, finds them. */
static struct option *g_longopts;
static char *g_shortopts;

static void free_tables(hp_opts *o)
{
	free(g_longopts);
	free(g_shortopts);
	g_longopts = NULL;
	g_shortopts = NULL;
	o->longopts = NULL;
	o->shortopts = NULL;
}

void hp_opts_begin(hp_opts *o, int argc, char **argv)
{
	free(g_longopts);
	free(g_shortopts);
	memset(o, 0, sizeof *o);
	o->cmd = argv[0];
	o->argc = argc;
	o->argv = argv;
	struct option *lo = hp_xcalloc(NOPTS + 1, sizeof *lo);
	char *so = hp_xcalloc(2 * NOPTS + 2, 1);
	size_t nl = 0, ns = 0;
	so[ns++] = ':'; /* a missing value is ':', told apart from an unknown option */
	for (size_t i = 0; i < NOPTS; i++) {
		const opt_def *d = &g_opts[i];
		if (!opt_of(d, o->cmd))
			continue;
		lo[nl++] = (struct option){d->name,
		                           value_optional(d) ? optional_argument
		                           : d->metavar      ? required_argument
		                                             : no_argument,
		                           NULL, d->id};
		if (d->short_name) {
			so[ns++] = (char)d->short_name;
			if (d->metavar)
				so[ns++] = ':';
		}
	}
	o->longopts = g_longopts = lo;
	o->shortopts = g_shortopts = so;
	optind = 0; /* glibc: start afresh (a command may be parsed more than once) */
	opterr = 0;
}

static int stop(hp_opts *o, int rc)
{
	free_tables(o);
	o->done = true;
	o->rc = rc;
	o->operands = o->argv + o->argc;
	o->noperands = 0;
	return HP_OPT_STOP;
}

/* An option getopt_long did not know: unknown, or an ambiguous prefix. */
static int unknown_long(hp_opts *o, const char *text)
{
	const char *name = text + 2;
	size_t n = strcspn(name, "=");
	const char *words[NOPTS];
	size_t nw = 0;
	hp_buf amb = {0};
	size_t nprefix = 0;
	for (size_t i = 0; i < NOPTS; i++) {
		if (!opt_of(&g_opts[i], o->cmd))
			continue;
		words[nw++] = g_opts[i].name;
		if (n && strncmp(g_opts[i].name, name, n) == 0) {
			hp_buf_printf(&amb, "%s--%s", nprefix ? ", " : "", g_opts[i].name);
			nprefix++;
		}
	}
	if (nprefix > 1) {
		hp_cli_usage_error(o->cmd, "option '--%.*s' is ambiguous: %s", (int)n, name,
		                   amb.data);
	} else {
		char *typed = hp_xstrndup(name, n);
		const char *s = hp_similar_pick(typed, words, nw);
		if (s)
			hp_cli_usage_error(o->cmd, "unknown option '--%s'; did you mean '--%s'?",
			                   typed, s);
		else
			hp_cli_usage_error(o->cmd, "unknown option '--%s'", typed);
		free(typed);
	}
	hp_buf_free(&amb);
	return stop(o, HP_EXIT_USAGE);
}

int hp_opts_next(hp_opts *o)
{
	if (o->done)
		return HP_OPT_END;
	for (;;) {
		int c = getopt_long(o->argc, o->argv, o->shortopts, o->longopts, NULL);
		o->arg = optarg;
		if (c == -1) {
			free_tables(o);
			o->done = true;
			o->operands = o->argv + optind;
			o->noperands = o->argc - optind;
			return HP_OPT_END;
		}
		if (c == ':') {
			const opt_def *d = optopt >= HP_OPT_FIRST_ ? def_by_id(optopt) : NULL;
			if (!d && optopt > 0)
				d = def_by_short(o->cmd, optopt);
			if (d && optopt < HP_OPT_FIRST_)
				hp_cli_usage_error(o->cmd, "-%c (--%s) needs a value (%s)", optopt,
				                   d->name, d->metavar);
			else if (d)
				hp_cli_usage_error(o->cmd, "--%s needs a value (%s)", d->name,
				                   d->metavar);
			else
				hp_cli_usage_error(o->cmd, "-%c needs a value", optopt);
			return stop(o, HP_EXIT_USAGE);
		}
		if (c == '?') {
			const opt_def *d = optopt >= HP_OPT_FIRST_ ? def_by_id(optopt) : NULL;
			if (d) {
				hp_cli_usage_error(o->cmd, "--%s takes no value", d->name);
				return stop(o, HP_EXIT_USAGE);
			}
			if (optopt > 0) {
				hp_cli_usage_error(o->cmd, "unknown option '-%c'", optopt);
				return stop(o, HP_EXIT_USAGE);
			}
			/* getopt_long has moved past the long option it did not know */
			return unknown_long(o, o->argv[optind - 1]);
		}
		int id = c;
		if (c < HP_OPT_FIRST_) {
			const opt_def *d = def_by_short(o->cmd, c);
			if (!d) {
				hp_cli_usage_error(o->cmd, "unknown option '-%c'", c);
				return stop(o, HP_EXIT_USAGE);
			}
			id = d->id;
		}
		if (id == HP_OPT_help) {
			const hp_command *cmd = find(o->cmd);
			if (cmd)
				print_command_help(stdout, cmd);
			return stop(o, fflush(stdout) == 0 ? HP_EXIT_OK : HP_EXIT_CANNOT_RUN);
		}
		if (id == HP_OPT_color) {
			/* --color alone is always, as for ls and git: a value must
			 * follow '=', so `lint --color p.hpol` lints p.hpol */
			hp_color_choice ch = HP_COLOR_ALWAYS;
			if (o->arg && !hp_color_parse(o->arg, &ch)) {
				static const char *const when[] = {"auto", "always", "never"};
				return stop(o, hp_cli_bad_value(o->cmd, "--color", o->arg, when, 3));
			}
			hp_color_set(ch);
			continue;
		}
		return id;
	}
}

/* --- standard input and output ---------------------------------------- */

bool hp_cli_is_stdio(const char *path)
{
	return strcmp(path, "-") == 0;
}

bool hp_cli_read_stdin(size_t max, uint8_t **data, size_t *len, hp_err *err)
{
	size_t cap = 0, n = 0;
	uint8_t *p = NULL;
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			if (cap > max + 1)
				cap = max + 1;
			p = hp_xrealloc(p, cap + 1);
		}
		ssize_t r = read(STDIN_FILENO, p + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			hp_err_set(err, "%s: %s", HP_STDIN_NAME, strerror(errno));
			free(p);
			return false;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			hp_err_set(err, "%s: larger than %zu bytes", HP_STDIN_NAME, max);
			free(p);
			return false;
		}
	}
	if (!p)
		p = hp_xmalloc(1);
	p[n] = 0;
	*data = p;
	*len = n;
	return true;
}

bool hp_cli_write_stdout(const char *cmd, const void *data, size_t len)
{
	if ((len && fwrite(data, 1, len, stdout) != len) || fflush(stdout) != 0) {
		hp_cli_error(cmd, "standard output: %s", strerror(errno));
		return false;
	}
	return true;
}

/* --- help, the command ------------------------------------------------- */

const char hp_help_help[] =
    "Without COMMAND, lists the commands. 'COMMAND --help' is the same as\n"
    "'help COMMAND'.\n"
    "\n"
    "Every command reads its options the same way: '--opt=VALUE' or\n"
    "'--opt VALUE', '-oVALUE' or '-o VALUE', options before or after operands,\n"
    "and '--' ends the options. A file operand '-' is standard input, and '-'\n"
    "given to --output, -o or --record is standard output.\n"
    "\n"
    "Colour: --color=always (or --color alone) or --color=never decides; with\n"
    "auto (the default), no colour when NO_COLOR is set and not empty, colour\n"
    "when CLICOLOR_FORCE is set and not empty or 0, else colour on a terminal\n"
    "whose TERM is not dumb.\n"
    "\n"
    "exit status, for every command:\n"
    "  0  done (check: split)\n"
    "  1  problems found: lint errors, fmt --check files to change, test\n"
    "     cases that failed (check: single-user)\n"
    "  2  bad usage, or an input that cannot be read or does not load\n"
    "  3  check: refuse\n"
    "  4  the command could not do its work: an output that cannot be\n"
    "     written, a system or image that cannot be examined, an internal error\n";

static void expand_values(FILE *f, const char *values)
{
	const char *const *names = NULL;
	size_t n = 0;
	if (strcmp(values, "@provider") == 0)
		names = hp_provider_names, n = HP_PROVIDER_COUNT;
	else if (strcmp(values, "@mode") == 0)
		names = hp_mode_names, n = HP_MODE_COUNT;
	else if (strcmp(values, "@role") == 0)
		names = hp_role_names, n = HP_ROLE_COUNT;
	if (!names) {
		fputs(values, f);
		return;
	}
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", names[i]);
}

static void list_options(FILE *f, const hp_command *c)
{
	for (size_t i = 0; i < NOPTS; i++) {
		const opt_def *d = &g_opts[i];
		if (!opt_of(d, c->name))
			continue;
		fprintf(f, "--%s%s\t", d->name, d->metavar ? "=" : "");
		expand_values(f, d->values);
		fputc('\n', f);
		if (d->short_name) {
			fprintf(f, "-%c%s\t", d->short_name, d->metavar ? "=" : "");
			expand_values(f, d->values);
			fputc('\n', f);
		}
	}
}

int hp_cmd_help(int argc, char **argv)
{
	bool commands = false, options = false;
	hp_opts o;
	hp_opts_begin(&o, argc, argv);
	for (int id; (id = hp_opts_next(&o)) != HP_OPT_END;) {
		switch (id) {
		case HP_OPT_STOP:
			return o.rc;
		case HP_OPT_help_commands:
			commands = true;
			break;
		case HP_OPT_help_options:
			options = true;
			break;
		}
	}
	if (commands && options)
		return hp_cli_usage_error("help", "--commands and --options exclude each other");
	if (o.noperands > 1)
		return hp_cli_usage_error("help", "one command at a time ('%s' and '%s')",
		                          o.operands[0], o.operands[1]);
	if (commands) {
		if (o.noperands)
			return hp_cli_usage_error("help", "--commands takes no COMMAND");
		for (size_t i = 0; i < g_ncmds; i++)
			printf("%s\n", g_cmds[i].name);
	} else if (!o.noperands) {
		if (options)
			return hp_cli_usage_error("help", "--options needs a COMMAND");
		print_usage(stdout);
	} else {
		const hp_command *c = find(o.operands[0]);
		if (!c && elsewhere(o.operands[0])) {
			hp_cli_error("help", "'%s' is a command of hangar-policy, which has the compiler; "
			                     "this program runs compiled policies only",
			             o.operands[0]);
			return HP_EXIT_USAGE;
		}
		if (!c) {
			const char *s = suggest_command(o.operands[0]);
			if (s)
				hp_cli_error("help", "no command '%s'; did you mean '%s'?",
				             o.operands[0], s);
			else
				hp_cli_error("help", "no command '%s'", o.operands[0]);
			fprintf(stderr, "Run '%s help' for the list of commands.\n", hp_progname);
			return HP_EXIT_USAGE;
		}
		if (options)
			list_options(stdout, c);
		else
			print_command_help(stdout, c);
	}
	return fflush(stdout) == 0 ? HP_EXIT_OK : HP_EXIT_CANNOT_RUN;
}

/* --- dispatch ---------------------------------------------------------- */

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
		return fflush(stdout) == 0 ? HP_EXIT_OK : HP_EXIT_CANNOT_RUN;
	}
	if (strcmp(a, "--version") == 0) {
		printf("%s %s\n", prog, HP_VERSION);
		return fflush(stdout) == 0 ? HP_EXIT_OK : HP_EXIT_CANNOT_RUN;
	}
	if (a[0] == '-' && a[1]) {
		static const char *const top[] = {"--help", "--version"};
		const char *s = hp_similar_pick(a, top, 2);
		if (s)
			fprintf(stderr, "%s: unknown option '%s'; did you mean '%s'?\n", prog, a, s);
		else
			fprintf(stderr, "%s: unknown option '%s'\n", prog, a);
		fprintf(stderr, "Run '%s --help' for the commands.\n", prog);
		return HP_EXIT_USAGE;
	}
	const hp_command *c = find(a);
	if (!c) {
		if (elsewhere(a)) {
			fprintf(stderr,
			        "%s: '%s' is a command of hangar-policy, which has the "
			        "compiler; this program runs compiled policies only\n",
			        prog, a);
			return HP_EXIT_USAGE;
		}
		const char *s = suggest_command(a);
		if (s)
			fprintf(stderr, "%s: unknown command '%s'; did you mean '%s'?\n", prog, a, s);
		else
			fprintf(stderr, "%s: unknown command '%s'\n", prog, a);
		fprintf(stderr, "Run '%s help' for the list of commands.\n", prog);
		return HP_EXIT_USAGE;
	}
	return c->run(argc - 1, argv + 1);
}
