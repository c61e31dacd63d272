/* fuzz_passwd.c: etc/passwd parsing never reads out of bounds, and every
 * database it accepts is consistent: each user is found by its name, the
 * user found by a uid has that uid and comes first in the file, no id is
 * (uid_t)-1, and a user's group list starts with the primary gid. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "etc/userdb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char group[] = "root:x:0:\nsudo:x:27:agent,bob\nagent:x:1000:\nadm:x:27:\n";
	hp_err err;
	hp_userdb *db = hp_etc_userdb_parse((const char *)data, size, "etc/passwd", group,
	                                sizeof group - 1, "etc/group", &err);
	if (!db) {
		if (!memchr(err.msg, ':', sizeof err.msg))
			abort();
		return 0;
	}
	for (size_t i = 0; i < hp_etc_userdb_nusers(db); i++) {
		const hp_user *u = hp_etc_userdb_user_at(db, i);
		if (hp_etc_userdb_user(db, u->name) != u || u->uid == UINT32_MAX ||
		    u->gid == UINT32_MAX)
			abort();
		const hp_user *first = hp_etc_userdb_user_by_uid(db, u->uid);
		if (!first || first->uid != u->uid || first > u)
			abort();
		hp_user_groups g;
		hp_etc_userdb_user_groups(db, u, &g);
		if (g.ngids < 1 || g.gids[0] != u->gid)
			abort();
		hp_etc_user_groups_free(&g);
	}
	for (size_t i = 0; i < hp_etc_userdb_nfindings(db); i++)
		if (!hp_etc_userdb_finding(db, i))
			abort();
	hp_etc_userdb_free(db);
	return 0;
}
