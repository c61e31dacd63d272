/* fuzz_dirents.c: records as getdents64 returns them, whatever their bytes:
 * every name handed out lies inside the buffer and ends inside its record,
 * and a listing ends (never loops) within one call per record that fits. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "os/dirents.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > HP_DIRENTS_BUF)
		size = HP_DIRENTS_BUF;
	hp_dirents d = {.fd = -1};
	/* the buffer as the kernel would have filled it: the bytes given, the
	 * rest of it never read */
	d.buf = hp_xmalloc(size ? size : 1);
	memcpy(d.buf, data, size);
	d.len = size;
	d.pos = 0;
	const char *name;
	unsigned char type;
	size_t calls = 0;
	/* one buffer only: past it, the next call would ask the kernel */
	while (d.pos < d.len && (name = hp_os_dirents_next(&d, &type)) != NULL) {
		if (name < d.buf || name >= d.buf + size || name + strlen(name) >= d.buf + size)
			abort();
		if (++calls > size)
			abort(); /* a record of length 0 would loop */
	}
	free(d.buf);
	return 0;
}
