/* elf_fixture.h: small hand-built ELF files for the tests: one PT_LOAD
 * mapping the whole file, an optional PT_INTERP and an optional PT_DYNAMIC
 * with DT_NEEDED, DT_RPATH and DT_RUNPATH entries, in either class and
 * byte order. Offsets of the parts are fixed (fx_elf_off) so a test can
 * break one on purpose. */
#ifndef HP_TEST_ELF_FIXTURE_H
#define HP_TEST_ELF_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum {
	FX_ELF_SIZE = 0x600,
	FX_ELF_PHDRS = 0x40, /* PT_LOAD, then PT_INTERP and PT_DYNAMIC when present */
	FX_ELF_INTERP = 0x200,
	FX_ELF_STRTAB = 0x300,
	FX_ELF_DYNAMIC = 0x400,
	FX_ELF_VADDR = 0x10000, /* where the PT_LOAD maps offset 0 */
};

typedef struct {
	bool is32, be;
	unsigned machine; /* 0: this build's */
	const char *interp;   /* NULL: none */
	const char *runpath;  /* NULL: none */
	const char *rpath;    /* NULL: none */
	const char *needed[4]; /* NULL-ended */
	bool dynamic;          /* a PT_DYNAMIC even with no strings */
} fx_elf;

/* The file in buf (FX_ELF_SIZE bytes); returns its size. */
size_t fx_elf_build(unsigned char *buf, const fx_elf *e);
/* Write it under root (relative path), chown and chmod; abort on failure. */
void fx_elf_file(const char *root, const char *rel, const fx_elf *e, unsigned mode, uid_t uid,
                 gid_t gid);

#endif
