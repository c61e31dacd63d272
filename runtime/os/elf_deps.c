/* elf_deps.c: an ELF file's loader, libraries and library directories, read
 * as the kernel and glibc's ld.so read them (elf_deps.h). */
#include "os/elf_deps.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#define NATIVE_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define NATIVE_MACHINE EM_AARCH64
#elif defined(__i386__)
#define NATIVE_MACHINE EM_386
#elif defined(__arm__)
#define NATIVE_MACHINE EM_ARM
#elif defined(__riscv)
#define NATIVE_MACHINE EM_RISCV
#elif defined(__powerpc64__)
#define NATIVE_MACHINE EM_PPC64
#elif defined(__s390x__)
#define NATIVE_MACHINE EM_S390
#else
#define NATIVE_MACHINE (-1) /* every file foreign */
#endif

typedef struct {
	uint64_t vaddr, filesz, off;
} seg;

typedef struct {
	const hp_elf_src *src;
	bool is64, be;
	seg *load;
	size_t nload;
	hp_err *why;
} parser;

static uint64_t get(const unsigned char *p, int n, bool be)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
	return v;
}

/* A word of the file's class: 8 bytes in ELF64, 4 in ELF32. */
static uint64_t word(const parser *p, const unsigned char *b)
{
	return get(b, p->is64 ? 8 : 4, p->be);
}

static int read_at(const parser *p, uint64_t off, void *buf, size_t len)
{
	if (off > p->src->size || len > p->src->size - off)
		return -1;
	return p->src->read_at(p->src->ctx, off, buf, len);
}

/* The file offset of vaddr and how many bytes from there the segment
 * mapping it holds from the file. */
static hp_tri map(parser *p, uint64_t vaddr, uint64_t *off, uint64_t *avail)
{
	const seg *hit = NULL;
	for (size_t i = 0; i < p->nload; i++) {
		const seg *s = &p->load[i];
		if (vaddr < s->vaddr || vaddr - s->vaddr >= s->filesz)
			continue;
		if (hit) {
			hp_err_set(p->why, "address 0x%llx is in two PT_LOAD segments",
			           (unsigned long long)vaddr);
			return HP_UNKNOWN;
		}
		hit = s;
	}
	if (!hit) {
		hp_err_set(p->why, "address 0x%llx is in no PT_LOAD segment's file bytes",
		           (unsigned long long)vaddr);
		return HP_UNKNOWN;
	}
	uint64_t d = vaddr - hit->vaddr;
	if (hit->off > UINT64_MAX - d) {
		hp_err_set(p->why, "a PT_LOAD segment's offset overflows");
		return HP_UNKNOWN;
	}
	*off = hit->off + d;
	*avail = hit->filesz - d;
	return HP_TRUE;
}

/* The NUL-terminated string at strtab + at, within strsz. */
static hp_tri string_at(parser *p, uint64_t strtab, uint64_t strsz, uint64_t at, char **out)
{
	if (at >= strsz || strtab > UINT64_MAX - at) {
		hp_err_set(p->why, "a dynamic string at %llu is outside DT_STRSZ (%llu)",
		           (unsigned long long)at, (unsigned long long)strsz);
		return HP_UNKNOWN;
	}
	uint64_t off, avail;
	if (map(p, strtab + at, &off, &avail) != HP_TRUE)
		return HP_UNKNOWN;
	if (avail > strsz - at)
		avail = strsz - at;
	if (off < p->src->size && avail > p->src->size - off)
		avail = p->src->size - off;
	size_t n = avail > HP_ELF_MAX_STR ? HP_ELF_MAX_STR : (size_t)avail;
	char buf[HP_ELF_MAX_STR];
	if (off >= p->src->size || read_at(p, off, buf, n) != 0) {
		hp_err_set(p->why, "a dynamic string at offset %llu is past the end of the file",
		           (unsigned long long)off);
		return HP_UNKNOWN;
	}
	if (!memchr(buf, '\0', n)) {
		hp_err_set(p->why, "a dynamic string at offset %llu has no end within %zu bytes",
		           (unsigned long long)off, n);
		return HP_UNKNOWN;
	}
	*out = hp_xstrdup(buf);
	return HP_TRUE;
}

static hp_tri read_interp(parser *p, const unsigned char *ph, hp_elf_deps *out)
{
	uint64_t off = word(p, ph + (p->is64 ? 8 : 4));
	uint64_t filesz = word(p, ph + (p->is64 ? 32 : 16));
	/* the kernel's own bounds, past which it refuses the file */
	if (filesz < 2 || filesz > HP_ELF_MAX_STR) {
		hp_err_set(p->why, "PT_INTERP of %llu bytes", (unsigned long long)filesz);
		return HP_UNKNOWN;
	}
	char buf[HP_ELF_MAX_STR];
	if (read_at(p, off, buf, (size_t)filesz) != 0) {
		hp_err_set(p->why, "PT_INTERP past the end of the file");
		return HP_UNKNOWN;
	}
	if (buf[filesz - 1] != '\0' || buf[0] == '\0') {
		hp_err_set(p->why, "PT_INTERP is not a NUL-terminated path");
		return HP_UNKNOWN;
	}
	out->interp = hp_xstrdup(buf);
	return HP_TRUE;
}

typedef struct {
	uint64_t tag, at;
} strref;

static hp_tri read_dynamic(parser *p, uint64_t vaddr, hp_elf_deps *out)
{
	uint64_t off, avail;
	if (map(p, vaddr, &off, &avail) != HP_TRUE)
		return HP_UNKNOWN;
	size_t ent = p->is64 ? 16 : 8;
	uint64_t n = avail / ent;
	if (n > HP_ELF_MAX_DYN)
		n = HP_ELF_MAX_DYN;
	if (off >= p->src->size)
		n = 0;
	else if (n > (p->src->size - off) / ent)
		n = (p->src->size - off) / ent;
	unsigned char *d = hp_xmalloc(n ? (size_t)n * ent : 1);
	if (n && read_at(p, off, d, (size_t)n * ent) != 0) {
		free(d);
		hp_err_set(p->why, "the dynamic section cannot be read");
		return HP_UNKNOWN;
	}
	strref *refs = hp_xmalloc(n ? (size_t)n * sizeof *refs : 1);
	size_t nrefs = 0;
	uint64_t strtab = 0, strsz = 0;
	int has_strtab = 0, has_strsz = 0, has_runpath = 0, end = 0;
	hp_tri t = HP_TRUE;
	for (uint64_t i = 0; i < n && t == HP_TRUE; i++) {
		const unsigned char *e = d + i * ent;
		uint64_t tag = word(p, e), val = word(p, e + ent / 2);
		switch (tag) {
		case DT_NULL:
			end = 1;
			break;
		case DT_STRTAB:
		case DT_STRSZ:
			if (tag == DT_STRTAB ? has_strtab++ : has_strsz++) {
				hp_err_set(p->why, "two %s entries",
				           tag == DT_STRTAB ? "DT_STRTAB" : "DT_STRSZ");
				t = HP_UNKNOWN;
			}
			*(tag == DT_STRTAB ? &strtab : &strsz) = val;
			break;
		case DT_RUNPATH:
			has_runpath = 1;
			/* fall through */
		case DT_NEEDED:
		case DT_RPATH:
		case DT_AUDIT:
		case DT_DEPAUDIT:
		case DT_FILTER:
		case DT_AUXILIARY:
			refs[nrefs].tag = tag;
			refs[nrefs++].at = val;
			break;
		}
		if (end)
			break;
	}
	free(d);
	if (t == HP_TRUE && !end) {
		hp_err_set(p->why, "the dynamic section has no DT_NULL within its segment's "
		                   "first %d entries", HP_ELF_MAX_DYN);
		t = HP_UNKNOWN;
	}
	if (t == HP_TRUE && nrefs && (!has_strtab || !has_strsz)) {
		hp_err_set(p->why, "dynamic strings without DT_STRTAB and DT_STRSZ");
		t = HP_UNKNOWN;
	}
	for (size_t i = 0; t == HP_TRUE && i < nrefs; i++) {
		char *s;
		t = string_at(p, strtab, strsz, refs[i].at, &s);
		if (t != HP_TRUE)
			break;
		if (refs[i].tag == DT_RUNPATH)
			hp_strv_push(&out->runpath, s);
		else if (refs[i].tag != DT_RPATH)
			hp_strv_push(&out->needed, s);
		else if (!has_runpath) /* the loader ignores it when there is one */
			hp_strv_push(&out->rpath, s);
		free(s);
	}
	free(refs);
	return t;
}

hp_tri hp_os_elf_deps(const hp_elf_src *src, hp_elf_deps *out, hp_err *why)
{
	memset(out, 0, sizeof *out);
	unsigned char h[64];
	size_t hn = src->size < sizeof h ? (size_t)src->size : sizeof h;
	if (hn < 4)
		return HP_FALSE;
	parser p = {src, false, false, NULL, 0, why};
	if (read_at(&p, 0, h, hn) != 0) {
		hp_err_set(why, "the ELF header cannot be read");
		return HP_UNKNOWN;
	}
	if (memcmp(h, ELFMAG, SELFMAG) != 0)
		return HP_FALSE;
	if (hn < 52 || (h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64) ||
	    (h[EI_DATA] != ELFDATA2LSB && h[EI_DATA] != ELFDATA2MSB) ||
	    (h[EI_CLASS] == ELFCLASS64 && hn < 64)) {
		hp_err_set(why, "a truncated ELF header, or one of an unknown class or byte order");
		return HP_UNKNOWN;
	}
	p.is64 = h[EI_CLASS] == ELFCLASS64;
	p.be = h[EI_DATA] == ELFDATA2MSB;
	uint64_t type = get(h + 16, 2, p.be), machine = get(h + 18, 2, p.be);
	uint64_t phoff = word(&p, h + (p.is64 ? 32 : 28));
	uint64_t phentsize = get(h + (p.is64 ? 54 : 42), 2, p.be);
	uint64_t phnum = get(h + (p.is64 ? 56 : 44), 2, p.be);
	if (type != ET_EXEC && type != ET_DYN) {
		hp_err_set(why, "an ELF file of type %llu, neither an executable nor a shared object",
		           (unsigned long long)type);
		return HP_UNKNOWN;
	}
	if (phentsize != (p.is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)) || phnum == 0 ||
	    phnum * phentsize > HP_ELF_MAX_PHDRS) {
		hp_err_set(why, "%llu program headers of %llu bytes", (unsigned long long)phnum,
		           (unsigned long long)phentsize);
		return HP_UNKNOWN;
	}
	size_t phsize = (size_t)(phnum * phentsize);
	unsigned char *ph = hp_xmalloc(phsize);
	if (read_at(&p, phoff, ph, phsize) != 0) {
		free(ph);
		hp_err_set(why, "the program headers are past the end of the file");
		return HP_UNKNOWN;
	}
	bool le_native = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
	out->foreign = p.is64 != (sizeof(void *) == 8) || p.be == le_native ||
	               (long long)machine != (long long)NATIVE_MACHINE;
	p.load = hp_xmalloc((size_t)phnum * sizeof *p.load);
	const unsigned char *interp = NULL, *dyn = NULL;
	hp_tri t = HP_TRUE;
	for (size_t i = 0; i < phnum && t == HP_TRUE; i++) {
		const unsigned char *e = ph + i * phentsize;
		uint32_t ptype = (uint32_t)get(e, 4, p.be);
		if (ptype == PT_LOAD) {
			seg *s = &p.load[p.nload++];
			s->off = word(&p, e + (p.is64 ? 8 : 4));
			s->vaddr = word(&p, e + (p.is64 ? 16 : 8));
			s->filesz = word(&p, e + (p.is64 ? 32 : 16));
		} else if (ptype == PT_INTERP && !interp) {
			interp = e;
		} else if (ptype == PT_DYNAMIC) {
			if (dyn) {
				hp_err_set(why, "two PT_DYNAMIC segments");
				t = HP_UNKNOWN;
			}
			dyn = e;
		}
	}
	if (t == HP_TRUE && interp)
		t = read_interp(&p, interp, out);
	if (t == HP_TRUE && dyn)
		t = read_dynamic(&p, word(&p, dyn + (p.is64 ? 16 : 8)), out);
	free(p.load);
	free(ph);
	if (t != HP_TRUE)
		hp_os_elf_deps_free(out);
	return t;
}

void hp_os_elf_deps_free(hp_elf_deps *d)
{
	free(d->interp);
	d->interp = NULL;
	hp_strv_free(&d->needed);
	hp_strv_free(&d->rpath);
	hp_strv_free(&d->runpath);
}

/* The length of the token name at s (after its '$') when it is ref, as
 * glibc's is_dst matches: "NAME" not followed by an identifier character,
 * or "{NAME}"; 0 when it is not. */
static size_t is_token(const char *s, const char *ref)
{
	int curly = s[0] == '{';
	const char *n = s + curly;
	size_t rl = strlen(ref);
	if (strncmp(n, ref, rl) != 0)
		return 0;
	char c = n[rl];
	if (curly ? c != '}' : (c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	                        (c >= '0' && c <= '9')))
		return 0;
	return rl + (curly ? 2 : 0);
}

hp_tri hp_os_elf_expand(const char *s, const char *origin, char **out, hp_err *why)
{
	*out = NULL;
	char buf[HP_ELF_MAX_STR + 1];
	size_t n = 0;
	for (const char *c = s; *c;) {
		const char *add = c;
		size_t len = 1, skip = 1;
		if (*c == '$') {
			size_t k;
			if ((k = is_token(c + 1, "ORIGIN")) != 0) {
				if (!origin) {
					hp_err_set(why, "'%s': $ORIGIN with no directory to stand for", s);
					return HP_UNKNOWN;
				}
				add = origin;
				len = strlen(origin);
				skip = 1 + k;
			} else if (is_token(c + 1, "LIB") || is_token(c + 1, "PLATFORM")) {
				hp_err_set(why, "'%s': $LIB and $PLATFORM depend on the loader's build "
				                "and the CPU",
				           s);
				return HP_UNKNOWN;
			} else {
				hp_err_set(why, "'%s': a '$' that is no token the loader expands", s);
				return HP_UNKNOWN;
			}
		}
		if (len > sizeof buf - 1 - n) {
			hp_err_set(why, "'%s': longer than %d bytes expanded", s, HP_ELF_MAX_STR);
			return HP_UNKNOWN;
		}
		memcpy(buf + n, add, len);
		n += len;
		c += skip;
	}
	buf[n] = '\0';
	*out = hp_xstrdup(buf);
	return HP_TRUE;
}

hp_tri hp_os_elf_search_dirs(const char *list, const char *origin, hp_strv *out, hp_err *why)
{
	for (const char *p = list;;) {
		const char *q = strchr(p, ':');
		char *one = q ? hp_xstrndup(p, (size_t)(q - p)) : hp_xstrdup(p);
		char *x = NULL;
		hp_tri t = HP_TRUE;
		if (!*one) {
			hp_err_set(why, "'%s': an empty entry, which the loader takes as the working "
			                "directory",
			           list);
			t = HP_UNKNOWN;
		} else {
			t = hp_os_elf_expand(one, origin, &x, why);
		}
		if (t == HP_TRUE && x[0] != '/') {
			hp_err_set(why, "'%s': the loader resolves it against the working directory",
			           one);
			t = HP_UNKNOWN;
		}
		if (t == HP_TRUE) {
			size_t l = strlen(x);
			while (l > 1 && x[l - 1] == '/')
				x[--l] = '\0';
			hp_strv_push(out, x);
		}
		free(x);
		free(one);
		if (t != HP_TRUE)
			return t;
		if (!q)
			return HP_TRUE;
		p = q + 1;
	}
}
