/* result.c: building, encoding, decoding and printing a role's result
 * (result.h). Decoding is written for bytes from another process: every
 * count is checked against the length before anything is allocated, and
 * every index and offset against the program and the blob. */
#include "vm/result.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const hp_outcome_names[HP_OUT_COUNT] = {"holds", "fails", "unknown", "absent",
                                                    "skipped"};
const char *const hp_run_status_names[HP_RUN_COUNT] = {"complete", "stopped", "not run"};

#define RES_MAGIC "HPRR"
#define RES_VERSION 2u
#define RES_HEADER 60 /* magic, version, role, status, reason, stop_pc, steps, probes, 5 counts */
#define HP_VM_RESULT_POOL (64u << 20)

void hp_role_result_init(hp_role_result *r, hp_role role)
{
	memset(r, 0, sizeof *r);
	r->role = role;
	r->status = HP_RUN_COMPLETE;
	r->reason = HP_RES_NONE;
	r->stop_pc = HP_RES_NONE;
}

void hp_role_result_free(hp_role_result *r)
{
	free(r->outcomes);
	free(r->obs);
	free(r->binds);
	free(r->facts);
	hp_buf_free(&r->data);
	memset(r, 0, sizeof *r);
}

void hp_role_result_not_run(hp_role_result *r, hp_role role, const char *reason)
{
	hp_role_result_init(r, role);
	r->status = HP_RUN_NOT_RUN;
	r->reason = (uint32_t)r->data.len;
	hp_buf_puts(&r->data, reason);
	hp_buf_putc(&r->data, '\0');
}

static bool str_ok(const uint8_t *data, size_t n, uint32_t off)
{
	return off < n && memchr(data + off, 0, n - off) != NULL;
}

const char *hp_role_result_str(const hp_role_result *r, uint32_t off)
{
	if (off == HP_RES_NONE || !str_ok((const uint8_t *)r->data.data, r->data.len, off))
		return NULL;
	return r->data.data + off;
}

bool hp_role_result_value(const hp_role_result *r, uint32_t off, hp_pool *pool, hp_value *v)
{
	hp_err err;
	size_t at = off;
	if (off == HP_RES_NONE)
		return false;
	return hp_value_decode((const uint8_t *)r->data.data, r->data.len, &at, pool, v, &err);
}

/* --- encoding ------------------------------------------------------------------- */

static void put32(hp_buf *b, uint32_t x)
{
	uint8_t p[4] = {(uint8_t)x, (uint8_t)(x >> 8), (uint8_t)(x >> 16), (uint8_t)(x >> 24)};
	hp_buf_append(b, p, 4);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void hp_role_result_encode(const hp_role_result *r, hp_buf *out)
{
	hp_buf_append(out, RES_MAGIC, 4);
	put32(out, RES_VERSION);
	put32(out, r->role);
	put32(out, r->status);
	put32(out, r->reason);
	put32(out, r->stop_pc);
	put32(out, (uint32_t)r->steps);
	put32(out, (uint32_t)(r->steps >> 32));
	put32(out, (uint32_t)r->probes);
	put32(out, (uint32_t)(r->probes >> 32));
	put32(out, r->noutcomes);
	put32(out, r->nobs);
	put32(out, r->nbinds);
	put32(out, r->nfacts);
	put32(out, (uint32_t)r->data.len);
	for (uint32_t i = 0; i < r->noutcomes; i++) {
		const hp_outcome *o = &r->outcomes[i];
		put32(out, o->assertion);
		put32(out, o->kind);
		put32(out, o->value);
		put32(out, o->obs_first);
		put32(out, o->obs_count);
		put32(out, o->bind_first);
		put32(out, o->bind_count);
	}
	for (uint32_t i = 0; i < r->nobs; i++)
		put32(out, r->obs[i]);
	for (uint32_t i = 0; i < r->nbinds; i++) {
		put32(out, r->binds[i].name);
		put32(out, r->binds[i].value);
	}
	for (uint32_t i = 0; i < r->nfacts; i++) {
		put32(out, r->facts[i].probe);
		put32(out, r->facts[i].role);
		put32(out, r->facts[i].arg);
		put32(out, r->facts[i].answer);
		put32(out, r->facts[i].where);
	}
	hp_buf_append(out, r->data.data, r->data.len);
}

static bool bad(hp_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool bad(hp_err *err, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	hp_err_set(err, "role result: %s", msg);
	return false;
}

/* The value at off is well formed and of type want (or a non-value of
 * it); *state gets its state. */
static bool value_ok(const uint8_t *data, size_t n, uint32_t off, hp_type want, uint8_t *state,
                     hp_err *err, const char *what)
{
	size_t at = off;
	hp_err e;
	hp_pool pool;
	hp_value v;
	if (off >= n)
		return bad(err, "%s: data offset %u out of range (%zu bytes)", what, off, n);
	hp_pool_init(&pool, HP_VM_RESULT_POOL);
	bool ok = hp_value_decode(data, n, &at, &pool, &v, &e);
	hp_pool_free(&pool);
	if (!ok)
		return bad(err, "%s: %s", what, e.msg);
	if (v.type != want)
		return bad(err, "%s: a %s where a %s belongs", what, hp_type_names[v.type],
		           hp_type_names[want]);
	*state = v.state;
	return true;
}

bool hp_role_result_decode(const hp_bc *bc, const uint8_t *p, size_t len, hp_role_result *r,
                           hp_err *err)
{
	hp_role_result_init(r, HP_ROLE_ROOT);
	if (len < RES_HEADER)
		return bad(err, "truncated: %zu bytes, the header needs %u", len, RES_HEADER);
	if (memcmp(p, RES_MAGIC, 4) != 0)
		return bad(err, "bad magic");
	if (get32(p + 4) != RES_VERSION)
		return bad(err, "version %u, expected %u", get32(p + 4), RES_VERSION);
	uint32_t role = get32(p + 8), status = get32(p + 12);
	uint32_t reason = get32(p + 16), stop_pc = get32(p + 20);
	uint64_t steps = get32(p + 24) | (uint64_t)get32(p + 28) << 32;
	uint64_t probes = get32(p + 32) | (uint64_t)get32(p + 36) << 32;
	uint32_t no = get32(p + 40), nobs = get32(p + 44), nb = get32(p + 48);
	uint32_t nf = get32(p + 52), nd = get32(p + 56);
	if (role >= HP_ROLE_COUNT || status >= HP_RUN_COUNT)
		return bad(err, "role %u or status %u out of range", role, status);
	uint64_t need = RES_HEADER + (uint64_t)no * 28 + (uint64_t)nobs * 4 + (uint64_t)nb * 8 +
	                (uint64_t)nf * 20 + nd;
	if (need != len)
		return bad(err, "the counts need %llu bytes, there are %zu",
		           (unsigned long long)need, len);
	const uint8_t *q = p + RES_HEADER;
	const uint8_t *data = p + len - nd;
	if (reason != HP_RES_NONE && !str_ok(data, nd, reason))
		return bad(err, "reason: data offset %u is not a string", reason);
	if (status == HP_RUN_STOPPED ? stop_pc >= bc->ncode : stop_pc != HP_RES_NONE)
		return bad(err, "stop instruction %u out of place", stop_pc);
	uint8_t state;
	bool ok = true;
	r->outcomes = hp_xcalloc(no, sizeof *r->outcomes);
	r->obs = hp_xcalloc(nobs, sizeof *r->obs);
	r->binds = hp_xcalloc(nb, sizeof *r->binds);
	r->facts = hp_xcalloc(nf, sizeof *r->facts);
	r->noutcomes = no;
	r->nobs = nobs;
	r->nbinds = nb;
	r->nfacts = nf;
	for (uint32_t i = 0; i < no && ok; i++, q += 28) {
		hp_outcome *o = &r->outcomes[i];
		o->assertion = get32(q);
		o->kind = get32(q + 4);
		o->value = get32(q + 8);
		o->obs_first = get32(q + 12);
		o->obs_count = get32(q + 16);
		o->bind_first = get32(q + 20);
		o->bind_count = get32(q + 24);
		if (o->assertion >= bc->nasserts || bc->asserts[o->assertion].role != role)
			ok = bad(err, "outcome %u: assertion %u is not one of role %s's", i,
			         o->assertion, hp_role_names[role]);
		else if (o->kind >= HP_OUT_COUNT)
			ok = bad(err, "outcome %u: kind %u", i, o->kind);
		else if (o->obs_first > nobs || o->obs_count > nobs - o->obs_first)
			ok = bad(err, "outcome %u: observations out of range", i);
		else if (o->bind_first > nb || o->bind_count > nb - o->bind_first ||
		         o->bind_count > HP_BC_MAX_LOOP_DEPTH)
			ok = bad(err, "outcome %u: loop variables out of range", i);
		else if (o->kind <= HP_OUT_FAILS && o->value != HP_RES_NONE)
			ok = bad(err, "outcome %u: a %s outcome carries a value", i,
			         hp_outcome_names[o->kind]);
		else if (o->kind > HP_OUT_FAILS &&
		         !value_ok(data, nd, o->value, HP_T_BOOL, &state, err, "outcome value"))
			ok = false;
		else if (o->kind > HP_OUT_FAILS &&
		         state != (o->kind == HP_OUT_UNKNOWN  ? HP_VAL_UNKNOWN
		                   : o->kind == HP_OUT_ABSENT ? HP_VAL_ABSENT
		                                              : HP_VAL_SKIPPED))
			ok = bad(err, "outcome %u: its value is %s, its kind %s", i,
			         hp_vstate_names[state], hp_outcome_names[o->kind]);
	}
	for (uint32_t i = 0; i < nobs && ok; i++, q += 4) {
		r->obs[i] = get32(q);
		if (r->obs[i] >= nf)
			ok = bad(err, "observation %u: fact %u out of range", i, r->obs[i]);
	}
	for (uint32_t i = 0; i < nb && ok; i++, q += 8) {
		r->binds[i].name = get32(q);
		r->binds[i].value = get32(q + 4);
		if (r->binds[i].name >= bc->nstrings || !str_ok(data, nd, r->binds[i].value))
			ok = bad(err, "loop variable %u out of range", i);
	}
	for (uint32_t i = 0; i < nf && ok; i++, q += 20) {
		hp_fact *f = &r->facts[i];
		f->probe = get32(q);
		f->role = get32(q + 4);
		f->arg = get32(q + 8);
		f->answer = get32(q + 12);
		f->where = get32(q + 16);
		if (f->probe >= HP_PROBE_COUNT || f->role >= HP_ROLE_COUNT)
			ok = bad(err, "fact %u: probe %u or role %u out of range", i, f->probe,
			         f->role);
		else if (f->where != HP_RES_NONE && !str_ok(data, nd, f->where))
			ok = bad(err, "fact %u: where: data offset %u is not a string", i, f->where);
		else if (!value_ok(data, nd, f->arg, hp_probes[f->probe].arg, &state, err,
		                   "fact argument") ||
		         !value_ok(data, nd, f->answer, hp_probes[f->probe].result, &state, err,
		                   "fact answer"))
			ok = false;
	}
	if (!ok) {
		hp_role_result_free(r);
		return false;
	}
	r->role = role;
	r->status = status;
	r->reason = reason;
	r->stop_pc = stop_pc;
	r->steps = steps;
	r->probes = probes;
	hp_buf_append(&r->data, data, nd);
	return true;
}

/* --- evidence ------------------------------------------------------------------------- */

static void format_fact(hp_buf *b, const hp_role_result *r, const hp_fact *f, hp_pool *pool)
{
	hp_value arg, ans;
	const hp_probe_info *pi = &hp_probes[f->probe];
	const char *where = hp_role_result_str(r, f->where);
	if (where)
		hp_buf_puts(b, where); /* the value's own place: a document's file:line:col */
	else
		hp_buf_puts(b, pi->name);
	if (!where && pi->arg != HP_T_NONE && hp_role_result_value(r, f->arg, pool, &arg)) {
		hp_buf_putc(b, '(');
		hp_value_format(b, &arg);
		hp_buf_putc(b, ')');
	}
	if (pi->scope == HP_SCOPE_ROLE)
		hp_buf_printf(b, " as %s", hp_role_names[f->role]);
	hp_buf_puts(b, " is ");
	if (hp_role_result_value(r, f->answer, pool, &ans))
		hp_value_format(b, &ans);
	else
		hp_buf_puts(b, "?");
}

void hp_outcome_format(hp_buf *b, const hp_bc *bc, const hp_role_result *r, const hp_outcome *o)
{
	const hp_bc_assertion *a = &bc->asserts[o->assertion];
	hp_pool pool;
	hp_pool_init(&pool, HP_VM_RESULT_POOL);
	hp_buf_printf(b, "%s (", hp_bc_str(bc, a->text));
	hp_bc_loc_format(b, bc, a->loc);
	hp_buf_printf(b, ") as %s: ", hp_role_names[r->role]);
	hp_value v;
	if (o->kind <= HP_OUT_FAILS)
		hp_buf_puts(b, hp_outcome_names[o->kind]);
	else if (hp_role_result_value(r, o->value, &pool, &v))
		hp_value_format(b, &v);
	else
		hp_buf_puts(b, hp_outcome_names[o->kind]);
	for (uint32_t i = 0; i < o->obs_count; i++) {
		hp_buf_puts(b, i ? ", " : "; observed ");
		format_fact(b, r, &r->facts[r->obs[o->obs_first + i]], &pool);
	}
	for (uint32_t i = 0; i < o->bind_count; i++) {
		const hp_binding *bd = &r->binds[o->bind_first + i];
		hp_buf_printf(b, "%s%s = ", i ? ", " : "; with ", hp_bc_str(bc, bd->name));
		const char *s = hp_role_result_str(r, bd->value);
		hp_value sv = hp_v_str(s ? s : "", s ? (uint32_t)strlen(s) : 0);
		hp_value_format(b, &sv);
	}
	hp_pool_free(&pool);
}
