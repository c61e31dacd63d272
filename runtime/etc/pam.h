/* pam.h: whether a PAM service's auth stack could let a caller in as a
 * target user without the target's password (su's question: could the
 * agent become root, or hangar, with no secret?).
 *
 * The configuration is read as Debian's and Ubuntu's libpam (1.5) reads
 * it: etc/pam.d/SERVICE, else usr/lib/pam.d/SERVICE, else the "other"
 * service (also when the service's file has no auth line); etc/pam.conf
 * only when neither directory exists. Lines are assembled the way
 * _pam_assemble_line does (a '#' anywhere starts a comment, a trailing
 * backslash joins the next line that is not blank or a comment); types and
 * the four control words match without case, `[value=action ...]` with
 * case; `@include FILE`, `auth include FILE` and `auth substack FILE` read
 * etc/pam.d/FILE (an absolute FILE as itself). Only auth lines are kept.
 *
 * The stack is then run the way _pam_dispatch_aux runs it (Debian's patch:
 * a jump changes nothing but the position), over every return each module
 * could give for this caller and target without the password: pam_unix
 * fails unless it was given nullok (or nullresetok) and the target's
 * password is empty; pam_permit succeeds; pam_rootok fails for a caller
 * that is not root; pam_wheel answers from the caller's groups (Debian's
 * always takes the caller's uid); modules that only restrict or only set
 * things up give their own codes (docs/etc-files.md lists them). Every
 * module may also be missing from the image (PAM_MODULE_UNKNOWN). A module
 * not in the list may return anything, and so may pam_succeed_if (its
 * conditions are not evaluated): a success only they allow is unknown.
 *
 * Hostile input: files are capped (HP_PAM_MAX_FILE bytes, HP_PAM_MAX_FILES
 * files, HP_PAM_MAX_DEPTH includes deep, HP_PAM_MAX_LINES auth lines),
 * lines as libpam caps them (1023 bytes, longer is unknown: libpam would
 * cut it in two), the run is bounded (HP_PAM_MAX_STATES). Anything not
 * understood (a NUL byte, a carriage return, an unknown type or control, a
 * missing include, an include outside etc/pam.d, a bound reached) is
 * unknown with the file and line. */
#ifndef HP_PAM_H
#define HP_PAM_H

#include <stddef.h>
#include <stdint.h>

#include "etc/shadow.h"
#include "etc/userdb.h"
#include "lib/tri.h"
#include "lib/xalloc.h"

#define HP_PAM_MAX_FILE 65536
#define HP_PAM_MAX_FILES 64
#define HP_PAM_MAX_DEPTH 16
#define HP_PAM_MAX_LINES 1024
#define HP_PAM_MAX_STATES 200000

/* Reads a file of the root, by a path relative to it ("etc/pam.d/su"):
 * HP_TRUE with *buf (malloc'd) and *len, HP_FALSE when it does not exist,
 * HP_UNKNOWN with err (unreadable, not a regular file, over max bytes). */
typedef hp_tri (*hp_pam_read_fn)(void *ctx, const char *path, size_t max, char **buf,
                                 size_t *len, hp_err *err);
/* Whether a path of the root is a directory: HP_TRUE, HP_FALSE (missing or
 * not a directory), HP_UNKNOWN with err. */
typedef hp_tri (*hp_pam_isdir_fn)(void *ctx, const char *path, hp_err *err);

typedef struct {
	void *ctx;
	hp_pam_read_fn read;
	hp_pam_isdir_fn is_dir;
} hp_pam_files;

/* Who asks, and for whom. */
typedef struct {
	const hp_userdb *db;
	const char *target;     /* the user su is asked for */
	hp_pw_state target_pw;  /* its password's state */
	const char *target_why; /* why target_pw is HP_PW_UNKNOWN */
	uint32_t caller_uid;    /* the caller's real uid (never 0 here) */
} hp_pam_who;

/* HP_TRUE: the auth stack of service can succeed for who without the
 * target's password (why names the file, line and module); HP_FALSE: no
 * way through it ends in success; HP_UNKNOWN with why. */
hp_tri hp_etc_pam_passwordless(const hp_pam_files *files, const char *service,
                               const hp_pam_who *who, hp_err *why);

#endif
