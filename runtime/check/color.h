/* color.h: whether to colour what is written to a stream, by one rule for
 * every command (color.c):
 *
 *   1. --color=always or --color=never, when given;
 *   2. else NO_COLOR set and non-empty: no colour;
 *   3. else CLICOLOR_FORCE set, non-empty and not "0": colour;
 *   4. else colour when the stream is a terminal and TERM is set and not
 *      "dumb".
 */
#ifndef HP_COLOR_H
#define HP_COLOR_H

#include <stdbool.h>

typedef enum { HP_COLOR_AUTO, HP_COLOR_ALWAYS, HP_COLOR_NEVER } hp_color_choice;

/* The --color value ("auto", "always", "never"); false for anything else. */
bool hp_color_parse(const char *s, hp_color_choice *out);

/* Set by the option parser from --color (default HP_COLOR_AUTO). */
void hp_color_set(hp_color_choice c);

/* The rule above for file descriptor fd, with getenv_fn for the
 * environment (getenv in the program, a table in the tests). */
bool hp_color_decide(hp_color_choice c, int fd, const char *(*getenv_fn)(const char *));

/* hp_color_decide with the --color given and the process's environment. */
bool hp_color_for_fd(int fd);

#endif
