/* fuzz_ldconf.c: reading ld.so.conf and ld.so.cache never reads out of
 * bounds, and every directory either names is absolute, or the answer is
 * unknown with a reason. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "etc/ldconf.h"

static void check(hp_tri t, const hp_strv *dirs, const hp_err *why)
{
	if (t == HP_UNKNOWN) {
		if (!memchr(why->msg, '\0', sizeof why->msg) || !why->msg[0])
			abort();
		return;
	}
	if (t != HP_TRUE)
		abort();
	for (size_t i = 0; i < dirs->n; i++)
		if (dirs->v[i][0] != '/')
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hp_strv dirs = {0}, inc = {0};
	hp_err why;
	why.msg[0] = '\0';
	hp_tri t = hp_etc_ldconf_parse((const char *)data, size, "/etc/ld.so.conf", &dirs, &inc,
	                               &why);
	check(t, &dirs, &why);
	for (size_t i = 0; t == HP_TRUE && i < inc.n; i++)
		if (inc.v[i][0] != '/')
			abort();
	hp_strv_free(&dirs);
	hp_strv_free(&inc);
	why.msg[0] = '\0';
	t = hp_etc_ldcache_dirs((const char *)data, size, "/etc/ld.so.cache", &dirs, &why);
	check(t, &dirs, &why);
	hp_strv_free(&dirs);
	return 0;
}
