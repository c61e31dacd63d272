/* fuzz_mountinfo.c: the mountinfo parser on any bytes: no overread, no leak,
 * and every accepted table has absolute mount points and NUL-free names. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "os/mounts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	hp_mounts m;
	hp_err e;
	if (hp_os_mounts_parse(s, size, &m, &e) == HP_TRUE) {
		for (size_t i = 0; i < m.n; i++)
			if (m.v[i].mount_point[0] != '/' || !m.v[i].fstype)
				abort();
		hp_os_mounts_free(&m);
	}
	free(s);
	return 0;
}
