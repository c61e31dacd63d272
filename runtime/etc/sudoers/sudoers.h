/* sudoers.h: a static, conservative reading of sudo's policy: does sudoers
 * grant a user anything at all? (docs/runtime.md, F.44–F.46.)
 *
 * hp_sudoers_load reads a sudoers file and everything it includes (@include,
 * @includedir, #include, #includedir: relative to the including file;
 * includedir skips names containing '.' or ending in '~' and reads the rest
 * in strcmp order; nesting stops at 128; a file that includes itself is a
 * loop). Files come from the caller's callbacks, which resolve each path
 * inside the image root safely; the loader never touches the file system.
 * hp_sudoers_load_system first reads etc/sudo.conf, whose sudoers_policy
 * plugin line can move the sudoers file.
 *
 * Loading never fails: whatever could not be read or understood (a syntax
 * error, a token sudo has and we do not evaluate, a missing include, a bound
 * hit) is a problem with file:line:col, and a problem makes the answer
 * unknown unless some rule grants for certain. The caller counts unknown as
 * a grant.
 *
 * hp_sudoers_grants answers, three-valued:
 *   HP_TRUE     a user specification whose user list certainly matches the
 *               user grants a command (why: file:line and the rule; nopasswd
 *               when a granting rule needs no password);
 *   HP_FALSE    everything was read and understood and nothing grants;
 *   HP_UNKNOWN  otherwise (why: the first reason).
 * What is a grant, deliberately over-approximated: any rule whose user list
 * can match and whose host list can match (host names are not evaluated:
 * the sandbox's host name is chosen at run time) and whose command list has
 * a command that is not negated (after aliases): "ALL, !/bin/sh" is ALL,
 * "(ALL, !root) ALL" is a grant (CVE-2019-14287), sudoedit and list are
 * grants, runas lists and options (NOTAFTER, CHROOT, ...) never take one
 * away, and a later rule that denies does not cancel it. */
#ifndef HP_SUDOERS_H
#define HP_SUDOERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "etc/nsswitch.h"
#include "lib/tri.h"
#include "etc/userdb.h"
#include "lib/xalloc.h"

typedef enum {
	HP_SUDO_IO_OK,
	HP_SUDO_IO_MISSING,     /* does not exist */
	HP_SUDO_IO_NOT_REGULAR, /* exists but is not a regular file (read) or directory (list) */
	HP_SUDO_IO_ERROR,       /* could not be read safely: err says why */
} hp_sudo_io;

/* File access for the loader. Paths are absolute, in the image's own
 * namespace ("/etc/sudoers.d/90-agent"), as sudo would open them. */
typedef struct {
	void *ctx;
	/* On OK, *buf holds *len bytes in an hp_xmalloc'd buffer the loader frees. */
	hp_sudo_io (*read_file)(void *ctx, const char *path, char **buf, size_t *len, hp_err *err);
	/* On OK, *names is an hp_xmalloc'd NULL-terminated array of hp_xmalloc'd
	 * entry names (no "." or ".."), all freed by the loader. */
	hp_sudo_io (*list_dir)(void *ctx, const char *path, char ***names, hp_err *err);
} hp_sudo_files;

enum {
	HP_SUDOERS_MAX_DEPTH = 128,        /* nested includes, as sudo */
	HP_SUDOERS_MAX_FILES = 1024,       /* files read, a file included twice counts twice */
	HP_SUDOERS_MAX_BYTES = 16 << 20,   /* bytes read in all */
	HP_SUDOERS_MAX_DIR_ENTRIES = 4096, /* names in one include directory */
	HP_SUDOERS_MAX_ALIAS_DEPTH = 128,  /* aliases nested in aliases */
	HP_SUDOERS_MAX_PROBLEMS = 32,      /* problem messages kept (all are counted) */
};

/* Where a sudo build keeps sudo.conf and, unless sudo.conf says otherwise,
 * sudoers: /etc for every distribution's sudo, /usr/local/etc for one built
 * from source with the default prefix. hp_sudoers_load_system reads both
 * (whichever exist), since the sudo on the PATH may be either. */
typedef struct {
	const char *sudo_conf, *sudoers;
} hp_sudo_place;
extern const hp_sudo_place hp_sudoers_sudo_places[];
extern const size_t hp_sudoers_sudo_nplaces;

typedef struct hp_sudoers hp_sudoers;

/* Read path and its includes. Never NULL. */
hp_sudoers *hp_sudoers_load(const char *path, const hp_sudo_files *files);
/* For each of hp_sudoers_sudo_places: read its sudo.conf (missing: the defaults),
 * then the sudoers file that names, with its includes; a missing sudoers
 * file is no problem (sudo there grants nothing). ns (may be NULL) must
 * name only files for sudoers, else that is a problem too. */
hp_sudoers *hp_sudoers_load_system(const hp_sudo_files *files, const hp_nsswitch *ns);
void hp_sudoers_free(hp_sudoers *s);

/* Problems found while loading, "file:line:col: what" (the first
 * HP_SUDOERS_MAX_PROBLEMS are kept; nproblems counts them all). */
size_t hp_sudoers_nproblems(const hp_sudoers *s);
const char *hp_sudoers_problem(const hp_sudoers *s, size_t i);
/* Files read (every include counted). */
size_t hp_sudoers_nfiles(const hp_sudoers *s);

/* Who asks, as sudo sees them: name is the first passwd entry with the
 * uid (sudo looks the user up by the real uid); gids is the group vector
 * the process has (primary included or not), maybe_gids groups it may or
 * may not have (sudo can also ask the group database by name). */
typedef struct {
	const char *name;
	uint32_t uid, gid;
	const uint32_t *gids;
	size_t ngids;
	const uint32_t *maybe_gids;
	size_t nmaybe;
} hp_sudo_subject;

typedef struct {
	bool nopasswd; /* a granting rule needs no password (NOPASSWD, or Defaults !authenticate) */
	char why[640];
} hp_sudo_verdict;

/* db resolves %group names to gids. */
hp_tri hp_sudoers_grants(const hp_sudoers *s, const hp_userdb *db, const hp_sudo_subject *who,
                         hp_sudo_verdict *out);

/* The same for a user named in db, with the groups db gives it (primary and
 * memberships); when an earlier passwd entry shares its uid, sudo sees that
 * entry's name, and groups of either are uncertain. Unknown when the user
 * does not exist. */
hp_tri hp_sudoers_grants_user(const hp_sudoers *s, const hp_userdb *db, const char *user,
                              hp_sudo_verdict *out);

#endif
