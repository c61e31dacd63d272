/* elf_fixture.c: small hand-built ELF files for the tests (elf_fixture.h). */
#include "elf_fixture.h"

#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"

static void put(unsigned char *b, size_t off, int n, uint64_t v, bool be)
{
	for (int i = 0; i < n; i++)
		b[off + (be ? (size_t)(n - 1 - i) : (size_t)i)] = (unsigned char)(v >> (8 * i));
}

static unsigned native_machine(void)
{
#if defined(__x86_64__)
	return EM_X86_64;
#elif defined(__aarch64__)
	return EM_AARCH64;
#else
	return EM_NONE;
#endif
}

size_t fx_elf_build(unsigned char *b, const fx_elf *e)
{
	memset(b, 0, FX_ELF_SIZE);
	bool be = e->be, w = !e->is32;
	int wn = w ? 8 : 4;
	memcpy(b, ELFMAG, SELFMAG);
	b[EI_CLASS] = w ? ELFCLASS64 : ELFCLASS32;
	b[EI_DATA] = be ? ELFDATA2MSB : ELFDATA2LSB;
	b[EI_VERSION] = EV_CURRENT;
	put(b, 16, 2, ET_DYN, be);
	put(b, 18, 2, e->machine ? e->machine : native_machine(), be);
	put(b, 20, 4, EV_CURRENT, be);
	size_t phent = w ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	put(b, w ? 32 : 28, wn, FX_ELF_PHDRS, be);
	put(b, w ? 52 : 40, 2, w ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr), be);
	put(b, w ? 54 : 42, 2, phent, be);
	/* a strtab: "\0" then each string */
	size_t st = 1;
	uint64_t runpath = 0, rpath = 0, needed[4] = {0};
	int nn = 0;
#define STR(s, at)                                                   \
	do {                                                         \
		at = st;                                             \
		memcpy(b + FX_ELF_STRTAB + st, s, strlen(s) + 1);    \
		st += strlen(s) + 1;                                 \
	} while (0)
	if (e->runpath)
		STR(e->runpath, runpath);
	if (e->rpath)
		STR(e->rpath, rpath);
	for (; nn < 4 && e->needed[nn]; nn++)
		STR(e->needed[nn], needed[nn]);
#undef STR
	bool dyn = e->dynamic || e->runpath || e->rpath || nn;
	size_t ph = FX_ELF_PHDRS;
	int phnum = 0;
	/* p_type, p_offset, p_vaddr, p_filesz at their places in each class */
#define PHDR(type, off, vaddr, sz)                                            \
	do {                                                                  \
		put(b, ph, 4, type, be);                                      \
		put(b, ph + (w ? 8 : 4), wn, off, be);                        \
		put(b, ph + (w ? 16 : 8), wn, vaddr, be);                     \
		put(b, ph + (w ? 32 : 16), wn, sz, be);                       \
		put(b, ph + (w ? 40 : 20), wn, sz, be);                       \
		ph += phent;                                                  \
		phnum++;                                                      \
	} while (0)
	PHDR(PT_LOAD, 0, FX_ELF_VADDR, FX_ELF_SIZE);
	if (e->interp) {
		memcpy(b + FX_ELF_INTERP, e->interp, strlen(e->interp) + 1);
		PHDR(PT_INTERP, FX_ELF_INTERP, FX_ELF_VADDR + FX_ELF_INTERP,
		     strlen(e->interp) + 1);
	}
	if (dyn) {
		size_t d = FX_ELF_DYNAMIC, ent = (size_t)wn * 2;
#define DYN(tag, val)                                   \
	do {                                            \
		put(b, d, wn, tag, be);                 \
		put(b, d + (size_t)wn, wn, val, be);    \
		d += ent;                               \
	} while (0)
		for (int i = 0; i < nn; i++)
			DYN(DT_NEEDED, needed[i]);
		if (e->runpath)
			DYN(DT_RUNPATH, runpath);
		if (e->rpath)
			DYN(DT_RPATH, rpath);
		DYN(DT_STRTAB, FX_ELF_VADDR + FX_ELF_STRTAB);
		DYN(DT_STRSZ, st);
		DYN(DT_NULL, 0);
#undef DYN
		PHDR(PT_DYNAMIC, FX_ELF_DYNAMIC, FX_ELF_VADDR + FX_ELF_DYNAMIC,
		     d - FX_ELF_DYNAMIC);
	}
#undef PHDR
	put(b, w ? 56 : 44, 2, (uint64_t)phnum, be);
	return FX_ELF_SIZE;
}

void fx_elf_file(const char *root, const char *rel, const fx_elf *e, unsigned mode, uid_t uid,
                 gid_t gid)
{
	unsigned char b[FX_ELF_SIZE];
	size_t n = fx_elf_build(b, e);
	char *p = fx_path(root, rel);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, b, n) != (ssize_t)n || fchown(fd, uid, gid) != 0 ||
	    fchmod(fd, mode) != 0) {
		perror(p);
		abort();
	}
	close(fd);
	free(p);
}
