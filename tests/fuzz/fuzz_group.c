/* fuzz_group.c: etc/group parsing never reads out of bounds, and every
 * database it accepts is consistent: each group is found by its name, the
 * group found by a gid has that gid, and each member's group list holds the
 * gid of every group that lists it, once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "etc/userdb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char passwd[] = "root:x:0:0:root:/root:/bin/bash\n"
	                             "agent:x:1000:1000::/home/agent:/bin/bash\n"
	                             "bob:x:1001:27::/home/bob:/bin/sh\n";
	hp_err err;
	hp_userdb *db = hp_etc_userdb_parse(passwd, sizeof passwd - 1, "etc/passwd", (const char *)data,
	                                size, "etc/group", &err);
	if (!db)
		return 0;
	for (size_t i = 0; i < hp_etc_userdb_ngroups(db); i++) {
		const hp_group *g = hp_etc_userdb_group_at(db, i);
		if (hp_etc_userdb_group(db, g->name) != g || g->gid == UINT32_MAX)
			abort();
		const hp_group *first = hp_etc_userdb_group_by_gid(db, g->gid);
		if (!first || first->gid != g->gid || first > g)
			abort();
		for (size_t m = 0; m < g->nmembers; m++)
			if (!g->members[m][0] || strchr(g->members[m], ','))
				abort();
	}
	for (size_t i = 0; i < hp_etc_userdb_nusers(db); i++) {
		const hp_user *u = hp_etc_userdb_user_at(db, i);
		hp_user_groups ug;
		hp_etc_userdb_user_groups(db, u, &ug);
		for (size_t a = 0; a < ug.ngids; a++)
			for (size_t b = a + 1; b < ug.ngids; b++)
				if (ug.gids[a] == ug.gids[b])
					abort();
		for (size_t k = 0; k < hp_etc_userdb_ngroups(db); k++) {
			const hp_group *g = hp_etc_userdb_group_at(db, k);
			for (size_t m = 0; m < g->nmembers; m++) {
				if (strcmp(g->members[m], u->name) != 0)
					continue;
				size_t a = 0;
				while (a < ug.ngids && ug.gids[a] != g->gid)
					a++;
				if (a == ug.ngids)
					abort();
			}
		}
		hp_etc_user_groups_free(&ug);
	}
	hp_etc_userdb_free(db);
	return 0;
}
