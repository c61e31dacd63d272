/* test_color.c: the one colour rule, in its order: --color, then
 * NO_COLOR (set and non-empty), then CLICOLOR_FORCE, then a terminal whose
 * TERM is not dumb. The environment is a table; the terminal is a pty. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/color.h"

static const char *env[8][2];

static const char *table_getenv(const char *name)
{
	for (size_t i = 0; i < 8 && env[i][0]; i++)
		if (strcmp(env[i][0], name) == 0)
			return env[i][1];
	return NULL;
}

static void set_env(const char *no_color, const char *force, const char *term)
{
	memset(env, 0, sizeof env);
	size_t n = 0;
	if (no_color)
		env[n][0] = "NO_COLOR", env[n++][1] = no_color;
	if (force)
		env[n][0] = "CLICOLOR_FORCE", env[n++][1] = force;
	if (term)
		env[n][0] = "TERM", env[n++][1] = term;
}

/* A terminal's descriptor (a pty), or -1 where there is none. */
static int open_tty(void)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) != 0 || unlockpt(m) != 0)
		return -1;
	const char *name = ptsname(m);
	int s = name ? open(name, O_RDWR | O_NOCTTY) : -1;
	return s;
}

static void test_parse(void **state)
{
	(void)state;
	hp_color_choice c = HP_COLOR_NEVER;
	assert_true(hp_color_parse("auto", &c));
	assert_int_equal(c, HP_COLOR_AUTO);
	assert_true(hp_color_parse("always", &c));
	assert_int_equal(c, HP_COLOR_ALWAYS);
	assert_true(hp_color_parse("never", &c));
	assert_int_equal(c, HP_COLOR_NEVER);
	assert_false(hp_color_parse("yes", &c));
	assert_false(hp_color_parse("", &c));
	assert_false(hp_color_parse("Always", &c));
}

static void test_order(void **state)
{
	(void)state;
	int tty = open_tty();
	int file = open("/dev/null", O_WRONLY);
	assert_true(file >= 0);
	/* --color decides over everything */
	set_env("1", NULL, "xterm");
	assert_true(hp_color_decide(HP_COLOR_ALWAYS, file, table_getenv));
	set_env(NULL, "1", "xterm");
	assert_false(hp_color_decide(HP_COLOR_NEVER, tty >= 0 ? tty : file, table_getenv));
	/* NO_COLOR set and non-empty disables, even over CLICOLOR_FORCE */
	set_env("1", "1", "xterm");
	assert_false(hp_color_decide(HP_COLOR_AUTO, file, table_getenv));
	/* an empty NO_COLOR is not set */
	set_env("", "1", "xterm");
	assert_true(hp_color_decide(HP_COLOR_AUTO, file, table_getenv));
	/* CLICOLOR_FORCE colours a file; empty or 0 does not force */
	set_env(NULL, "1", NULL);
	assert_true(hp_color_decide(HP_COLOR_AUTO, file, table_getenv));
	set_env(NULL, "0", "xterm");
	assert_false(hp_color_decide(HP_COLOR_AUTO, file, table_getenv));
	set_env(NULL, "", "xterm");
	assert_false(hp_color_decide(HP_COLOR_AUTO, file, table_getenv));
	/* otherwise a file never, a terminal unless TERM is dumb or unset */
	set_env(NULL, NULL, "xterm");
	assert_false(hp_color_decide(HP_COLOR_AUTO, file, table_getenv));
	if (tty >= 0) {
		assert_true(hp_color_decide(HP_COLOR_AUTO, tty, table_getenv));
		set_env(NULL, NULL, "dumb");
		assert_false(hp_color_decide(HP_COLOR_AUTO, tty, table_getenv));
		set_env(NULL, NULL, NULL);
		assert_false(hp_color_decide(HP_COLOR_AUTO, tty, table_getenv));
		set_env("", NULL, "xterm-256color");
		assert_true(hp_color_decide(HP_COLOR_AUTO, tty, table_getenv));
		close(tty);
	}
	close(file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
