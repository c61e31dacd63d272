/* binfmt_misc.h: the interpreters the kernel's binfmt_misc handlers run.
 * The kernel tries binfmt_misc before ELF and "#!", so an enabled handler
 * whose magic or extension matches a file runs the file through its
 * interpreter (opened by path at exec time, unless the handler has the F
 * flag and was opened when it was registered). The handlers are the live
 * kernel's, read from /proc/sys/fs/binfmt_misc in the root given: every
 * enabled handler's interpreter, whatever it matches, is what the caller
 * is to judge.
 *
 * Answers: HP_TRUE with the interpreters appended (none when binfmt_misc
 * is not mounted there or is disabled); HP_UNKNOWN when an entry cannot
 * be read or parsed, or past HP_BINFMT_MAX entries. */
#ifndef HP_BINFMT_MISC_H
#define HP_BINFMT_MISC_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strv.h"
#include "lib/tri.h"
#include "lib/xalloc.h"
#include "os/safe_path.h"

enum { HP_BINFMT_MAX = 256 };

hp_tri hp_os_binfmt_interpreters(const hp_root *r, hp_strv *out, hp_err *why);

/* One handler's file (buf, NUL-terminated): its first line "enabled" or
 * "disabled" and its "interpreter PATH" line. HP_TRUE with *enabled and
 * *interp (malloc'd); HP_UNKNOWN when either line is missing. Pure. */
hp_tri hp_os_binfmt_entry_parse(const char *buf, bool *enabled, char **interp, hp_err *why);

#endif
