/* userdb.h: a sandbox's users and groups, parsed from the bytes of its
 * etc/passwd and etc/group, never through NSS (glibc would load NSS modules
 * named by the image; musl would ask an nscd socket the agent could create).
 *
 * Parsing fails closed: any line the libcs could read differently, any
 * malformed or duplicate entry, any id equal to (uid_t)-1, is an error naming
 * file:line and what is wrong, and the caller answers every user or group
 * question with unknown. A uid-0 account other than root is not an error but a
 * finding, which the caller turns into unknown where it matters.
 *
 * Lookups are hash tables with a secret key (strhash.h): a policy looks up the
 * same few names many times, and a hostile file cannot make them slow. */
#ifndef HP_USERDB_H
#define HP_USERDB_H

#include <stddef.h>
#include <stdint.h>

#include "etc/colonfile.h"
#include "lib/xalloc.h"

typedef struct {
	const char *name;
	const char *passwd; /* "x": the password is in etc/shadow */
	uint32_t uid, gid;
	const char *gecos, *home, *shell;
	unsigned line;
} hp_user;

typedef struct {
	const char *name;
	const char *passwd;
	uint32_t gid;
	const char *const *members;
	size_t nmembers;
	unsigned line;
} hp_group;

typedef struct hp_userdb hp_userdb;

/* Parse both files; the buffers need not be NUL-terminated and are copied.
 * The file names are for messages ("etc/passwd"). NULL on error, with err
 * set to the first problem. */
hp_userdb *hp_etc_userdb_parse(const char *passwd, size_t passwd_len, const char *passwd_file,
                           const char *group, size_t group_len, const char *group_file,
                           hp_err *err);
void hp_etc_userdb_free(hp_userdb *db);

size_t hp_etc_userdb_nusers(const hp_userdb *db);
const hp_user *hp_etc_userdb_user_at(const hp_userdb *db, size_t i);
size_t hp_etc_userdb_ngroups(const hp_userdb *db);
const hp_group *hp_etc_userdb_group_at(const hp_userdb *db, size_t i);

/* NULL when there is no such entry. By id: the first in file order, as
 * getpwuid and getgrgid answer with the files backend. */
const hp_user *hp_etc_userdb_user(const hp_userdb *db, const char *name);
const hp_user *hp_etc_userdb_user_by_uid(const hp_userdb *db, uint32_t uid);
const hp_group *hp_etc_userdb_group(const hp_userdb *db, const char *name);
const hp_group *hp_etc_userdb_group_by_gid(const hp_userdb *db, uint32_t gid);

/* A user's groups, as initgroups would build them from the files: gids has
 * the primary gid first, then the gid of every group listing the user as a
 * member, in file order, without duplicates. names has the name of every
 * group whose gid is in gids (several groups may share a gid), in the order
 * of gids. The identity code gives gids to setgroups; policies test names. */
typedef struct {
	uint32_t *gids;
	size_t ngids;
	const char **names; /* point into the database */
	size_t nnames;
} hp_user_groups;

void hp_etc_userdb_user_groups(const hp_userdb *db, const hp_user *u, hp_user_groups *out);
void hp_etc_user_groups_free(hp_user_groups *g);

/* Findings: accounts with uid 0 other than root ("etc/passwd:3: account
 * \"toor\" has uid 0 besides root"). The database is still usable. */
size_t hp_etc_userdb_nfindings(const hp_userdb *db);
const char *hp_etc_userdb_finding(const hp_userdb *db, size_t i);

#endif
