/* shadow.h: etc/shadow and etc/gshadow, read only to say what state a
 * password is in: empty, locked, or a hash that some password matches.
 *
 * An empty password lets su (and login) in without one: Alpine's Docker
 * images shipped "root:::0:::::" (CVE-2019-5021). A hash lets in whoever
 * knows the password, and the image's author set it. Only a locked one
 * lets in nobody: pam_unix (verify_pwd_hash) refuses a stored password
 * that starts with '!' or '*' before it compares anything ("!", "*",
 * "!!", usermod -L's "!$6$..."), and a program that compares crypt(3)'s
 * result with it (shadow's newgrp) never matches either: no method takes
 * such a setting, and crypt's failure token ("*0", or "*1" for a setting
 * starting "*0") is never the setting itself.
 *
 * For groups (newgrp, sg): a group password lets a non-member in with it;
 * an empty one lets in nobody who is not a member (shadow's newgrp refuses
 * an empty group password), so empty is as good as locked there. gshadow's
 * entry decides when there is one, else etc/group's field.
 *
 * Each answer is HP_PW_EMPTY, HP_PW_LOCKED, HP_PW_HASH or HP_PW_UNKNOWN (no
 * readable shadow file, a malformed one, no entry where one is needed),
 * with the reason. A malformed file is rejected as a whole, with file:line
 * and what is wrong, by the same rules as etc/passwd. */
#ifndef HP_SHADOW_H
#define HP_SHADOW_H

#include <stdbool.h>
#include <stddef.h>

#include "etc/pwstate.h"
#include "lib/tri.h"
#include "etc/userdb.h"
#include "lib/xalloc.h"

typedef struct hp_shadow hp_shadow;

/* NULL on error (err says why). The buffer is copied. */
hp_shadow *hp_etc_shadow_parse(const char *buf, size_t len, const char *file, hp_err *err);
void hp_etc_shadow_free(hp_shadow *sh);

/* The password field of name, or NULL when the file has no entry for it. */
const char *hp_etc_shadow_password(const hp_shadow *sh, const char *name);

/* What a stored password field is, as pam_unix and crypt(3) read it: "" is
 * empty, a field starting with '!' or '*' is locked, anything else is a
 * hash (or text that crypt may match: never locked). */
hp_pw_state hp_etc_password_field(const char *field);

/* The state of user name's password. The password field of etc/passwd
 * decides unless it is "x", which points to etc/shadow ("##name", an
 * adjunct file, is unknown); sh may be NULL when etc/shadow could not be
 * read. why explains HP_PW_UNKNOWN. */
hp_pw_state hp_etc_password_state(const hp_userdb *db, const hp_shadow *sh,
                                  const char *shadow_file, const char *name, hp_err *why);

/* Whether the password of user name is empty: hp_etc_password_state's
 * HP_PW_EMPTY (HP_PW_UNKNOWN is HP_UNKNOWN, with why). */
hp_tri hp_etc_password_empty(const hp_userdb *db, const hp_shadow *sh, const char *shadow_file,
                         const char *name, hp_err *why);

/* etc/gshadow: name:password:administrators:members.
 *
 * When a group has an entry here, shadow's newgrp takes its members from
 * it, not from etc/group (check_perms: grp->gr_mem = sgrp->sg_mem), and
 * lets each of them in without a password; gpasswd lets each
 * administrator add members. Both lists are names separated by commas,
 * as in etc/group: an empty name, or one with a blank or a control
 * character, is refused (glibc skips blanks before a name that shadow's
 * own reader keeps, so the two would disagree on who is listed), with
 * file:line. */
typedef struct hp_gshadow hp_gshadow;

/* NULL on error (err says why). The buffer is copied. */
hp_gshadow *hp_etc_gshadow_parse(const char *buf, size_t len, const char *file, hp_err *err);
void hp_etc_gshadow_free(hp_gshadow *gs);

/* The entry of group name: its password field, its administrators and its
 * members (each list comma-separated, as in the file, checked as above);
 * false when there is none. */
bool hp_etc_gshadow_entry(const hp_gshadow *gs, const char *name, const char **passwd,
                          const char **admins, const char **members);

/* The state of group name's password, as newgrp takes it: gshadow's entry
 * when it has one, else etc/group's field ("x" there, with no gshadow
 * entry, is locked: crypt(3) makes no one-character string). gs NULL with
 * gshadow_missing true: there is no etc/gshadow, etc/group's field decides;
 * gs NULL otherwise: it could not be read (unknown). */
hp_pw_state hp_etc_group_password_state(const hp_userdb *db, const hp_gshadow *gs,
                                        bool gshadow_missing, const char *gshadow_file,
                                        const char *name, hp_err *why);

#endif
