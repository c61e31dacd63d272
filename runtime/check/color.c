/* color.c: the one colour rule (color.h). Every command that can colour
 * (diagnostics, reports) asks here, so NO_COLOR, CLICOLOR_FORCE, TERM and
 * --color mean the same everywhere. */
#include "check/color.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static hp_color_choice g_choice = HP_COLOR_AUTO;

bool hp_color_parse(const char *s, hp_color_choice *out)
{
	static const struct {
		const char *name;
		hp_color_choice c;
	} names[] = {{"auto", HP_COLOR_AUTO}, {"always", HP_COLOR_ALWAYS}, {"never", HP_COLOR_NEVER}};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(s, names[i].name) == 0) {
			*out = names[i].c;
			return true;
		}
	return false;
}

void hp_color_set(hp_color_choice c)
{
	g_choice = c;
}

bool hp_color_decide(hp_color_choice c, int fd, const char *(*getenv_fn)(const char *))
{
	if (c == HP_COLOR_ALWAYS)
		return true;
	if (c == HP_COLOR_NEVER)
		return false;
	const char *no = getenv_fn("NO_COLOR");
	if (no && *no)
		return false;
	const char *force = getenv_fn("CLICOLOR_FORCE");
	if (force && *force && strcmp(force, "0") != 0)
		return true;
	const char *term = getenv_fn("TERM");
	if (!term || !*term || strcmp(term, "dumb") == 0)
		return false;
	return isatty(fd) == 1;
}

static const char *process_getenv(const char *name)
{
	return getenv(name);
}

bool hp_color_for_fd(int fd)
{
	return hp_color_decide(g_choice, fd, process_getenv);
}
