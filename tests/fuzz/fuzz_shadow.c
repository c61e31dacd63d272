/* fuzz_shadow.c: etc/shadow parsing never reads out of bounds, and for an
 * accepted file the answer for every user is consistent with its entry. */
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
	hp_etc_userdb_free(db);
	return 0;
}
