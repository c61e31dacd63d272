/* fuzz_shadow.c: etc/shadow and etc/gshadow parsing never reads out of
 * bounds; for an accepted shadow the answer for every user is consistent
 * with its entry, and an accepted gshadow's administrators and members are
 * names separated by single commas, none empty, none with a blank or a
 * control character. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "etc/shadow.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char passwd[] = "root:x:0:0:root:/root:/bin/bash\n"
	                             "agent:x:1000:1000::/home/agent:/bin/bash\n"
	                             "nopw::1001:1001::/:/bin/sh\n";
	static const char group[] = "root:x:0:\n";
	hp_err err;
	hp_userdb *db = hp_etc_userdb_parse(passwd, sizeof passwd - 1, "etc/passwd", group,
	                                sizeof group - 1, "etc/group", &err);
	if (!db)
		abort();
	hp_shadow *sh = hp_etc_shadow_parse((const char *)data, size, "etc/shadow", &err);
	static const char *const names[] = {"root", "agent", "nopw", "nobody"};
	for (size_t i = 0; i < 4; i++) {
		hp_tri t = hp_etc_password_empty(db, sh, "etc/shadow", names[i], &err);
		const char *pw = sh ? hp_etc_shadow_password(sh, names[i]) : NULL;
		if (i == 2 && t != HP_TRUE)
			abort();
		if (i == 3 && t != HP_UNKNOWN)
			abort();
		if (i < 2 && t != (pw ? (pw[0] ? HP_FALSE : HP_TRUE) : HP_UNKNOWN))
			abort();
	}
	hp_etc_shadow_free(sh);

	hp_gshadow *gs = hp_etc_gshadow_parse((const char *)data, size, "etc/gshadow", &err);
	static const char *const groups[] = {"root", "sudo", "hangar", "agent"};
	for (size_t i = 0; gs && i < 4; i++) {
		const char *pw, *lists[2];
		if (!hp_etc_gshadow_entry(gs, groups[i], &pw, &lists[0], &lists[1]))
			continue;
		for (size_t k = 0; k < 2; k++) {
			const char *l = lists[k];
			if (!*l)
				continue;
			if (l[0] == ',' || l[strlen(l) - 1] == ',' || strstr(l, ",,"))
				abort();
			for (const unsigned char *p = (const unsigned char *)l; *p; p++)
				if (*p <= 0x20 || *p == 0x7f)
					abort();
		}
	}
	hp_etc_gshadow_free(gs);
	hp_etc_userdb_free(db);
	return 0;
}
