/* fuzz_elf_deps.c: reading an ELF file's loader, libraries and library
 * directories never reads outside the file it is given, and every answer
 * is the ELF magic's absence, a parse with each string NUL-terminated and
 * the loader a path, or unknown with a reason; the library directories
 * expanded from each string are absolute or unknown. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "os/elf_deps.h"

typedef struct {
	const uint8_t *b;
	size_t n;
} mem;

static int mem_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	const mem *m = ctx;
	if (off > m->n || len > m->n - off)
		abort(); /* the parser checks the size before it reads */
	memcpy(buf, m->b + off, len);
	return 0;
}

static void dirs(const hp_strv *l)
{
	for (size_t i = 0; i < l->n; i++) {
		hp_strv out = {0};
		hp_err why;
		why.msg[0] = '\0';
		hp_tri t = hp_os_elf_search_dirs(l->v[i], "/origin", &out, &why);
		if (t == HP_UNKNOWN && !why.msg[0])
			abort();
		for (size_t k = 0; t == HP_TRUE && k < out.n; k++)
			if (out.v[k][0] != '/')
				abort();
		hp_strv_free(&out);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	mem m = {data, size};
	hp_elf_src src = {mem_read, &m, size};
	hp_elf_deps d;
	hp_err why;
	why.msg[0] = '\0';
	hp_tri t = hp_os_elf_deps(&src, &d, &why);
	if (t == HP_UNKNOWN) {
		if (!memchr(why.msg, '\0', sizeof why.msg) || !why.msg[0])
			abort();
		return 0;
	}
	if (t == HP_FALSE)
		return 0;
	if (d.interp && !d.interp[0])
		abort();
	dirs(&d.runpath);
	dirs(&d.rpath);
	hp_os_elf_deps_free(&d);
	return 0;
}
