/* loader.c: reads a compiled policy into an hp_bc, checking the header,
 * the section directory, the checksum and every table before anything is
 * used, then hands the code to the verifier (verify.c). Every read of the
 * file goes through one function, take(), which knows where the stretch
 * being read ends and reports a truncation with its offset (the cursor,
 * below); every count is checked against the bytes its section holds
 * before memory is allocated for its entries.
 * Messages name the file, the byte offset and what is wrong. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/bytecode.h"

#include "lib/utf8.h"

const char *const hp_bc_section_names[HP_SEC_COUNT] = {
#define HP_BC_SEC_NAME(id, name) name,
    HP_BC_SECTIONS(HP_BC_SEC_NAME)
#undef HP_BC_SEC_NAME
};

typedef struct {
	const uint8_t *d;
	size_t size;
	const char *path;
	hp_err *err;
	uint32_t sec_off[HP_SEC_COUNT], sec_len[HP_SEC_COUNT];
} loader;

static bool fail(loader *l, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(loader *l, size_t off, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	hp_err_set(l->err, "%s: byte %zu: %s", l->path, off, msg);
	return false;
}

/* --- the cursor: every byte of the file is read through take() -------------
 *
 * A cursor reads a stretch of the file (the header, a section) from pos up
 * to end, which the directory fixed before any table is read. take() is
 * the one function that touches the file's bytes: it hands out n bytes at
 * the cursor and moves past them, or fails, naming the offset, when fewer
 * are left. The readers of numbers and reserved bytes are built on it, so
 * no read can go past the end of its stretch whatever a count or an offset
 * in the file says. */
typedef struct {
	loader *l;
	size_t pos, end;
	const char *what; /* the stretch, for messages: "header", "strings"... */
} cursor;

static cursor cursor_of(loader *l, hp_bc_section s)
{
	return (cursor){l, l->sec_off[s], (size_t)l->sec_off[s] + l->sec_len[s],
	                hp_bc_section_names[s]};
}

static const uint8_t *take(cursor *c, size_t n)
{
	if (c->pos > c->end || n > c->end - c->pos) {
		fail(c->l, c->pos, "%s truncated: %zu bytes needed, %zu left", c->what, n,
		     c->pos > c->end ? 0 : c->end - c->pos);
		return NULL;
	}
	const uint8_t *p = c->l->d + c->pos;
	c->pos += n;
	return p;
}

static bool get_u8(cursor *c, uint8_t *v)
{
	const uint8_t *p = take(c, 1);
	if (p)
		*v = p[0];
	return p != NULL;
}

static bool get_u16(cursor *c, uint16_t *v)
{
	const uint8_t *p = take(c, 2);
	if (p)
		*v = (uint16_t)(p[0] | p[1] << 8);
	return p != NULL;
}

static bool get_u32(cursor *c, uint32_t *v)
{
	const uint8_t *p = take(c, 4);
	if (p)
		*v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		     (uint32_t)p[3] << 24;
	return p != NULL;
}

static bool get_u64(cursor *c, uint64_t *v)
{
	uint32_t lo, hi;
	if (!get_u32(c, &lo) || !get_u32(c, &hi))
		return false;
	*v = (uint64_t)hi << 32 | lo;
	return true;
}

/* n reserved bytes, each 0. */
static bool get_zero(cursor *c, size_t n, const char *what)
{
	size_t at = c->pos;
	const uint8_t *p = take(c, n);
	if (!p)
		return false;
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return fail(c->l, at + i, "%s: reserved byte is %u, not 0", what, p[i]);
	return true;
}

/* A table of count entries of size bytes at the cursor, inside its
 * stretch: checked before memory is allocated for the entries. */
static bool table_fits(cursor *c, uint32_t count, size_t size, const char *what)
{
	if (c->pos > c->end || count > (c->end - c->pos) / size)
		return fail(c->l, c->pos,
		            "%s: %u entries of %zu bytes do not fit in the %zu bytes left", what,
		            count, size, c->pos > c->end ? 0 : c->end - c->pos);
	return true;
}

static bool read_count(cursor *c, uint32_t *count, const char *what)
{
	if (c->pos > c->end || c->end - c->pos < 4)
		return fail(c->l, c->pos, "%s section truncated: no room for the %s count",
		            c->what, what);
	return get_u32(c, count);
}

static bool section_end(const cursor *c)
{
	if (c->pos != c->end)
		return fail(c->l, c->pos, "%zu bytes left over at the end of the %s section",
		            c->end - c->pos, c->what);
	return true;
}

static bool check_str(loader *l, const hp_bc *bc, size_t off, uint32_t i, bool optional,
                      const char *what)
{
	if (optional && i == HP_BC_NONE)
		return true;
	if (i >= bc->nstrings)
		return fail(l, off, "%s: string index %u out of range (%u strings)", what, i,
		            bc->nstrings);
	return true;
}

/* A string index at the cursor. */
static bool get_str(cursor *c, const hp_bc *bc, uint32_t *i, bool optional, const char *what)
{
	size_t at = c->pos;
	return get_u32(c, i) && check_str(c->l, bc, at, *i, optional, what);
}

static bool read_loc(cursor *c, const hp_bc *bc, hp_bc_loc *loc, const char *what)
{
	size_t at = c->pos;
	if (!get_u32(c, &loc->file) || !get_u32(c, &loc->line) || !get_u32(c, &loc->col))
		return false;
	if (!check_str(c->l, bc, at, loc->file, false, what))
		return false;
	if (loc->line == 0 || loc->col == 0)
		return fail(c->l, at + 4, "%s: line %u, column %u: both start at 1", what,
		            loc->line, loc->col);
	return true;
}

static bool read_region(cursor *c, const hp_bc *bc, hp_bc_region *r, const char *what)
{
	size_t at = c->pos;
	if (!get_u32(c, &r->start) || !get_u32(c, &r->len))
		return false;
	if (r->len == 0)
		return fail(c->l, at + 4, "%s: empty code region", what);
	if (r->start >= bc->ncode || r->len > bc->ncode - r->start)
		return fail(c->l, at, "%s: code region %u+%u out of range (%u instructions)", what,
		            r->start, r->len, bc->ncode);
	return true;
}

/* Names must be unique (params, rule ids). Sorted by name, then index, a
 * duplicate sits next to an earlier use; the message names the clash that
 * comes first in the table, as a scan in order would. */
typedef struct {
	const char *name;
	uint32_t index;
} named;

static int named_cmp(const void *a, const void *b)
{
	const named *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The smallest index i whose name an earlier j already has. */
static bool first_duplicate(named *v, uint32_t n, uint32_t *i, uint32_t *j)
{
	qsort(v, n, sizeof *v, named_cmp);
	bool found = false;
	uint32_t first = 0; /* start of the run of equal names */
	for (uint32_t k = 1; k < n; k++) {
		if (strcmp(v[k].name, v[k - 1].name) != 0) {
			first = k;
			continue;
		}
		if (!found || v[k].index < *i) {
			*i = v[k].index;
			*j = v[first].index;
			found = true;
		}
	}
	return found;
}

/* --- header and directory ---------------------------------------------------- */

static bool load_header(loader *l, hp_bc *bc)
{
	size_t need = HP_BC_HEADER_SIZE + (size_t)HP_SEC_COUNT * HP_BC_DIRENT_SIZE;
	if (l->size < need)
		return fail(l, l->size, "truncated: %zu bytes, a header needs %zu", l->size, need);
	/* the checksum covers the whole file, its own field read as zeros */
	cursor file = {l, 0, l->size, "file"};
	const uint8_t *all = take(&file, l->size);
	cursor h = {l, 0, need, "header"};
	const uint8_t *magic = take(&h, HP_BC_MAGIC_LEN);
	if (!all || !magic)
		return false;
	if (memcmp(magic, HP_BC_MAGIC, HP_BC_MAGIC_LEN) != 0)
		return fail(l, 0, "bad magic: not a compiled hangar policy");
	uint16_t version, flags;
	uint32_t length, sum, nsec;
	uint64_t pversion;
	if (!get_u16(&h, &version) || !get_u16(&h, &flags))
		return false;
	if (version != HP_BC_VERSION)
		return fail(l, 8, "format version %u, this runtime reads version %u", version,
		            HP_BC_VERSION);
	if (flags != 0)
		return fail(l, 10, "unknown flags 0x%04x", flags);
	if (!get_u32(&h, &length))
		return false;
	if (length != l->size)
		return fail(l, 12, "length field says %u bytes, the file has %zu", length, l->size);
	if (!get_u32(&h, &sum))
		return false;
	static const uint8_t zeros[4];
	uint32_t crc = hp_crc32(0, all, 16);
	crc = hp_crc32(crc, zeros, 4);
	crc = hp_crc32(crc, all + 20, l->size - 20);
	if (crc != sum)
		return fail(l, 16, "checksum mismatch: the file says %08x, its bytes give %08x",
		            sum, crc);
	bc->checksum = sum;
	if (!get_u32(&h, &bc->name) || !get_u64(&h, &pversion) || !get_u32(&h, &nsec))
		return false;
	bc->version = (int64_t)pversion;
	if (nsec != HP_SEC_COUNT)
		return fail(l, 32, "%u sections, this format has %u", nsec, HP_SEC_COUNT);
	if (!get_zero(&h, 4, "header"))
		return false;
	size_t expect = need;
	for (unsigned i = 0; i < HP_SEC_COUNT; i++) {
		size_t at = h.pos;
		uint32_t id, off, len;
		if (!get_u32(&h, &id) || !get_u32(&h, &off) || !get_u32(&h, &len))
			return false;
		if (id != i)
			return fail(l, at, "section directory entry %u has id %u, expected %u (%s)",
			            i, id, i, hp_bc_section_names[i]);
		if (off != expect)
			return fail(l, at + 4, "%s section at offset %u, expected %zu",
			            hp_bc_section_names[i], off, expect);
		if (len > l->size - off)
			return fail(
			    l, at + 8,
			    "%s section of %u bytes at offset %u runs past the end (%zu bytes)",
			    hp_bc_section_names[i], len, off, l->size);
		l->sec_off[i] = off;
		l->sec_len[i] = len;
		expect = (size_t)off + len;
	}
	if (expect != l->size)
		return fail(l, expect, "trailing data after the last section (%zu bytes)",
		            l->size - expect);
	return true;
}

/* --- tables ------------------------------------------------------------------- */

static bool load_strings(loader *l, hp_bc *bc)
{
	cursor c = cursor_of(l, HP_SEC_STRINGS);
	uint32_t n;
	if (!read_count(&c, &n, "string") || !table_fits(&c, n, HP_BC_STRING_SIZE, "strings"))
		return false;
	/* the text follows the entries, to the section's end */
	cursor text = c;
	text.pos += (size_t)n * HP_BC_STRING_SIZE;
	size_t blob = text.pos, bloblen = text.end - text.pos;
	bc->strings = hp_xcalloc(n, sizeof *bc->strings);
	bc->nstrings = n;
	for (uint32_t i = 0; i < n; i++) {
		size_t at = c.pos;
		uint32_t so, sl;
		if (!get_u32(&c, &so) || !get_u32(&c, &sl))
			return false;
		if (so > bloblen || sl >= bloblen - so)
			return fail(
			    l, at,
			    "string %u: offset %u length %u out of range (%zu bytes of text)", i,
			    so, sl, bloblen);
		cursor one = {l, blob + so, text.end, "strings"};
		const uint8_t *p = take(&one, (size_t)sl + 1);
		if (!p)
			return false;
		if (p[sl] != 0)
			return fail(l, blob + so + sl, "string %u is not NUL-terminated", i);
		const uint8_t *nul = memchr(p, 0, sl);
		if (nul)
			return fail(l, blob + so + (size_t)(nul - p), "string %u contains a NUL byte",
			            i);
		size_t good = hp_utf8_prefix(p, sl);
		if (good < sl)
			return fail(l, blob + so + good, "string %u is not valid UTF-8", i);
		bc->strings[i].p = (const char *)p;
		bc->strings[i].len = sl;
	}
	return true;
}

static bool load_consts(loader *l, hp_bc *bc)
{
	cursor c = cursor_of(l, HP_SEC_CONSTS);
	uint32_t n;
	if (!read_count(&c, &n, "constant") ||
	    !table_fits(&c, n, HP_BC_CONST_SIZE, "constants"))
		return false;
	bc->consts = hp_xcalloc(n, sizeof *bc->consts);
	bc->nconsts = n;
	for (uint32_t i = 0; i < n; i++) {
		size_t off = c.pos;
		uint8_t t;
		if (!get_u8(&c, &t))
			return false;
		if (t != HP_T_INT && t != HP_T_CAPS && t != HP_T_LIST)
			return fail(l, off, "constant %u has type %u, not int, caps or list", i, t);
		if (!get_zero(&c, 7, "constant") || !get_u64(&c, &bc->consts[i].value))
			return false;
		bc->consts[i].type = t;
		/* a list is a run of strings: first in the low half, count in the high */
		uint32_t first = (uint32_t)bc->consts[i].value;
		uint32_t count = (uint32_t)(bc->consts[i].value >> 32);
		if (t == HP_T_LIST && count > HP_VALUE_MAX_LIST)
			return fail(l, off + 12, "list constant %u has %u items, more than %u", i,
			            count, HP_VALUE_MAX_LIST);
		if (t == HP_T_LIST && (first > bc->nstrings || count > bc->nstrings - first))
			return fail(l, off + 8,
			            "list constant %u: strings %u+%u out of range (%u strings)", i,
			            first, count, bc->nstrings);
	}
	return section_end(&c);
}

static bool load_code(loader *l, hp_bc *bc)
{
	cursor c = cursor_of(l, HP_SEC_CODE);
	uint32_t n;
	if (!read_count(&c, &n, "instruction") || !table_fits(&c, n, HP_BC_INSN_SIZE, "code"))
		return false;
	bc->code_offset = (uint32_t)c.pos;
	bc->code = hp_xcalloc(n, sizeof *bc->code);
	bc->ncode = n;
	for (uint32_t i = 0; i < n; i++) {
		hp_insn *in = &bc->code[i];
		if (!get_u8(&c, &in->op) || !get_u8(&c, &in->a) || !get_u16(&c, &in->b) ||
		    !get_u32(&c, &in->c))
			return false;
	}
	return section_end(&c);
}

static bool load_params(loader *l, hp_bc *bc)
{
	cursor c = cursor_of(l, HP_SEC_PARAMS);
	uint32_t n;
	if (!read_count(&c, &n, "param") || !table_fits(&c, n, HP_BC_PARAM_SIZE, "params"))
		return false;
	size_t first_entry = c.pos;
	bc->params = hp_xcalloc(n, sizeof *bc->params);
	bc->nparams = n;
	for (uint32_t i = 0; i < n; i++) {
		hp_bc_param *p = &bc->params[i];
		size_t off = c.pos;
		if (!get_str(&c, bc, &p->name, false, "param name") || !get_u8(&c, &p->type))
			return false;
		if (p->type == HP_T_NONE || p->type >= HP_T_COUNT)
			return fail(l, off + 4, "param %u: type %u is not a value type", i,
			            p->type);
		if (!get_zero(&c, 3, "param") || !read_region(&c, bc, &p->code, "param") ||
		    !read_loc(&c, bc, &p->loc, "param"))
			return false;
	}
	named *v = hp_xcalloc(n ? n : 1, sizeof *v);
	for (uint32_t i = 0; i < n; i++)
		v[i] = (named){hp_bc_str(bc, bc->params[i].name), i};
	uint32_t di = 0, dj = 0;
	bool dup = first_duplicate(v, n, &di, &dj);
	free(v);
	if (dup)
		return fail(l, first_entry + (size_t)di * HP_BC_PARAM_SIZE,
		            "param %u has the same name as param %u ('%s')", di, dj,
		            hp_bc_str(bc, bc->params[di].name));
	return section_end(&c);
}

static bool load_roles(loader *l, hp_bc *bc)
{
	cursor c = cursor_of(l, HP_SEC_ROLES);
	uint32_t n;
	if (!read_count(&c, &n, "role"))
		return false;
	if (n > HP_ROLE_COUNT)
		return fail(l, c.pos - 4, "%u roles, there are only %u", n, HP_ROLE_COUNT);
	if (!table_fits(&c, n, HP_BC_ROLE_SIZE, "roles"))
		return false;
	bc->roles = hp_xcalloc(n, sizeof *bc->roles);
	bc->nroles = n;
	for (uint32_t i = 0; i < n; i++) {
		hp_bc_role *r = &bc->roles[i];
		size_t off = c.pos;
		if (!get_u8(&c, &r->role) || !get_u8(&c, &r->flags))
			return false;
		if (r->role >= HP_ROLE_COUNT)
			return fail(l, off, "role %u: no role has id %u", i, r->role);
		if (bc->role_index[r->role] >= 0)
			return fail(l, off, "role %s is declared twice", hp_role_names[r->role]);
		bc->role_index[r->role] = (int)i;
		if (r->flags & ~HP_BC_ROLE_FLAGS)
			return fail(l, off + 1, "role %s: unknown flags 0x%02x",
			            hp_role_names[r->role], r->flags);
		if ((r->flags & HP_BC_ROLE_NO_CAPS) && (r->flags & HP_BC_ROLE_KEEP_CAPS))
			return fail(l, off + 1, "role %s: both no caps and keep caps",
			            hp_role_names[r->role]);
		uint32_t k;
		if (!get_zero(&c, 2, "role") || !get_u32(&c, &k))
			return false;
		if (r->flags & HP_BC_ROLE_KEEP_CAPS) {
			if (k >= bc->nconsts || bc->consts[k].type != HP_T_CAPS)
				return fail(l, off + 4,
				            "role %s: kept capabilities %u is not a caps constant",
				            hp_role_names[r->role], k);
			r->keep_caps = bc->consts[k].value;
		} else if (k != HP_BC_NONE) {
			return fail(l, off + 4,
			            "role %s: kept capabilities given without the keep caps flag",
			            hp_role_names[r->role]);
		}
		if (!read_region(&c, bc, &r->identity, "role identity") ||
		    !read_region(&c, bc, &r->body, "role checks") ||
		    !read_loc(&c, bc, &r->loc, "role"))
			return false;
	}
	return section_end(&c);
}

static bool load_rules(loader *l, hp_bc *bc)
{
	cursor c = cursor_of(l, HP_SEC_RULES);
	uint32_t n, na;
	if (!read_count(&c, &n, "rule") || !table_fits(&c, n, HP_BC_RULE_SIZE, "rules"))
		return false;
	size_t first_entry = c.pos;
	bc->rules = hp_xcalloc(n, sizeof *bc->rules);
	bc->nrules = n;
	uint32_t next = 0;
	for (uint32_t i = 0; i < n; i++) {
		hp_bc_rule *r = &bc->rules[i];
		size_t off = c.pos;
		if (!get_str(&c, bc, &r->id, false, "rule id") ||
		    !get_str(&c, bc, &r->title, false, "rule title") ||
		    !get_str(&c, bc, &r->remedy, true, "rule remedy") || !get_u32(&c, &r->applies) ||
		    !get_u32(&c, &r->first) || !get_u32(&c, &r->count))
			return false;
		if (r->applies & ~HP_APPLIES_ALL)
			return fail(l, off + 12,
			            "rule %u: applicability mask 0x%x has bits past 0x%x", i,
			            r->applies, HP_APPLIES_ALL);
		if (r->first != next)
			return fail(l, off + 16, "rule %u: first assertion %u, expected %u", i,
			            r->first, next);
		if (r->count > UINT32_MAX - next)
			return fail(l, off + 20, "rule %u: %u assertions overflow", i, r->count);
		next += r->count;
		if (!read_loc(&c, bc, &r->loc, "rule"))
			return false;
	}
	named *v = hp_xcalloc(n ? n : 1, sizeof *v);
	for (uint32_t i = 0; i < n; i++)
		v[i] = (named){hp_bc_str(bc, bc->rules[i].id), i};
	uint32_t di = 0, dj = 0;
	bool dup = first_duplicate(v, n, &di, &dj);
	free(v);
	if (dup)
		return fail(l, first_entry + (size_t)di * HP_BC_RULE_SIZE,
		            "rule %u has the same id as rule %u ('%s')", di, dj,
		            hp_bc_str(bc, bc->rules[di].id));
	if (!read_count(&c, &na, "assertion"))
		return false;
	if (na != next)
		return fail(l, c.pos - 4, "%u assertions, the rules have %u", na, next);
	if (!table_fits(&c, na, HP_BC_ASSERTION_SIZE, "assertions"))
		return false;
	bc->asserts = hp_xcalloc(na, sizeof *bc->asserts);
	bc->nasserts = na;
	bc->asserts_offset = (uint32_t)c.pos;
	uint32_t rule = 0;
	for (uint32_t i = 0; i < na; i++) {
		hp_bc_assertion *a = &bc->asserts[i];
		size_t off = c.pos;
		while (rule < n && i >= bc->rules[rule].first + bc->rules[rule].count)
			rule++;
		if (rule >= n)
			return fail(l, off, "assertion %u belongs to no rule", i);
		if (!get_u32(&c, &a->rule) || !get_u8(&c, &a->role) || !get_u8(&c, &a->kind))
			return false;
		a->pc = HP_BC_NONE;
		if (a->rule != rule)
			return fail(l, off,
			            "assertion %u belongs to rule %u, its place says rule %u", i,
			            a->rule, rule);
		if (a->role >= HP_ROLE_COUNT)
			return fail(l, off + 4, "assertion %u: no role has id %u", i, a->role);
		if (bc->role_index[a->role] < 0)
			return fail(l, off + 4, "assertion %u: role %s is not declared", i,
			            hp_role_names[a->role]);
		if (a->kind > HP_BC_FORBID)
			return fail(l, off + 5,
			            "assertion %u: kind %u is neither require nor forbid", i,
			            a->kind);
		if (!get_zero(&c, 2, "assertion") ||
		    !get_str(&c, bc, &a->text, false, "assertion text") ||
		    !read_loc(&c, bc, &a->loc, "assertion"))
			return false;
		bc->rules[rule].roles |= 1u << a->role;
		bc->roles[bc->role_index[a->role]].nasserts++;
	}
	return section_end(&c);
}

static bool load_providers(loader *l, hp_bc *bc)
{
	cursor c = cursor_of(l, HP_SEC_PROVIDERS);
	uint32_t n, nc;
	if (!read_count(&c, &n, "provider"))
		return false;
	if (n > HP_PROVIDER_COUNT)
		return fail(l, c.pos - 4, "%u providers, there are only %u", n, HP_PROVIDER_COUNT);
	if (!table_fits(&c, n, HP_BC_PROVIDER_SIZE, "providers"))
		return false;
	bc->providers = hp_xcalloc(n, sizeof *bc->providers);
	bc->nproviders = n;
	uint32_t next = 0;
	for (uint32_t i = 0; i < n; i++) {
		hp_bc_provider *pv = &bc->providers[i];
		size_t off = c.pos;
		if (!get_u8(&c, &pv->provider) || !get_u8(&c, &pv->uid_split))
			return false;
		if (pv->provider >= HP_PROVIDER_COUNT)
			return fail(l, off, "provider %u: no provider has id %u", i, pv->provider);
		if (bc->provider_index[pv->provider] >= 0)
			return fail(l, off, "provider %s is declared twice",
			            hp_provider_names[pv->provider]);
		bc->provider_index[pv->provider] = (int)i;
		if (pv->uid_split >= HP_SETTING_COUNT)
			return fail(l, off + 1, "provider %s: uid_split default %u",
			            hp_provider_names[pv->provider], pv->uid_split);
		if (!get_zero(&c, 2, "provider") || !get_u32(&c, &pv->first) ||
		    !get_u32(&c, &pv->count))
			return false;
		if (pv->first != next)
			return fail(l, off + 4, "provider %s: first condition %u, expected %u",
			            hp_provider_names[pv->provider], pv->first, next);
		if (pv->count > UINT32_MAX - next)
			return fail(l, off + 8, "provider %s: %u conditions overflow",
			            hp_provider_names[pv->provider], pv->count);
		next += pv->count;
		if (!read_loc(&c, bc, &pv->loc, "provider"))
			return false;
	}
	if (!read_count(&c, &nc, "condition"))
		return false;
	if (nc != next)
		return fail(l, c.pos - 4, "%u conditions, the providers have %u", nc, next);
	if (!table_fits(&c, nc, HP_BC_COND_SIZE, "conditions"))
		return false;
	bc->conds = hp_xcalloc(nc, sizeof *bc->conds);
	bc->nconds = nc;
	for (uint32_t i = 0; i < nc; i++) {
		hp_bc_cond *cd = &bc->conds[i];
		size_t off = c.pos;
		if (!get_u8(&c, &cd->kind))
			return false;
		if (cd->kind > HP_BC_NEVER)
			return fail(l, off, "condition %u: kind %u is neither needs nor never", i,
			            cd->kind);
		if (!get_zero(&c, 3, "condition") || !read_region(&c, bc, &cd->code, "condition") ||
		    !get_str(&c, bc, &cd->text, false, "condition text") ||
		    !get_u32(&c, &cd->because))
			return false;
		if (cd->kind == HP_BC_NEVER &&
		    !check_str(l, bc, off + 16, cd->because, false, "condition reason"))
			return false;
		if (cd->kind == HP_BC_NEEDS && cd->because != HP_BC_NONE)
			return fail(l, off + 16, "condition %u: a `split needs` has no reason", i);
		if (!read_loc(&c, bc, &cd->loc, "condition"))
			return false;
	}
	return section_end(&c);
}

static bool load_srcmap(loader *l, hp_bc *bc)
{
	cursor c = cursor_of(l, HP_SEC_SRCMAP);
	uint32_t n;
	if (!read_count(&c, &n, "source map") ||
	    !table_fits(&c, n, HP_BC_SRCMAP_SIZE, "source map"))
		return false;
	if (bc->ncode > 0 && n == 0)
		return fail(l, c.pos - 4, "the source map is empty");
	bc->srcmap = hp_xcalloc(n, sizeof *bc->srcmap);
	bc->nsrcmap = n;
	for (uint32_t i = 0; i < n; i++) {
		hp_bc_srcmap *m = &bc->srcmap[i];
		size_t off = c.pos;
		if (!get_u32(&c, &m->pc))
			return false;
		if (i == 0 && m->pc != 0)
			return fail(l, off, "source map starts at instruction %u, not 0", m->pc);
		if (i > 0 && m->pc <= bc->srcmap[i - 1].pc)
			return fail(l, off,
			            "source map entry %u: instruction %u does not follow %u", i,
			            m->pc, bc->srcmap[i - 1].pc);
		if (m->pc >= bc->ncode)
			return fail(l, off, "source map entry %u: instruction %u out of range (%u)",
			            i, m->pc, bc->ncode);
		if (!read_loc(&c, bc, &m->loc, "source map") ||
		    !get_str(&c, bc, &m->line_text, false, "source line"))
			return false;
	}
	return section_end(&c);
}

/* Every instruction belongs to exactly one region: no overlap, no code
 * that nothing runs. */
static int region_cmp(const void *a, const void *b)
{
	const hp_bc_region_ref *x = a, *y = b;
	return x->r.start < y->r.start ? -1 : x->r.start > y->r.start;
}

static bool check_regions(loader *l, hp_bc *bc)
{
	size_t n = hp_bc_region_count(bc);
	hp_bc_region_ref *rs = hp_xcalloc(n ? n : 1, sizeof *rs);
	hp_bc_regions(bc, rs);
	qsort(rs, n, sizeof *rs, region_cmp);
	uint32_t next = 0;
	bool ok = true;
	char a[120], b[120];
	for (size_t i = 0; i < n && ok; i++) {
		if (rs[i].r.start < next)
			ok = fail(l, bc->code_offset + (size_t)rs[i].r.start * HP_BC_INSN_SIZE,
			          "instruction %u: the code of %s overlaps the code of %s",
			          rs[i].r.start,
			          hp_bc_region_name(bc, rs[i].kind, rs[i].index, a, sizeof a),
			          hp_bc_region_name(bc, rs[i - 1].kind, rs[i - 1].index, b, sizeof b));
		else if (rs[i].r.start > next)
			ok = fail(l, bc->code_offset + (size_t)next * HP_BC_INSN_SIZE,
			          "instruction %u belongs to no region", next);
		next = rs[i].r.start + rs[i].r.len;
	}
	if (ok && next != bc->ncode)
		ok = fail(l, bc->code_offset + (size_t)next * HP_BC_INSN_SIZE,
		          "instruction %u belongs to no region", next);
	free(rs);
	return ok;
}

hp_bc *hp_bc_load(const char *path, const uint8_t *data, size_t len, hp_err *err)
{
	if (len > HP_BC_MAX_FILE) {
		hp_err_set(err, "%s: %zu bytes, more than the limit of %u", path, len,
		           HP_BC_MAX_FILE);
		return NULL;
	}
	hp_bc *bc = hp_xcalloc(1, sizeof *bc);
	bc->path = hp_xstrdup(path);
	bc->data = hp_xmalloc(len ? len : 1);
	if (len)
		memcpy(bc->data, data, len);
	bc->size = (uint32_t)len;
	for (int i = 0; i < HP_ROLE_COUNT; i++)
		bc->role_index[i] = -1;
	for (int i = 0; i < HP_PROVIDER_COUNT; i++)
		bc->provider_index[i] = -1;
	loader l = {bc->data, len, path, err, {0}, {0}};
	bool ok = load_header(&l, bc) && load_strings(&l, bc) &&
	          check_str(&l, bc, 20, bc->name, false, "policy name") && load_consts(&l, bc) &&
	          load_code(&l, bc) && load_params(&l, bc) && load_roles(&l, bc) &&
	          load_rules(&l, bc) && load_providers(&l, bc) && load_srcmap(&l, bc) &&
	          check_regions(&l, bc) && hp_bc_verify(bc, err);
	if (!ok) {
		hp_bc_free(bc);
		return NULL;
	}
	return bc;
}

hp_bc *hp_bc_load_file(const char *path, hp_err *err)
{
	uint8_t *data;
	size_t len;
	if (!hp_read_regular_file(path, HP_BC_MAX_FILE, &data, &len, err))
		return NULL;
	hp_bc *bc = hp_bc_load(path, data, len, err);
	free(data);
	return bc;
}

void hp_bc_free(hp_bc *bc)
{
	if (!bc)
		return;
	free(bc->path);
	free(bc->data);
	free(bc->strings);
	free(bc->consts);
	free(bc->params);
	free(bc->roles);
	free(bc->rules);
	free(bc->asserts);
	free(bc->providers);
	free(bc->conds);
	free(bc->code);
	free(bc->srcmap);
	free(bc);
}

const hp_bc_srcmap *hp_bc_srcmap_at(const hp_bc *bc, uint32_t pc)
{
	uint32_t lo = 0, hi = bc->nsrcmap;
	if (hi == 0 || pc >= bc->ncode)
		return NULL;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (bc->srcmap[mid].pc <= pc)
			lo = mid;
		else
			hi = mid;
	}
	return &bc->srcmap[lo];
}

void hp_bc_loc_format(hp_buf *b, const hp_bc *bc, hp_bc_loc loc)
{
	const char *f = hp_bc_str(bc, loc.file);
	hp_buf_printf(b, "%s:%u:%u", f, loc.line, loc.col);
}
