/* fuzz_nsswitch.c: nsswitch.conf parsing never reads out of bounds, always
 * gives each database a verdict with a reason, and "files only" is never
 * HP_TRUE for a database with another source or an unreadable line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "etc/nsswitch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hp_nsswitch ns;
	hp_etc_nsswitch_parse((const char *)data, size, "etc/nsswitch.conf", &ns);
	for (int d = 0; d < HP_NSS_NDB; d++) {
		if (ns.src[d] > HP_NSS_MALFORMED || !memchr(ns.why[d], '\0', sizeof ns.why[d]) ||
		    !ns.why[d][0])
			abort();
		hp_err why;
		for (int rec = HP_FALSE; rec <= HP_UNKNOWN; rec++) {
			hp_tri t = hp_etc_nsswitch_files_only(&ns, (hp_nss_db)d, (hp_tri)rec, &why);
			if (t == HP_TRUE && ns.src[d] != HP_NSS_FILES &&
			    !(ns.src[d] == HP_NSS_FILES_SYSTEMD && rec == HP_FALSE))
				abort();
		}
	}
	return 0;
}
