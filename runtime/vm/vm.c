/* vm.c: the interpreter (vm.h). One loop over verified instructions; the
 * verifier has proved types, stack depths, jump targets and loop nesting,
 * and the loop still checks the program counter and stack pointer on every
 * step (a second line of defence, and cheap). Values that are not KNOWN
 * flow through operators as opcodes.def says. */
#include "vm/vm.h"

#include "vm/ops.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --- operators on values ------------------------------------------------------ */

static int severity(uint8_t state)
{
	static const int s[HP_VAL_STATE_COUNT] = {0, 2, 3, 1}; /* known absent unknown skipped */
	return s[state];
}

/* The non-value an operation on a and b gives (the more severe one, a on a
 * tie), typed t; false when both are KNOWN. */
static inline bool propagate2(const hp_value *a, const hp_value *b, hp_type t, hp_value *out)
{
	if (a->state == HP_VAL_KNOWN && b->state == HP_VAL_KNOWN)
		return false;
	*out = severity(b->state) > severity(a->state) ? *b : *a;
	out->type = (uint8_t)t;
	return true;
}

static inline bool propagate1(const hp_value *a, hp_type t, hp_value *out)
{
	if (a->state == HP_VAL_KNOWN)
		return false;
	*out = *a;
	out->type = (uint8_t)t;
	return true;
}

/* --- the machine ---------------------------------------------------------------- */

typedef struct {
	const hp_str *items;
	uint32_t n, i;
	uint32_t name;     /* the variable's name: a program string */
	uint32_t item_off; /* data offset of the current item, written when first needed */
} loop_slot;

/* The answers of a run, so that each question is asked once and answered
 * the same way every time: entries in the order asked, found through a
 * table of indices by a hash kept with each entry. */
typedef struct {
	uint64_t hash;
	hp_value arg, ans;
	const char *where; /* the backend's evidence of where the answer is from, or NULL */
	uint32_t fact;     /* index in the result's facts, or HP_RES_NONE until observed */
	uint8_t probe;
} cache_entry;

typedef struct {
	const hp_bc *bc;
	hp_backend *b;
	hp_role role;
	const hp_value *params;
	hp_pool *pool;
	hp_role_result *res;
	hp_limits lim;
	struct timespec deadline;
	uint64_t work;
	cache_entry *ents;
	size_t nents, cap_ents;
	/* in front of the cache: the entry a string argument at this address
	 * last found (program strings and the run's own keep their address for
	 * the run), which saves hashing and comparing it */
	struct {
		const char *p;
		uint32_t len, ent;
		int probe; /* -1: empty */
	} memo[1024];
	uint32_t *slots; /* index + 1 into ents; 0 is empty */
	size_t nslots;
	uint32_t obs_mark;
	loop_slot loops[HP_BC_MAX_LOOP_DEPTH];
	hp_value stack[HP_BC_MAX_STACK];
	bool stopped;
} vm;

static void stop(vm *m, uint32_t pc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static uint32_t put_string(hp_role_result *r, const char *s, size_t n)
{
	uint32_t off = (uint32_t)r->data.len;
	hp_buf_append(&r->data, s, n);
	hp_buf_putc(&r->data, '\0');
	return off;
}

static uint32_t put_value(hp_role_result *r, const hp_value *v)
{
	uint32_t off = (uint32_t)r->data.len;
	hp_value_encode(&r->data, v);
	return off;
}

static void stop(vm *m, uint32_t pc, const char *fmt, ...)
{
	if (m->stopped)
		return;
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	m->stopped = true;
	m->res->status = HP_RUN_STOPPED;
	m->res->stop_pc = pc;
	m->res->reason = put_string(m->res, msg, strlen(msg));
}

static bool over_memory(vm *m)
{
	return m->pool->used + m->res->data.len > m->lim.max_memory;
}

static bool past_deadline(vm *m)
{
	if (m->lim.max_millis == 0)
		return false;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > m->deadline.tv_sec ||
	       (now.tv_sec == m->deadline.tv_sec && now.tv_nsec >= m->deadline.tv_nsec);
}

/* Work that is not one instruction (long lists, long strings) counts toward
 * the next clock check, so a slow operation cannot outrun the wall limit. */
static void charge(vm *m, uint64_t units, uint32_t pc)
{
	m->work += units;
	if (m->work >= (1u << 16)) {
		m->work = 0;
		if (past_deadline(m))
			stop(m, pc, "time limit of %" PRIu64 " ms reached", m->lim.max_millis);
	}
}

/* --- probes ------------------------------------------------------------------------- */

static void cache_grow(vm *m)
{
	size_t n = m->nslots ? m->nslots * 2 : 256;
	uint32_t *slots = hp_xcalloc(n, sizeof *slots);
	for (size_t i = 0; i < m->nents; i++) {
		size_t k = m->ents[i].hash & (n - 1);
		while (slots[k])
			k = (k + 1) & (n - 1);
		slots[k] = (uint32_t)i + 1;
	}
	free(m->slots);
	m->slots = slots;
	m->nslots = n;
}

/* The entry for (probe, arg), or HP_RES_NONE; *slot is where a new one goes. */
static uint32_t cache_find(vm *m, unsigned probe, const hp_value *arg, uint64_t h, size_t *slot)
{
	if ((m->nents + 1) * 2 > m->nslots)
		cache_grow(m);
	size_t k = h & (m->nslots - 1);
	for (uint32_t i; (i = m->slots[k]); k = (k + 1) & (m->nslots - 1)) {
		const cache_entry *e = &m->ents[i - 1];
		if (e->hash == h && e->probe == probe && hp_value_equal(&e->arg, arg))
			return i - 1;
	}
	*slot = k;
	return HP_RES_NONE;
}

static uint32_t cache_add(vm *m, size_t slot, uint64_t h, unsigned probe, const hp_value *arg,
                          const hp_value *ans, const char *where, uint32_t fact)
{
	m->ents = hp_xgrow(m->ents, &m->cap_ents, m->nents + 1, sizeof *m->ents);
	cache_entry *e = &m->ents[m->nents];
	e->hash = h;
	e->probe = (uint8_t)probe;
	e->arg = *arg;
	e->ans = *ans;
	e->where = where;
	e->fact = fact;
	m->slots[slot] = (uint32_t)++m->nents;
	return (uint32_t)m->nents - 1;
}

static void add_fact(vm *m, cache_entry *e, hp_role asked_as)
{
	hp_role_result *r = m->res;
	r->facts = hp_xgrow(r->facts, &r->cap_facts, (size_t)r->nfacts + 1, sizeof *r->facts);
	hp_fact *f = &r->facts[r->nfacts];
	f->probe = e->probe;
	f->role = asked_as;
	f->arg = put_value(r, &e->arg);
	f->answer = put_value(r, &e->ans);
	f->where = e->where ? put_string(r, e->where, strlen(e->where)) : HP_RES_NONE;
	e->fact = r->nfacts++;
}

/* Note that the assertion being evaluated saw a fact (once, however often). */
static void observe(vm *m, uint32_t fact)
{
	hp_role_result *r = m->res;
	for (uint32_t i = m->obs_mark; i < r->nobs; i++)
		if (r->obs[i] == fact)
			return;
	if (r->nobs == r->cap_obs)
		r->obs = hp_xgrow(r->obs, &r->cap_obs, (size_t)r->nobs + 1, sizeof *r->obs);
	r->obs[r->nobs++] = fact;
}

/* Check an answer against the probe's result type: anything else is
 * UNKNOWN, and so is a non-value without a reason where one is needed. */
static hp_value checked_answer(vm *m, unsigned probe, hp_value v)
{
	hp_type want = hp_probes[probe].result;
	if (v.state >= HP_VAL_STATE_COUNT)
		return hp_v_unknown(want, "the backend gave an answer in no known state");
	if (v.state != HP_VAL_KNOWN) {
		v.type = (uint8_t)want;
		if (!v.u.reason && v.state != HP_VAL_ABSENT)
			v.u.reason = v.state == HP_VAL_UNKNOWN ? "the backend gave no reason"
			                                       : "skipped by the backend";
		return v;
	}
	if (v.type != want) {
		const char *msg = NULL;
		char buf[160];
		snprintf(buf, sizeof buf, "the %s backend answered a %s, not a %s", m->b->ops->name,
		         v.type < HP_T_COUNT ? hp_type_names[v.type] : "?", hp_type_names[want]);
		msg = hp_pool_strndup(m->pool, buf, strlen(buf));
		return hp_v_unknown(want, msg ? msg : "the backend answered the wrong type");
	}
	return v;
}

/* The answer of a cache entry, observed by the assertion being evaluated. */
static hp_value answer(vm *m, cache_entry *e, hp_role asked_as, uint32_t pc)
{
	if (e->fact == HP_RES_NONE) {
		add_fact(m, e, asked_as); /* first asked here, or answered in phase one */
		if (over_memory(m))
			stop(m, pc, "memory limit of %zu bytes reached", m->lim.max_memory);
	}
	observe(m, e->fact);
	return e->ans;
}

static hp_value ask(vm *m, unsigned probe, const hp_value *arg, uint32_t pc)
{
	hp_type rt = hp_probes[probe].result;
	hp_value out;
	if (propagate1(arg, rt, &out))
		return out;
	if (++m->res->probes > m->lim.max_probes) {
		stop(m, pc, "probe limit of %" PRIu64 " reached", m->lim.max_probes);
		return hp_v_unknown(rt, "probe limit reached");
	}
	hp_role asked_as = hp_probes[probe].scope == HP_SCOPE_GLOBAL ? HP_ROLE_ROOT : m->role;
	size_t mk = 0;
	bool memoable = arg->type == HP_T_STR;
	if (memoable) {
		mk = (((uintptr_t)arg->u.s.p >> 3) ^ (probe * 0x9e3779b9u)) & 1023;
		if (m->memo[mk].p == arg->u.s.p && m->memo[mk].len == arg->u.s.len &&
		    m->memo[mk].probe == (int)probe)
			return answer(m, &m->ents[m->memo[mk].ent], asked_as, pc);
	}
	uint64_t h = hp_question_hash(probe, 0, arg);
	size_t slot;
	uint32_t i = cache_find(m, probe, arg, h, &slot);
	if (i == HP_RES_NONE) {
		hp_value ans =
		    checked_answer(m, probe, hp_backend_ask(m->b, asked_as, probe, arg, m->pool));
		const char *where = hp_backend_where(m->b, asked_as, probe, arg, m->pool);
		i = cache_add(m, slot, h, probe, arg, &ans, where, HP_RES_NONE);
		if (past_deadline(m))
			stop(m, pc, "time limit of %" PRIu64 " ms reached", m->lim.max_millis);
	}
	if (memoable) {
		m->memo[mk].p = arg->u.s.p;
		m->memo[mk].len = arg->u.s.len;
		m->memo[mk].probe = (int)probe;
		m->memo[mk].ent = i;
	}
	return answer(m, &m->ents[i], asked_as, pc);
}

static void seed_cache(vm *m, const hp_globals *g)
{
	for (uint32_t i = 0; i < g->nseeds; i++) {
		uint64_t h = hp_question_hash(g->seed_probe[i], 0, &g->seed_arg[i]);
		size_t slot;
		if (cache_find(m, g->seed_probe[i], &g->seed_arg[i], h, &slot) == HP_RES_NONE)
			cache_add(m, slot, h, g->seed_probe[i], &g->seed_arg[i], &g->seed_ans[i],
			          g->seed_where[i], HP_RES_NONE);
	}
}

/* --- assertions ------------------------------------------------------------------- */

static uint32_t loop_item(vm *m, unsigned slot)
{
	loop_slot *l = &m->loops[slot];
	if (l->item_off == HP_RES_NONE) {
		hp_str s = l->items[l->i];
		l->item_off = put_string(m->res, s.p, s.len);
	}
	return l->item_off;
}

static void record(vm *m, uint32_t assertion, const hp_value *v, unsigned nloops, uint32_t pc)
{
	hp_role_result *r = m->res;
	if (r->noutcomes == r->cap_outcomes)
		r->outcomes = hp_xgrow(r->outcomes, &r->cap_outcomes, (size_t)r->noutcomes + 1,
		                       sizeof *r->outcomes);
	hp_outcome *o = &r->outcomes[r->noutcomes++];
	o->assertion = assertion;
	o->value = HP_RES_NONE;
	switch (v->state) {
	case HP_VAL_KNOWN: {
		bool forbid = m->bc->asserts[assertion].kind == HP_BC_FORBID;
		o->kind = (v->u.b != forbid) ? HP_OUT_HOLDS : HP_OUT_FAILS;
		break;
	}
	case HP_VAL_ABSENT:
		o->kind = HP_OUT_ABSENT;
		o->value = put_value(r, v);
		break;
	case HP_VAL_SKIPPED:
		o->kind = HP_OUT_SKIPPED;
		o->value = put_value(r, v);
		break;
	default:
		o->kind = HP_OUT_UNKNOWN;
		o->value = put_value(r, v);
		break;
	}
	o->obs_first = m->obs_mark;
	o->obs_count = r->nobs - m->obs_mark;
	m->obs_mark = r->nobs;
	o->bind_first = r->nbinds;
	o->bind_count = nloops;
	for (unsigned i = 0; i < nloops; i++) {
		if (r->nbinds == r->cap_binds)
			r->binds = hp_xgrow(r->binds, &r->cap_binds, (size_t)r->nbinds + 1,
			                    sizeof *r->binds);
		r->binds[r->nbinds].name = m->loops[i].name;
		r->binds[r->nbinds].value = loop_item(m, i);
		r->nbinds++;
	}
	if (over_memory(m))
		stop(m, pc, "memory limit of %zu bytes reached", m->lim.max_memory);
}

/* A loop whose list is not a usable value: every assertion in its body gets
 * that value instead of running. */
static void skip_body(vm *m, uint32_t from, uint32_t to, const hp_value *why, unsigned nloops,
                      uint32_t pc)
{
	for (uint32_t p = from; p < to && !m->stopped; p++) {
		const hp_insn *in = &m->bc->code[p];
		if (in->op == HP_I_REQUIRE || in->op == HP_I_FORBID)
			record(m, in->c, why, nloops, pc);
	}
}

/* --- the loop ----------------------------------------------------------------------- */

#define POP() (--sp)
#define TOP (sp[-1])

static bool run(vm *m, hp_bc_region r, hp_value *ret)
{
	const hp_insn *code = m->bc->code;
	const uint32_t end = r.start + r.len;
	hp_value *const base = m->stack, *const limit = m->stack + HP_BC_MAX_STACK;
	hp_value *sp = base;
	unsigned nloops = 0;
	uint64_t steps = m->res->steps;
	const uint64_t max_steps = m->lim.max_steps;
	uint32_t pc = r.start;
	bool ok = false;
	hp_value t;

	for (;;) {
		if (m->stopped)
			break;
		if (pc >= end || pc < r.start) {
			stop(m, pc, "internal check: instruction %u is outside its region", pc);
			break;
		}
		const hp_insn *in = &code[pc];
		if (++steps > max_steps) {
			stop(m, pc, "instruction limit of %" PRIu64 " reached", max_steps);
			break;
		}
		if ((steps & 1023) == 0 && past_deadline(m)) {
			stop(m, pc, "time limit of %" PRIu64 " ms reached", m->lim.max_millis);
			break;
		}
		const hp_opcode_info *info = &hp_opcodes[in->op];
		if (sp - base < info->npops || (info->npushes && sp - info->npops >= limit)) {
			stop(m, pc, "internal check: stack out of bounds");
			break;
		}
		switch ((hp_opcode)in->op) {
		case HP_I_END:
			ok = true;
			goto done;
		case HP_I_RETURN:
			if (ret)
				*ret = TOP;
			ok = true;
			goto done;
		case HP_I_PUSH_BOOL:
			*sp++ = hp_v_bool(in->a != 0);
			break;
		case HP_I_PUSH_INT:
			*sp++ = hp_v_int((int64_t)m->bc->consts[in->c].value);
			break;
		case HP_I_PUSH_STR:
			*sp++ = hp_v_str(m->bc->strings[in->c].p, m->bc->strings[in->c].len);
			break;
		case HP_I_PUSH_CAPS:
			*sp++ = hp_v_caps(m->bc->consts[in->c].value);
			break;
		case HP_I_PUSH_LIST: {
			uint64_t k = m->bc->consts[in->c].value;
			*sp++ = hp_v_list(m->bc->strings + (uint32_t)k, (uint32_t)(k >> 32));
			break;
		}
		case HP_I_PUSH_ROLE:
			*sp++ = hp_v_role((hp_role)in->a);
			break;
		case HP_I_EMPTY_LIST:
			*sp++ = hp_v_list(NULL, 0);
			break;
		case HP_I_APPEND: {
			hp_value s = *POP();
			if (!propagate2(&TOP, &s, HP_T_LIST, &t)) {
				charge(m, TOP.u.l.n, pc);
				t = hp_op_append(m->pool, TOP.u.l, s.u.s);
			}
			TOP = t;
			break;
		}
		case HP_I_LOAD_PARAM:
			*sp++ = m->params[in->c];
			break;
		case HP_I_LOAD_LOCAL: {
			const loop_slot *l = &m->loops[in->a];
			if (in->a >= nloops) {
				stop(m, pc, "internal check: loop slot %u is not open", in->a);
				goto done;
			}
			*sp++ = hp_v_str(l->items[l->i].p, l->items[l->i].len);
			break;
		}
		case HP_I_POP:
			--sp;
			break;
		case HP_I_NOT:
			if (TOP.state == HP_VAL_KNOWN)
				TOP.u.b = !TOP.u.b;
			break;
		case HP_I_AND:
		case HP_I_OR: {
			hp_value b = *POP();
			hp_value *a = &TOP;
			bool decides = in->op == HP_I_OR; /* OR: a known true decides */
			if ((a->state == HP_VAL_KNOWN && a->u.b == decides) ||
			    (b.state == HP_VAL_KNOWN && b.u.b == decides))
				*a = hp_v_bool(decides);
			else if (!propagate2(a, &b, HP_T_BOOL, &t))
				*a = hp_v_bool(!decides);
			else
				*a = t;
			break;
		}
		case HP_I_JUMP_FALSE:
			if (TOP.state == HP_VAL_KNOWN && !TOP.u.b) {
				pc = in->c;
				continue;
			}
			break;
		case HP_I_JUMP_TRUE:
			if (TOP.state == HP_VAL_KNOWN && TOP.u.b) {
				pc = in->c;
				continue;
			}
			break;
		case HP_I_JUMP_PRESENT:
			if (TOP.state != HP_VAL_ABSENT) {
				pc = in->c;
				continue;
			}
			break;
		case HP_I_EQ:
		case HP_I_NE: {
			hp_value b = *POP();
			if (!propagate2(&TOP, &b, HP_T_BOOL, &t)) {
				charge(m, TOP.type == HP_T_LIST ? TOP.u.l.n : 0, pc);
				t = hp_v_bool(hp_value_equal(&TOP, &b) == (in->op == HP_I_EQ));
			}
			TOP = t;
			break;
		}
		case HP_I_LT:
		case HP_I_LE:
		case HP_I_GT:
		case HP_I_GE: {
			hp_value b = *POP();
			if (!propagate2(&TOP, &b, HP_T_BOOL, &t)) {
				t = hp_v_bool(hp_op_compare(in->op, TOP.u.i, b.u.i));
			}
			TOP = t;
			break;
		}
		case HP_I_SUBSET:
		case HP_I_SUPERSET: {
			hp_value b = *POP();
			if (!propagate2(&TOP, &b, HP_T_BOOL, &t)) {
				if (TOP.type == HP_T_LIST)
					charge(m, (uint64_t)TOP.u.l.n + b.u.l.n, pc);
				t = in->op == HP_I_SUBSET ? hp_op_subset(m->pool, &TOP, &b)
				                          : hp_op_subset(m->pool, &b, &TOP);
			}
			TOP = t;
			break;
		}
		case HP_I_IN: {
			hp_value l = *POP();
			if (!propagate2(&TOP, &l, HP_T_BOOL, &t)) {
				charge(m, l.u.l.n, pc);
				t = hp_v_bool(hp_op_in(TOP.u.s, l.u.l));
			}
			TOP = t;
			break;
		}
		case HP_I_CONCAT: {
			hp_value b = *POP();
			if (!propagate2(&TOP, &b, HP_T_STR, &t)) {
				charge(m, ((uint64_t)TOP.u.s.len + b.u.s.len) / 16, pc);
				t = hp_op_concat(m->pool, TOP.u.s, b.u.s);
			}
			TOP = t;
			break;
		}
		case HP_I_TO_STR:
			if (!propagate1(&TOP, HP_T_STR, &t))
				t = hp_op_to_str(m->pool, TOP.u.i);
			TOP = t;
			break;
		case HP_I_BAND: {
			hp_value b = *POP();
			if (!propagate2(&TOP, &b, HP_T_INT, &t))
				t = hp_v_int(TOP.u.i & b.u.i);
			TOP = t;
			break;
		}
		case HP_I_INTERSECT: {
			hp_value b = *POP();
			if (!propagate2(&TOP, &b, TOP.type, &t)) {
				if (TOP.type == HP_T_LIST)
					charge(m, (uint64_t)TOP.u.l.n + b.u.l.n, pc);
				t = hp_op_intersect(m->pool, &TOP, &b);
			}
			TOP = t;
			break;
		}
		case HP_I_EXISTS:
			if (TOP.state == HP_VAL_KNOWN)
				TOP = hp_v_bool(true);
			else if (TOP.state == HP_VAL_ABSENT)
				TOP = hp_v_bool(false);
			else
				TOP.type = HP_T_BOOL;
			break;
		case HP_I_FIELD:
			if (!propagate1(&TOP, hp_rfields[in->a].type, &t))
				t = hp_op_field(&TOP, in->a);
			TOP = t;
			break;
		case HP_I_SPLIT: {
			hp_value b = *POP();
			if (!propagate2(&TOP, &b, HP_T_LIST, &t)) {
				charge(m, TOP.u.s.len, pc);
				t = hp_op_split(m->pool, TOP.u.s, b.u.s);
			}
			TOP = t;
			break;
		}
		case HP_I_PROBE0: {
			hp_value none = hp_v_none();
			t = ask(m, in->b, &none, pc);
			*sp++ = t;
			break;
		}
		case HP_I_PROBE1:
			TOP = ask(m, in->b, &TOP, pc);
			break;
		case HP_I_FOR: {
			hp_value l = *POP();
			uint32_t endfor = in->aux;
			loop_slot *s = &m->loops[nloops];
			if (in->a != nloops || nloops >= HP_BC_MAX_LOOP_DEPTH || endfor <= pc ||
			    endfor >= end) {
				stop(m, pc, "internal check: malformed loop");
				goto done;
			}
			if (l.state == HP_VAL_KNOWN && l.u.l.n <= in->c) {
				if (l.u.l.n == 0) {
					pc = endfor + 1;
					continue;
				}
				s->items = l.u.l.items;
				s->n = l.u.l.n;
				s->i = 0;
				s->name = code[endfor].c;
				s->item_off = HP_RES_NONE;
				nloops++;
				break;
			}
			if (l.state == HP_VAL_KNOWN) {
				char buf[120];
				snprintf(buf, sizeof buf,
				         "the list has %u items, more than the loop's bound of %u",
				         l.u.l.n, in->c);
				const char *p = hp_pool_strndup(m->pool, buf, strlen(buf));
				l = hp_v_unknown(
				    HP_T_BOOL, p ? p : "the list is longer than the loop's bound");
			}
			l.type = HP_T_BOOL;
			skip_body(m, pc + 1, endfor, &l, nloops, pc);
			pc = endfor + 1;
			continue;
		}
		case HP_I_ENDFOR: {
			if (nloops == 0 || in->a != nloops - 1) {
				stop(m, pc, "internal check: loop end without its loop");
				goto done;
			}
			loop_slot *s = &m->loops[nloops - 1];
			if (++s->i < s->n) {
				s->item_off = HP_RES_NONE;
				pc = in->aux + 1;
				continue;
			}
			nloops--;
			break;
		}
		case HP_I_REQUIRE:
		case HP_I_FORBID:
			m->res->steps = steps;
			record(m, in->c, &TOP, nloops, pc);
			--sp;
			break;
		case HP_I_COUNT:
		default:
			stop(m, pc, "internal check: unknown opcode %u", in->op);
			goto done;
		}
		pc++;
	}
done:
	m->res->steps = steps;
	return ok && !m->stopped;
}

/* --- phases ---------------------------------------------------------------------------- */

void hp_limits_default(hp_limits *l)
{
	l->max_steps = HP_BC_MAX_STEPS;
	l->max_probes = HP_BC_MAX_PROBES;
	l->max_millis = HP_VM_DEFAULT_MILLIS;
	l->max_memory = HP_VM_DEFAULT_MEMORY;
}

static void vm_init(vm *m, const hp_bc *bc, hp_backend *b, hp_role role, const hp_value *params,
                    hp_pool *pool, hp_role_result *res, const hp_limits *lim)
{
	memset(m, 0, sizeof *m);
	for (size_t i = 0; i < sizeof m->memo / sizeof m->memo[0]; i++)
		m->memo[i].probe = -1;
	m->bc = bc;
	m->b = b;
	m->role = role;
	m->params = params;
	m->pool = pool;
	m->res = res;
	if (lim)
		m->lim = *lim;
	else
		hp_limits_default(&m->lim);
	clock_gettime(CLOCK_MONOTONIC, &m->deadline);
	m->deadline.tv_sec += (time_t)(m->lim.max_millis / 1000);
	m->deadline.tv_nsec += (long)(m->lim.max_millis % 1000) * 1000000L;
	if (m->deadline.tv_nsec >= 1000000000L) {
		m->deadline.tv_sec++;
		m->deadline.tv_nsec -= 1000000000L;
	}
}

void hp_vm_run_role(const hp_bc *bc, const hp_globals *g, hp_role role, hp_backend *b,
                    const hp_limits *lim, hp_role_result *out)
{
	hp_role_result_init(out, role);
	int ri = role < HP_ROLE_COUNT ? bc->role_index[role] : -1;
	if (ri < 0)
		return;
	hp_pool pool;
	hp_pool_init(&pool, lim ? lim->max_memory : HP_VM_DEFAULT_MEMORY);
	vm m;
	vm_init(&m, bc, b, role, g->params, &pool, out, lim);
	seed_cache(&m, g);
	/* room for one run of every assertion, so the arrays rarely grow */
	size_t n = bc->roles[ri].nasserts;
	if (n > 0 && n <= HP_BC_MAX_STEPS) {
		out->outcomes =
		    hp_xgrow(out->outcomes, &out->cap_outcomes, n, sizeof *out->outcomes);
		out->obs = hp_xgrow(out->obs, &out->cap_obs, n, sizeof *out->obs);
	}
	run(&m, bc->roles[ri].body, NULL);
	free(m.ents);
	free(m.slots);
	hp_pool_free(&pool);
}

void hp_globals_free(hp_globals *g)
{
	free(g->params);
	free(g->overridden);
	free(g->param_obs);
	free(g->conds);
	free(g->seed_probe);
	free(g->seed_arg);
	free(g->seed_ans);
	free(g->seed_where);
	hp_role_result_free(&g->facts);
	hp_pool_free(&g->pool);
	memset(g, 0, sizeof *g);
}

/* Run a value region of phase one; a stop makes its value UNKNOWN. What it
 * looked at is *seen. */
static hp_value global_value(vm *m, hp_bc_region r, hp_type t, hp_obs_range *seen)
{
	hp_value v;
	m->obs_mark = m->res->nobs;
	bool ok = !m->stopped && run(m, r, &v);
	seen->first = m->obs_mark;
	seen->count = m->res->nobs - m->obs_mark;
	m->obs_mark = m->res->nobs;
	if (!ok) {
		const char *why = hp_role_result_str(m->res, m->res->reason);
		char *p = why ? hp_pool_strndup(m->pool, why, strlen(why)) : NULL;
		return hp_v_unknown(t, p ? p : "the run stopped");
	}
	/* the value outlives this run's stack; its memory is the pool's */
	return v;
}

bool hp_globals_eval(const hp_bc *bc, hp_backend *b, const hp_param_override *ov, size_t nov,
                     const hp_limits *lim, hp_globals *g, hp_err *err)
{
	memset(g, 0, sizeof *g);
	hp_pool_init(&g->pool, lim ? lim->max_memory : HP_VM_DEFAULT_MEMORY);
	hp_role_result_init(&g->facts, HP_ROLE_ROOT);
	g->params = hp_xcalloc(bc->nparams, sizeof *g->params);
	g->overridden = hp_xcalloc(bc->nparams, sizeof *g->overridden);
	g->param_obs = hp_xcalloc(bc->nparams ? bc->nparams : 1, sizeof *g->param_obs);
	g->conds = hp_xcalloc(bc->nconds, sizeof *g->conds);
	for (size_t i = 0; i < nov; i++) {
		uint32_t p = 0;
		while (p < bc->nparams &&
		       strcmp(hp_bc_str(bc, bc->params[p].name), ov[i].name) != 0)
			p++;
		if (p == bc->nparams) {
			hp_buf names = {0};
			for (uint32_t k = 0; k < bc->nparams; k++)
				hp_buf_printf(&names, "%s%s", k ? ", " : "",
				              hp_bc_str(bc, bc->params[k].name));
			hp_err_set(
			    err, "--param %s: the policy has no param named '%s' (its params: %s)",
			    ov[i].name, ov[i].name, names.len ? names.data : "none");
			hp_buf_free(&names);
			hp_globals_free(g);
			return false;
		}
		if (!hp_param_parse(bc, p, ov[i].value, &g->pool, &g->params[p], err)) {
			hp_globals_free(g);
			return false;
		}
		g->overridden[p] = true;
	}
	vm m;
	vm_init(&m, bc, b, HP_ROLE_ROOT, g->params, &g->pool, &g->facts, lim);
	for (uint32_t i = 0; i < bc->nparams; i++)
		if (!g->overridden[i])
			g->params[i] = global_value(&m, bc->params[i].code, bc->params[i].type,
			                            &g->param_obs[i]);
	for (int r = 0; r < HP_ROLE_COUNT; r++) {
		int ri = bc->role_index[r];
		g->identity[r] = ri < 0 ? hp_v_none()
		                        : global_value(&m, bc->roles[ri].identity,
		                                       bc->roles[ri].identity_type,
		                                       &g->identity_obs[r]);
	}
	for (uint32_t i = 0; i < bc->nconds; i++) {
		hp_obs_range unused;
		g->conds[i] = global_value(&m, bc->conds[i].code, HP_T_BOOL, &unused);
	}
	/* keep phase one's answers for the role runs, in the order asked */
	g->nseeds = (uint32_t)m.nents;
	g->seed_probe = hp_xcalloc(m.nents, 1);
	g->seed_arg = hp_xcalloc(m.nents, sizeof *g->seed_arg);
	g->seed_ans = hp_xcalloc(m.nents, sizeof *g->seed_ans);
	g->seed_where = hp_xcalloc(m.nents, sizeof *g->seed_where);
	for (size_t i = 0; i < m.nents; i++) {
		g->seed_probe[i] = m.ents[i].probe;
		g->seed_arg[i] = m.ents[i].arg;
		g->seed_ans[i] = m.ents[i].ans;
		g->seed_where[i] = m.ents[i].where;
	}
	free(m.ents);
	free(m.slots);
	return true;
}

hp_value hp_globals_ask(const hp_bc *bc, hp_backend *b, const hp_limits *lim, hp_globals *g,
                        hp_probe_id probe, const hp_value *arg)
{
	if ((unsigned)probe >= HP_PROBE_COUNT || hp_probes[probe].scope != HP_SCOPE_GLOBAL)
		return hp_v_unknown(HP_T_NONE, "not a global probe");
	/* phase one asked it already: its answer, recorded once */
	for (uint32_t i = 0; i < g->nseeds; i++)
		if (g->seed_probe[i] == probe && hp_value_equal(&g->seed_arg[i], arg))
			return g->seed_ans[i];
	hp_value a = *arg; /* kept as a seed: its text must live as long as g */
	if (a.state == HP_VAL_KNOWN && a.type == HP_T_STR) {
		char *t = hp_pool_strndup(&g->pool, a.u.s.p, a.u.s.len);
		if (!t)
			return hp_v_unknown(hp_probes[probe].result, "memory limit");
		a.u.s.p = t;
	}
	vm m;
	vm_init(&m, bc, b, HP_ROLE_ROOT, g->params, &g->pool, &g->facts, lim);
	hp_value v = ask(&m, probe, &a, 0);
	size_t n = (size_t)g->nseeds + 1;
	g->seed_probe = hp_xrealloc(g->seed_probe, n);
	g->seed_arg = hp_xrealloc(g->seed_arg, n * sizeof *g->seed_arg);
	g->seed_ans = hp_xrealloc(g->seed_ans, n * sizeof *g->seed_ans);
	/* every seed array grows together: seed_cache reads them side by side */
	g->seed_where = hp_xrealloc(g->seed_where, n * sizeof *g->seed_where);
	g->seed_probe[g->nseeds] = (uint8_t)probe;
	g->seed_arg[g->nseeds] = a;
	g->seed_ans[g->nseeds] = v;
	g->seed_where[g->nseeds] = m.nents ? m.ents[m.nents - 1].where : NULL;
	g->nseeds++;
	free(m.ents);
	free(m.slots);
	return v;
}
