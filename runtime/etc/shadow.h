/* shadow.h: etc/shadow, read only to answer one question: is a user's
 * password empty? An empty password lets su (and login) in without one:
 * Alpine's Docker images shipped "root:::0:::::" (CVE-2019-5021).
 *
 * The answer is three-valued: HP_TRUE (empty), HP_FALSE (set or locked: '!',
 * '*', a hash), HP_UNKNOWN (no readable shadow file, a malformed one, or no
 * entry for the user). A malformed file is rejected as a whole, with
 * file:line and what is wrong, by the same rules as etc/passwd. */
#ifndef HP_SHADOW_H
#define HP_SHADOW_H

#include <stddef.h>

#include "lib/tri.h"
#include "etc/userdb.h"
#include "lib/xalloc.h"

typedef struct hp_shadow hp_shadow;

/* NULL on error (err says why). The buffer is copied. */
hp_shadow *hp_etc_shadow_parse(const char *buf, size_t len, const char *file, hp_err *err);
void hp_etc_shadow_free(hp_shadow *sh);

/* The password field of name, or NULL when the file has no entry for it. */
const char *hp_etc_shadow_password(const hp_shadow *sh, const char *name);

/* Whether the password of user name is empty. The password field of
 * etc/passwd decides unless it is "x", which points to etc/shadow ("##name",
 * an adjunct file, is unknown); sh may be NULL when etc/shadow could not be
 * read. why explains a HP_UNKNOWN. */
hp_tri hp_etc_password_empty(const hp_userdb *db, const hp_shadow *sh, const char *shadow_file,
                         const char *name, hp_err *why);

#endif
