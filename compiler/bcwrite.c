/* bcwrite.c: the bytecode builder of bcwrite.h. */
#include "bcwrite.h"

#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/xalloc.h"

struct hp_bcw {
	uint32_t name;
	int64_t version;
	/* strings, interned through an open-addressing hash table */
	hp_buf text;
	uint32_t *str_off, *str_len;
	size_t nstr, capstr;
	uint32_t *hash;
	size_t hashcap;
	hp_bc_const *consts;
	size_t nconsts, capconsts;
	hp_bc_param *params;
	size_t nparams, capparams;
	hp_bc_role *roles;
	size_t nroles, caproles;
	hp_bc_rule *rules;
	size_t nrules, caprules;
	hp_bc_assertion *asserts;
	size_t nasserts, capasserts;
	hp_bc_provider *provs;
	size_t nprovs, capprovs;
	hp_bc_cond *conds;
	size_t nconds, capconds;
	uint8_t *code;
	size_t ncode, capcode;
	hp_bc_srcmap *map;
	size_t nmap, capmap;
	bool have_loc;
	hp_bc_loc loc;
	uint32_t line_text;
};

hp_bcw *hp_bcw_new(void)
{
	hp_bcw *w = hp_xcalloc(1, sizeof *w);
	w->name = hp_bcw_str(w, "");
	return w;
}

void hp_bcw_free(hp_bcw *w)
{
	if (!w)
		return;
	hp_buf_free(&w->text);
	free(w->str_off);
	free(w->str_len);
	free(w->hash);
	free(w->consts);
	free(w->params);
	free(w->roles);
	free(w->rules);
	free(w->asserts);
	free(w->provs);
	free(w->conds);
	free(w->code);
	free(w->map);
	free(w);
}

void hp_bcw_policy(hp_bcw *w, const char *name, int64_t version)
{
	w->name = hp_bcw_str(w, name);
	w->version = version;
}

static uint32_t fnv(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

static void rehash(hp_bcw *w)
{
	size_t cap = w->hashcap ? w->hashcap * 2 : 256;
	uint32_t *h = hp_xmalloc(cap * sizeof *h);
	memset(h, 0xff, cap * sizeof *h);
	for (size_t i = 0; i < w->nstr; i++) {
		size_t k = fnv(w->text.data + w->str_off[i], w->str_len[i]) & (cap - 1);
		while (h[k] != UINT32_MAX)
			k = (k + 1) & (cap - 1);
		h[k] = (uint32_t)i;
	}
	free(w->hash);
	w->hash = h;
	w->hashcap = cap;
}

/* Append a string without interning it (a list constant's items must be
 * consecutive); it joins the hash table only if no equal string is there. */
static uint32_t add_string(hp_bcw *w, const char *s, size_t len, size_t slot, bool hashed)
{
	size_t cap = w->capstr;
	w->str_off = hp_xgrow(w->str_off, &cap, w->nstr + 1, sizeof *w->str_off);
	w->str_len = hp_xgrow(w->str_len, &w->capstr, w->nstr + 1, sizeof *w->str_len);
	w->str_off[w->nstr] = (uint32_t)w->text.len;
	w->str_len[w->nstr] = (uint32_t)len;
	hp_buf_append(&w->text, s, len);
	hp_buf_putc(&w->text, '\0');
	if (!hashed)
		w->hash[slot] = (uint32_t)w->nstr;
	return (uint32_t)w->nstr++;
}

/* The hash slot of s: where it is, or where it would go. */
static size_t find_slot(hp_bcw *w, const char *s, size_t len, bool *found)
{
	if ((w->nstr + 1) * 2 > w->hashcap)
		rehash(w);
	size_t k = fnv(s, len) & (w->hashcap - 1);
	while (w->hash[k] != UINT32_MAX) {
		uint32_t i = w->hash[k];
		if (w->str_len[i] == len && memcmp(w->text.data + w->str_off[i], s, len) == 0) {
			*found = true;
			return k;
		}
		k = (k + 1) & (w->hashcap - 1);
	}
	*found = false;
	return k;
}

uint32_t hp_bcw_list(hp_bcw *w, const hp_str *items, uint32_t n)
{
	for (size_t c = 0; c < w->nconsts; c++) {
		if (w->consts[c].type != HP_T_LIST || (uint32_t)(w->consts[c].value >> 32) != n)
			continue;
		uint32_t first = (uint32_t)w->consts[c].value;
		uint32_t k = 0;
		while (k < n && w->str_len[first + k] == items[k].len &&
		       memcmp(w->text.data + w->str_off[first + k], items[k].p, items[k].len) == 0)
			k++;
		if (k == n)
			return (uint32_t)c;
	}
	uint32_t first = (uint32_t)w->nstr;
	for (uint32_t i = 0; i < n; i++) {
		bool found;
		size_t slot = find_slot(w, items[i].p, items[i].len, &found);
		add_string(w, items[i].p, items[i].len, slot, found);
	}
	w->consts = hp_xgrow(w->consts, &w->capconsts, w->nconsts + 1, sizeof *w->consts);
	w->consts[w->nconsts].type = HP_T_LIST;
	w->consts[w->nconsts].value = (uint64_t)n << 32 | first;
	return (uint32_t)w->nconsts++;
}

uint32_t hp_bcw_strn(hp_bcw *w, const char *s, size_t len)
{
	bool found;
	size_t slot = find_slot(w, s, len, &found);
	if (found)
		return w->hash[slot];
	return add_string(w, s, len, slot, false);
}

uint32_t hp_bcw_str(hp_bcw *w, const char *s)
{
	return hp_bcw_strn(w, s, strlen(s));
}

uint32_t hp_bcw_const(hp_bcw *w, hp_type type, uint64_t value)
{
	for (size_t i = 0; i < w->nconsts; i++)
		if (w->consts[i].type == type && w->consts[i].value == value)
			return (uint32_t)i;
	w->consts = hp_xgrow(w->consts, &w->capconsts, w->nconsts + 1, sizeof *w->consts);
	w->consts[w->nconsts].type = (uint8_t)type;
	w->consts[w->nconsts].value = value;
	return (uint32_t)w->nconsts++;
}

static hp_bc_loc loc_of(hp_bcw *w, hp_bcw_loc l)
{
	hp_bc_loc r = {hp_bcw_str(w, l.file ? l.file : ""), l.line, l.col};
	return r;
}

void hp_bcw_at(hp_bcw *w, hp_bcw_loc loc, const char *line_text)
{
	w->loc = loc_of(w, loc);
	w->line_text = hp_bcw_str(w, line_text ? line_text : "");
	w->have_loc = true;
}

uint32_t hp_bcw_pc(const hp_bcw *w)
{
	return (uint32_t)w->ncode;
}

static void put16(uint8_t *p, uint32_t x)
{
	p[0] = (uint8_t)x;
	p[1] = (uint8_t)(x >> 8);
}

static void put32(uint8_t *p, uint32_t x)
{
	put16(p, x);
	put16(p + 2, x >> 16);
}

static void put64(uint8_t *p, uint64_t x)
{
	put32(p, (uint32_t)x);
	put32(p + 4, (uint32_t)(x >> 32));
}

uint32_t hp_bcw_emit(hp_bcw *w, hp_opcode op, uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t pc = (uint32_t)w->ncode;
	if (w->have_loc) {
		hp_bc_srcmap *last = w->nmap ? &w->map[w->nmap - 1] : NULL;
		if (!last || last->loc.file != w->loc.file || last->loc.line != w->loc.line ||
		    last->loc.col != w->loc.col || last->line_text != w->line_text) {
			w->map = hp_xgrow(w->map, &w->capmap, w->nmap + 1, sizeof *w->map);
			w->map[w->nmap].pc = pc;
			w->map[w->nmap].loc = w->loc;
			w->map[w->nmap].line_text = w->line_text;
			w->nmap++;
		}
	}
	w->code = hp_xgrow(w->code, &w->capcode, (w->ncode + 1) * HP_BC_INSN_SIZE, 1);
	uint8_t *p = w->code + w->ncode * HP_BC_INSN_SIZE;
	p[0] = (uint8_t)op;
	p[1] = (uint8_t)a;
	put16(p + 2, b);
	put32(p + 4, c);
	w->ncode++;
	return pc;
}

void hp_bcw_set_c(hp_bcw *w, uint32_t pc, uint32_t c)
{
	if (pc < w->ncode)
		put32(w->code + (size_t)pc * HP_BC_INSN_SIZE + 4, c);
}

uint32_t hp_bcw_param(hp_bcw *w, const char *name, hp_type type, hp_bc_region code, hp_bcw_loc loc)
{
	w->params = hp_xgrow(w->params, &w->capparams, w->nparams + 1, sizeof *w->params);
	hp_bc_param *p = &w->params[w->nparams];
	memset(p, 0, sizeof *p);
	p->name = hp_bcw_str(w, name);
	p->type = (uint8_t)type;
	p->code = code;
	p->loc = loc_of(w, loc);
	return (uint32_t)w->nparams++;
}

void hp_bcw_role(hp_bcw *w, hp_role role, unsigned flags, uint32_t keep_caps_const,
                 hp_bc_region identity, hp_bc_region body, hp_bcw_loc loc)
{
	w->roles = hp_xgrow(w->roles, &w->caproles, w->nroles + 1, sizeof *w->roles);
	hp_bc_role *r = &w->roles[w->nroles++];
	memset(r, 0, sizeof *r);
	r->role = (uint8_t)role;
	r->flags = (uint8_t)flags;
	r->keep_caps = keep_caps_const; /* the constant's index, written as is */
	r->identity = identity;
	r->body = body;
	r->loc = loc_of(w, loc);
}

uint32_t hp_bcw_rule(hp_bcw *w, const char *id, const char *title, const char *remedy,
                     hp_applies applies, hp_bcw_loc loc)
{
	w->rules = hp_xgrow(w->rules, &w->caprules, w->nrules + 1, sizeof *w->rules);
	hp_bc_rule *r = &w->rules[w->nrules];
	memset(r, 0, sizeof *r);
	r->id = hp_bcw_str(w, id);
	r->title = hp_bcw_str(w, title);
	r->remedy = remedy ? hp_bcw_str(w, remedy) : HP_BC_NONE;
	r->applies = applies;
	r->first = (uint32_t)w->nasserts;
	r->loc = loc_of(w, loc);
	return (uint32_t)w->nrules++;
}

uint32_t hp_bcw_assertion(hp_bcw *w, hp_role role, hp_bc_assert_kind kind, const char *text,
                          hp_bcw_loc loc)
{
	w->asserts = hp_xgrow(w->asserts, &w->capasserts, w->nasserts + 1, sizeof *w->asserts);
	hp_bc_assertion *a = &w->asserts[w->nasserts];
	memset(a, 0, sizeof *a);
	a->rule = w->nrules ? (uint32_t)w->nrules - 1 : 0;
	a->role = (uint8_t)role;
	a->kind = (uint8_t)kind;
	a->text = hp_bcw_str(w, text);
	a->loc = loc_of(w, loc);
	if (w->nrules)
		w->rules[w->nrules - 1].count++;
	return (uint32_t)w->nasserts++;
}

void hp_bcw_provider(hp_bcw *w, hp_provider p, hp_setting uid_split, hp_bcw_loc loc)
{
	w->provs = hp_xgrow(w->provs, &w->capprovs, w->nprovs + 1, sizeof *w->provs);
	hp_bc_provider *pv = &w->provs[w->nprovs++];
	memset(pv, 0, sizeof *pv);
	pv->provider = (uint8_t)p;
	pv->uid_split = (uint8_t)uid_split;
	pv->first = (uint32_t)w->nconds;
	pv->loc = loc_of(w, loc);
}

void hp_bcw_cond(hp_bcw *w, hp_bc_cond_kind kind, hp_bc_region code, const char *text,
                 const char *because, hp_bcw_loc loc)
{
	w->conds = hp_xgrow(w->conds, &w->capconds, w->nconds + 1, sizeof *w->conds);
	hp_bc_cond *c = &w->conds[w->nconds++];
	memset(c, 0, sizeof *c);
	c->kind = (uint8_t)kind;
	c->code = code;
	c->text = hp_bcw_str(w, text);
	c->because = because ? hp_bcw_str(w, because) : HP_BC_NONE;
	c->loc = loc_of(w, loc);
	if (w->nprovs)
		w->provs[w->nprovs - 1].count++;
}

/* --- serialising ----------------------------------------------------------------- */

static uint8_t *grow_out(hp_buf *b, size_t n)
{
	size_t at = b->len;
	static const uint8_t zeros[64];
	while (n) {
		size_t k = n > sizeof zeros ? sizeof zeros : n;
		hp_buf_append(b, zeros, k);
		n -= k;
	}
	return (uint8_t *)b->data + at;
}

static void out32(hp_buf *b, uint32_t x)
{
	put32(grow_out(b, 4), x);
}

static void out_loc(uint8_t *p, hp_bc_loc l)
{
	put32(p, l.file);
	put32(p + 4, l.line);
	put32(p + 8, l.col);
}

static void out_region(uint8_t *p, hp_bc_region r)
{
	put32(p, r.start);
	put32(p + 4, r.len);
}

static void write_section(hp_bcw *w, hp_bc_section s, hp_buf *b)
{
	uint8_t *p;
	switch (s) {
	case HP_SEC_STRINGS:
		out32(b, (uint32_t)w->nstr);
		for (size_t i = 0; i < w->nstr; i++) {
			out32(b, w->str_off[i]);
			out32(b, w->str_len[i]);
		}
		hp_buf_append(b, w->text.data, w->text.len);
		break;
	case HP_SEC_CONSTS:
		out32(b, (uint32_t)w->nconsts);
		for (size_t i = 0; i < w->nconsts; i++) {
			p = grow_out(b, HP_BC_CONST_SIZE);
			p[0] = w->consts[i].type;
			put64(p + 8, w->consts[i].value);
		}
		break;
	case HP_SEC_PARAMS:
		out32(b, (uint32_t)w->nparams);
		for (size_t i = 0; i < w->nparams; i++) {
			p = grow_out(b, HP_BC_PARAM_SIZE);
			put32(p, w->params[i].name);
			p[4] = w->params[i].type;
			out_region(p + 8, w->params[i].code);
			out_loc(p + 16, w->params[i].loc);
		}
		break;
	case HP_SEC_ROLES:
		out32(b, (uint32_t)w->nroles);
		for (size_t i = 0; i < w->nroles; i++) {
			p = grow_out(b, HP_BC_ROLE_SIZE);
			p[0] = w->roles[i].role;
			p[1] = w->roles[i].flags;
			put32(p + 4, (uint32_t)w->roles[i].keep_caps);
			out_region(p + 8, w->roles[i].identity);
			out_region(p + 16, w->roles[i].body);
			out_loc(p + 24, w->roles[i].loc);
		}
		break;
	case HP_SEC_RULES:
		out32(b, (uint32_t)w->nrules);
		for (size_t i = 0; i < w->nrules; i++) {
			const hp_bc_rule *r = &w->rules[i];
			p = grow_out(b, HP_BC_RULE_SIZE);
			put32(p, r->id);
			put32(p + 4, r->title);
			put32(p + 8, r->remedy);
			put32(p + 12, r->applies);
			put32(p + 16, r->first);
			put32(p + 20, r->count);
			out_loc(p + 24, r->loc);
		}
		out32(b, (uint32_t)w->nasserts);
		for (size_t i = 0; i < w->nasserts; i++) {
			const hp_bc_assertion *a = &w->asserts[i];
			p = grow_out(b, HP_BC_ASSERTION_SIZE);
			put32(p, a->rule);
			p[4] = a->role;
			p[5] = a->kind;
			put32(p + 8, a->text);
			out_loc(p + 12, a->loc);
		}
		break;
	case HP_SEC_PROVIDERS:
		out32(b, (uint32_t)w->nprovs);
		for (size_t i = 0; i < w->nprovs; i++) {
			const hp_bc_provider *pv = &w->provs[i];
			p = grow_out(b, HP_BC_PROVIDER_SIZE);
			p[0] = pv->provider;
			p[1] = pv->uid_split;
			put32(p + 4, pv->first);
			put32(p + 8, pv->count);
			out_loc(p + 12, pv->loc);
		}
		out32(b, (uint32_t)w->nconds);
		for (size_t i = 0; i < w->nconds; i++) {
			const hp_bc_cond *c = &w->conds[i];
			p = grow_out(b, HP_BC_COND_SIZE);
			p[0] = c->kind;
			out_region(p + 4, c->code);
			put32(p + 12, c->text);
			put32(p + 16, c->because);
			out_loc(p + 20, c->loc);
		}
		break;
	case HP_SEC_CODE:
		out32(b, (uint32_t)w->ncode);
		hp_buf_append(b, w->code, w->ncode * HP_BC_INSN_SIZE);
		break;
	case HP_SEC_SRCMAP:
		out32(b, (uint32_t)w->nmap);
		for (size_t i = 0; i < w->nmap; i++) {
			p = grow_out(b, HP_BC_SRCMAP_SIZE);
			put32(p, w->map[i].pc);
			out_loc(p + 4, w->map[i].loc);
			put32(p + 16, w->map[i].line_text);
		}
		break;
	case HP_SEC_COUNT:
	default:
		break;
	}
}

void hp_bc_reseal(uint8_t *data, size_t len)
{
	if (len < HP_BC_HEADER_SIZE)
		return;
	put32(data + 12, (uint32_t)len);
	put32(data + 16, 0);
	put32(data + 16, hp_crc32(0, data, len));
}

uint8_t *hp_bcw_finish(hp_bcw *w, size_t *len)
{
	hp_buf b = {0};
	size_t dir = HP_BC_HEADER_SIZE;
	uint8_t *p = grow_out(&b, dir + (size_t)HP_SEC_COUNT * HP_BC_DIRENT_SIZE);
	memcpy(p, HP_BC_MAGIC, HP_BC_MAGIC_LEN);
	put16(p + 8, HP_BC_VERSION);
	put32(p + 20, w->name);
	put64(p + 24, (uint64_t)w->version);
	put32(p + 32, HP_SEC_COUNT);
	for (unsigned s = 0; s < HP_SEC_COUNT; s++) {
		size_t start = b.len;
		write_section(w, (hp_bc_section)s, &b);
		p = (uint8_t *)b.data + dir + (size_t)s * HP_BC_DIRENT_SIZE;
		put32(p, s);
		put32(p + 4, (uint32_t)start);
		put32(p + 8, (uint32_t)(b.len - start));
	}
	hp_bc_reseal((uint8_t *)b.data, b.len);
	*len = b.len;
	return (uint8_t *)b.data;
}
