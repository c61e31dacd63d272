/* elf_deps.h: what the kernel and glibc's dynamic loader run for an ELF
 * file besides the file itself: the loader its PT_INTERP names, and the
 * libraries and library directories its dynamic section names. The file
 * may be hostile: every read is bounded and checked against the file's
 * size, and anything the loader could read differently from this
 * (truncated tables, offsets past the end, overlapping segments, a string
 * with no end, a second PT_DYNAMIC or DT_STRTAB) is unknown.
 *
 * The dynamic section and its strings are found as the loader finds them:
 * by virtual address, through the PT_LOAD segment that maps it (the file
 * bytes that segment maps), not by the section headers, which the loader
 * never reads. The kernel takes the first PT_INTERP; its bytes must end
 * with a NUL (else the kernel refuses the file). Both classes and both
 * byte orders are read; `foreign` says the file is not of this build's
 * class, byte order and machine, so the kernel may refuse it (ENOEXEC).
 *
 * DT_RUNPATH makes the loader ignore DT_RPATH; rpath holds DT_RPATH's
 * strings only when there is no DT_RUNPATH. needed holds the names of
 * DT_NEEDED and of what else the loader loads by name for this object:
 * DT_AUDIT, DT_DEPAUDIT, DT_FILTER, DT_AUXILIARY.
 *
 * Answers: HP_TRUE with out filled (free with hp_os_elf_deps_free);
 * HP_FALSE when the file does not start with the ELF magic; HP_UNKNOWN
 * with why saying what is wrong. */
#ifndef HP_ELF_DEPS_H
#define HP_ELF_DEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/strv.h"
#include "lib/tri.h"
#include "lib/xalloc.h"

enum {
	HP_ELF_MAX_PHDRS = 65536, /* bytes of program headers (the kernel's own cap) */
	HP_ELF_MAX_DYN = 4096,    /* dynamic entries read before DT_NULL */
	HP_ELF_MAX_STR = 4096,    /* bytes of one string, its NUL included */
};

typedef struct {
	/* len bytes at off into buf: 0, or -1 when they cannot all be read */
	int (*read_at)(void *ctx, uint64_t off, void *buf, size_t len);
	void *ctx;
	uint64_t size;
} hp_elf_src;

typedef struct {
	char *interp; /* PT_INTERP's path, or NULL */
	bool foreign;
	hp_strv needed;
	hp_strv rpath;
	hp_strv runpath;
} hp_elf_deps;

hp_tri hp_os_elf_deps(const hp_elf_src *src, hp_elf_deps *out, hp_err *why);
void hp_os_elf_deps_free(hp_elf_deps *d);

/* One DT_RPATH or DT_RUNPATH string as the loader reads it: split on ':',
 * each entry's dynamic string tokens expanded ($ORIGIN and ${ORIGIN} to
 * origin, the directory of the object), trailing slashes removed. HP_TRUE
 * with the directories appended to out; HP_UNKNOWN when an entry is empty
 * or relative after expansion (the loader takes it from the working
 * directory), names $LIB, $PLATFORM (they depend on the loader's build
 * and the CPU) or another '$' token, $ORIGIN without an origin, or is
 * longer than a path. Pure. */
hp_tri hp_os_elf_search_dirs(const char *list, const char *origin, hp_strv *out, hp_err *why);

/* One name with its dynamic string tokens expanded as above (a DT_NEEDED
 * name may have them too): HP_TRUE with *out malloc'd, HP_UNKNOWN as
 * above (a relative result is not refused here: a name without a '/' is
 * searched for, not opened). Pure. */
hp_tri hp_os_elf_expand(const char *s, const char *origin, char **out, hp_err *why);

#endif
