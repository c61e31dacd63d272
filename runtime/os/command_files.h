/* command_files.h: the command_files probe: the files a command depends on
 * when a process runs it by name on a PATH, as the driver starts the
 * harness (`claude` on the driver's PATH). Whoever can change one of them
 * changes what runs:
 *
 *   - the paths found: every DIR/NAME on the PATH that is a regular file
 *     with an execute bit (a NAME that is an absolute path is taken as it
 *     is). execvp runs the first its caller can execute and goes on past
 *     the others (EACCES), so which one runs depends on the caller (the
 *     mode, an ACL, a directory it cannot search, a noexec mount, an LSM),
 *     which root cannot decide for another user with certainty: only
 *     files no one can execute are passed over, and the list holds what
 *     runs for whoever runs NAME;
 *   - every symlink on the way from it and the file it ends on (each hop's
 *     path as the link names it, made absolute from the link's directory);
 *   - a script's interpreter, from its "#!" line as the kernel reads it
 *     (the first 256 bytes): the interpreter's path, its own symlinks and
 *     file, and its own interpreter in turn (at most 4 levels, as the
 *     kernel allows); for `#!/usr/bin/env CMD` (with env's -S, options
 *     and VAR=value words skipped) CMD looked up on the same PATH, as env
 *     does;
 *   - for a file without "#!" (elf_deps.h): an ELF program's loader
 *     (PT_INTERP) with its symlinks, the directories its DT_RUNPATH (or
 *     DT_RPATH) names with $ORIGIN expanded, and each library it names by
 *     path, read in turn; /bin/sh for a file that is neither ELF nor "#!"
 *     or is an ELF file of another machine (the kernel refuses it and
 *     execvp runs it with /bin/sh); on the live system, every enabled
 *     binfmt_misc handler's interpreter (binfmt_misc.h), resolved as an
 *     interpreter is;
 *   - the package the script or program is part of: the nearest directory
 *     above it that holds a package.json (Node's package root), and every
 *     node_modules directory Node's module lookup goes through from it (its
 *     own, then one per directory above it), which is where an agent that
 *     owns node's global modules would plant code.
 *
 * Everything is resolved inside the root (safe_path.h), nothing executed.
 * The list is in the order found, without duplicates, at most 256 paths.
 * Answers: HP_TRUE with the list; HP_FALSE when NAME is on no directory of
 * the PATH (why says so); HP_UNKNOWN when anything on the way cannot be
 * decided (a relative interpreter, an unreadable script, a loop, a bound,
 * a malformed ELF file, a $LIB or relative library directory).
 * The argument's form (NAME:DIR:DIR..., every DIR absolute) is checked
 * before a backend is asked (vm/probe_arg.h).
 */
#ifndef HP_COMMAND_FILES_H
#define HP_COMMAND_FILES_H

#include "lib/strv.h"
#include "lib/tri.h"
#include "lib/xalloc.h"
#include "os/safe_path.h"

enum { HP_COMMAND_MAX_FILES = 256, HP_COMMAND_MAX_INTERP = 4, HP_COMMAND_LINE = 256 };

/* spec is NAME:DIR:DIR... (or an absolute path, with or without a PATH). */
hp_tri hp_os_command_files(const hp_root *r, const char *spec, hp_strv *out, hp_err *why);

/* The interpreter and its argument of a "#!" line (buf: the file's first
 * bytes): HP_TRUE with *interp and *arg (arg may be empty) malloc'd;
 * HP_FALSE when buf is not a script; HP_UNKNOWN when the line has no
 * newline within HP_COMMAND_LINE bytes (a shorter buf is the whole file,
 * its end the line's) or no interpreter. Pure. */
hp_tri hp_os_shebang_parse(const char *buf, size_t len, char **interp, char **arg, hp_err *why);

/* The command `env ARG` runs (ARG as a "#!" line passes it: one string,
 * split on blanks only under -S): HP_TRUE with *cmd malloc'd, HP_UNKNOWN
 * when no command is named or an option is not understood. Pure. */
hp_tri hp_os_env_command(const char *arg, char **cmd, hp_err *why);

#endif
