/* verify.c: the bytecode verifier. It runs on every load, before a single
 * instruction runs, and proves for each code region:
 *   - every opcode is known and every operand is of its kind and in range;
 *   - jumps go forward, stay in their region and their loop;
 *   - the stack never underflows or passes HP_BC_MAX_STACK, and every value
 *     has the type its instruction takes (the probe's argument type from
 *     probes.def, the field's record from fields.def), the same on every
 *     path into an instruction;
 *   - loops are properly nested, bounded, and leave the stack as they found
 *     it; a loop variable is read only inside its loop;
 *   - a region ends with its terminal instruction and has no other;
 *   - params, identities and provider conditions ask GLOBAL probes only and
 *     read only params defined before them;
 *   - every assertion is checked by exactly one instruction, in its role.
 * Since jumps only go forward and loops are bounded, every program
 * terminates; the verifier also computes how many instructions and probes
 * each region can run at most, and rejects a region past HP_BC_MAX_STEPS
 * or HP_BC_MAX_PROBES. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/bytecode.h"

typedef struct {
	uint8_t depth, nloops;
	uint8_t types[HP_BC_MAX_STACK];
	uint32_t loops[HP_BC_MAX_LOOP_DEPTH]; /* pc of each open FOR, outermost first */
} vstate;

typedef struct {
	uint32_t target, from;
	vstate st;
} pending;

typedef struct {
	hp_bc *bc;
	hp_err *err;
	hp_bc_region_kind kind;
	hp_bc_region r;
	uint32_t index;   /* the region's index (hp_bc_region_ref) */
	uint8_t role;     /* HP_BC_REG_IDENTITY, HP_BC_REG_BODY: the role */
	uint8_t want;     /* the type RETURN takes; HP_T_COUNT: int or user */
	uint8_t returned; /* the type RETURN took */
	pending pend[HP_BC_MAX_PENDING];
	unsigned npend;
	vstate loop_entry[HP_BC_MAX_LOOP_DEPTH];
	uint64_t weight[HP_BC_MAX_LOOP_DEPTH + 1]; /* runs per instruction at each depth */
	hp_bc_bounds bounds;
} verifier;

static bool vfail(verifier *v, uint32_t pc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool vfail(verifier *v, uint32_t pc, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	const hp_insn *in = &v->bc->code[pc];
	char name[24];
	if (in->op < HP_I_COUNT)
		snprintf(name, sizeof name, "%s", hp_opcodes[in->op].name);
	else
		snprintf(name, sizeof name, "opcode %u", in->op);
	hp_err_set(v->err, "%s: byte %zu, instruction %u (%s): %s", v->bc->path,
	           (size_t)v->bc->code_offset + (size_t)pc * HP_BC_INSN_SIZE, pc, name, msg);
	return false;
}

static hp_type letter_type(char c)
{
	switch (c) {
	case 'b':
		return HP_T_BOOL;
	case 'i':
		return HP_T_INT;
	case 's':
		return HP_T_STR;
	case 'l':
		return HP_T_LIST;
	case 'c':
		return HP_T_CAPS;
	case 'u':
		return HP_T_USER;
	case 'g':
		return HP_T_GROUP;
	case 'r':
		return HP_T_ROLE;
	default:
		return HP_T_NONE;
	}
}

static void types_text(char *out, size_t n, const uint8_t *types, unsigned count)
{
	size_t k = 0;
	out[0] = '\0';
	for (unsigned i = 0; i < count && k < n; i++)
		k += (size_t)snprintf(out + k, n - k, "%s%s", i ? ", " : "",
		                      types[i] < HP_T_COUNT ? hp_type_names[types[i]] : "?");
}

static const char *region_name(const verifier *v, char *buf, size_t n)
{
	return hp_bc_region_name(v->bc, v->kind, v->index, buf, n);
}

/* The terminal instruction of a region of this kind (opcodes.def). */
static const char *terminal_name(hp_bc_region_kind kind)
{
	hp_op_region want = kind == HP_BC_REG_BODY ? HP_OPR_BODY : HP_OPR_VALUE;
	for (int i = 0; i < HP_I_COUNT; i++)
		if (hp_opcodes[i].terminal && hp_opcodes[i].region == want)
			return hp_opcodes[i].name;
	return "its terminal instruction";
}

static bool same_state(const vstate *a, const vstate *b)
{
	return a->depth == b->depth && a->nloops == b->nloops &&
	       memcmp(a->types, b->types, a->depth) == 0 &&
	       memcmp(a->loops, b->loops, a->nloops * sizeof a->loops[0]) == 0;
}

static bool merge_error(verifier *v, uint32_t pc, uint32_t from, const vstate *a, const vstate *b)
{
	if (a->nloops != b->nloops || memcmp(a->loops, b->loops, a->nloops * sizeof a->loops[0]))
		return vfail(v, pc,
		             "the jump from instruction %u crosses a loop boundary (a jump may not "
		             "enter or leave a loop)",
		             from);
	char x[200], y[200];
	types_text(x, sizeof x, a->types, a->depth);
	types_text(y, sizeof y, b->types, b->depth);
	return vfail(v, pc, "the stack differs between paths: (%s) from instruction %u, (%s) here",
	             x, from, y);
}

/* The operand field i (0 a, 1 b, 2 c) of the instruction at pc. */
static uint32_t operand(const hp_insn *in, int i)
{
	return i == 0 ? in->a : i == 1 ? in->b : in->c;
}

static bool check_operands(verifier *v, uint32_t pc, const vstate *st)
{
	hp_bc *bc = v->bc;
	const hp_insn *in = &bc->code[pc];
	const hp_opcode_info *op = &hp_opcodes[in->op];
	static const char field[3] = {'a', 'b', 'c'};
	for (int i = 0; i < 3; i++) {
		uint32_t x = operand(in, i);
		char f = field[i];
		switch ((hp_operand_kind)op->kind[i]) {
		case HP_K_Z:
			if (x)
				return vfail(v, pc, "operand %c is %u, must be 0", f, x);
			break;
		case HP_K_BOOL:
			if (x > 1)
				return vfail(v, pc, "operand %c is %u, not a bool (0 or 1)", f, x);
			break;
		case HP_K_ROLE:
			if (x >= HP_ROLE_COUNT)
				return vfail(v, pc, "operand %c is %u, not a role", f, x);
			break;
		case HP_K_SLOT:
			if (in->op == HP_I_FOR && x != st->nloops)
				return vfail(v, pc, "loop slot %u, expected %u (its nesting depth)",
				             x, st->nloops);
			if (in->op == HP_I_ENDFOR && (st->nloops == 0 || x != st->nloops - 1u))
				return st->nloops == 0
				           ? vfail(v, pc, "no loop is open")
				           : vfail(v, pc,
				                   "closes loop slot %u, the open loop is slot %u",
				                   x, st->nloops - 1u);
			if (in->op == HP_I_LOAD_LOCAL && x >= st->nloops)
				return vfail(v, pc, "loop slot %u is not open here (%u open)", x,
				             st->nloops);
			break;
		case HP_K_FIELD:
			if (x >= HP_RF_COUNT)
				return vfail(v, pc, "operand %c is %u, not a field", f, x);
			break;
		case HP_K_PROBE:
			if (x >= HP_PROBE_COUNT)
				return vfail(v, pc, "operand %c is %u, not a probe", f, x);
			if (in->op == HP_I_PROBE0 && hp_probes[x].arg != HP_T_NONE)
				return vfail(v, pc, "probe %s takes an argument",
				             hp_probes[x].name);
			if (in->op == HP_I_PROBE1 && hp_probes[x].arg == HP_T_NONE)
				return vfail(v, pc, "probe %s takes no argument",
				             hp_probes[x].name);
			if (v->kind != HP_BC_REG_BODY && hp_probes[x].scope != HP_SCOPE_GLOBAL) {
				char rn[120];
				return vfail(
				    v, pc,
				    "probe %s is asked as a role; %s may ask only global probes",
				    hp_probes[x].name, region_name(v, rn, sizeof rn));
			}
			break;
		case HP_K_BOUND:
			if (x == 0)
				return vfail(v, pc, "loop without a bound");
			if (x > HP_BC_MAX_LOOP_BOUND)
				return vfail(v, pc, "loop bound %u is more than %u", x,
				             HP_BC_MAX_LOOP_BOUND);
			break;
		case HP_K_INTK:
		case HP_K_CAPSK:
		case HP_K_LISTK: {
			uint8_t want = op->kind[i] == HP_K_INTK    ? HP_T_INT
			               : op->kind[i] == HP_K_CAPSK ? HP_T_CAPS
			                                           : HP_T_LIST;
			if (x >= bc->nconsts)
				return vfail(v, pc, "constant %u out of range (%u constants)", x,
				             bc->nconsts);
			if (bc->consts[x].type != want)
				return vfail(v, pc, "constant %u is %s, not %s", x,
				             hp_type_names[bc->consts[x].type],
				             hp_type_names[want]);
			break;
		}
		case HP_K_STR:
			if (x >= bc->nstrings)
				return vfail(v, pc, "string %u out of range (%u strings)", x,
				             bc->nstrings);
			break;
		case HP_K_PARAM:
			if (x >= bc->nparams)
				return vfail(v, pc, "param %u out of range (%u params)", x,
				             bc->nparams);
			if (v->kind == HP_BC_REG_PARAM && x >= v->index)
				return vfail(
				    v, pc,
				    "param %s reads param %s, which is not defined before it",
				    hp_bc_str(bc, bc->params[v->index].name),
				    hp_bc_str(bc, bc->params[x].name));
			break;
		case HP_K_TARGET:
			if (x <= pc)
				return vfail(v, pc, "backward jump to instruction %u", x);
			if (x >= v->r.start + v->r.len) {
				char rn[120];
				return vfail(
				    v, pc,
				    "jump to instruction %u, out of %s (instructions %u to %u)", x,
				    region_name(v, rn, sizeof rn), v->r.start,
				    v->r.start + v->r.len - 1);
			}
			break;
		case HP_K_ASSERT:
			if (x >= bc->nasserts)
				return vfail(v, pc, "assertion %u out of range (%u assertions)", x,
				             bc->nasserts);
			if (bc->asserts[x].role != v->role)
				return vfail(v, pc, "assertion %u is role %s's, not role %s's", x,
				             hp_role_names[bc->asserts[x].role],
				             hp_role_names[v->role]);
			if (bc->asserts[x].pc != HP_BC_NONE)
				return vfail(v, pc,
				             "assertion %u is already checked at instruction %u", x,
				             bc->asserts[x].pc);
			break;
		case HP_K_COUNT:
		default:
			return vfail(v, pc, "operand %c has no kind", f);
		}
	}
	return true;
}

/* Apply the instruction's stack signature to st. */
static bool apply_stack(verifier *v, uint32_t pc, vstate *st)
{
	const hp_insn *in = &v->bc->code[pc];
	const hp_opcode_info *op = &hp_opcodes[in->op];
	if (st->depth < op->npops)
		return vfail(v, pc, "stack underflow: takes %u values, the stack has %u", op->npops,
		             st->depth);
	uint8_t any = HP_T_NONE, set = HP_T_NONE, rec = HP_T_NONE;
	const uint8_t *have = st->types + st->depth - op->npops;
	bool ok = true;
	const char *wnames[4] = {"", "", "", ""}; /* what each operand should be, for a message */
	for (unsigned j = 0; j < op->npops; j++) {
		char c = op->pops[j];
		uint8_t t = have[j];
		uint8_t w = (uint8_t)letter_type(c);
		const char *wname;
		switch (c) {
		case '*':
			if (any == HP_T_NONE)
				any = t;
			ok = ok && t == any && t != HP_T_NONE;
			wname = j ? "the same type" : "any";
			break;
		case 'S':
			if (set == HP_T_NONE)
				set = t;
			ok = ok && t == set && (t == HP_T_LIST || t == HP_T_CAPS);
			wname = j ? "the same type" : "list or caps";
			break;
		case 'R':
			rec = t;
			ok = ok && (t == HP_T_USER || t == HP_T_GROUP);
			wname = "user or group";
			break;
		case '?':
			if (in->op == HP_I_PROBE1)
				w = hp_probes[in->b].arg;
			else if (v->want == HP_T_COUNT) /* RETURN of an identity */
				w = (t == HP_T_USER) ? HP_T_USER : HP_T_INT;
			else
				w = v->want;
			ok = ok && t == w;
			wname = v->want == HP_T_COUNT && in->op == HP_I_RETURN ? "int or user"
			                                                       : hp_type_names[w];
			break;
		default:
			ok = ok && t == w;
			wname = hp_type_names[w];
			break;
		}
		if (j < 4)
			wnames[j] = wname;
	}
	if (!ok) {
		char want[120] = "", got[200];
		size_t wk = 0;
		for (unsigned j = 0; j < op->npops && j < 4 && wk < sizeof want; j++)
			wk += (size_t)snprintf(want + wk, sizeof want - wk, "%s%s", j ? ", " : "",
			                       wnames[j]);
		types_text(got, sizeof got, have, op->npops);
		return vfail(v, pc, "takes (%s), the stack has (%s)", want, got);
	}
	if (in->op == HP_I_RETURN)
		v->returned = have[0];
	st->depth = (uint8_t)(st->depth - op->npops);
	if (op->npushes == 0)
		return true;
	if (st->depth >= HP_BC_MAX_STACK)
		return vfail(v, pc, "stack overflow: more than %u values", HP_BC_MAX_STACK);
	char c = op->pushes[0];
	uint8_t t;
	switch (c) {
	case '*':
		t = any;
		break;
	case 'S':
		t = set;
		break;
	case '?':
		if (in->op == HP_I_LOAD_PARAM) {
			t = v->bc->params[in->c].type;
		} else if (in->op == HP_I_FIELD) {
			if (hp_rfields[in->a].record != rec)
				return vfail(v, pc, "field %s is a %s's, the stack has a %s",
				             hp_rfields[in->a].name,
				             hp_type_names[hp_rfields[in->a].record],
				             hp_type_names[rec]);
			t = hp_rfields[in->a].type;
		} else {
			t = hp_probes[in->b].result;
		}
		break;
	default:
		t = letter_type(c);
		break;
	}
	st->types[st->depth++] = t;
	return true;
}

static bool add_pending(verifier *v, uint32_t pc, uint32_t target, const vstate *st)
{
	for (unsigned i = 0; i < v->npend; i++)
		if (v->pend[i].target == target) {
			if (!same_state(&v->pend[i].st, st))
				return merge_error(v, pc, v->pend[i].from, &v->pend[i].st, st);
			return true;
		}
	if (v->npend == HP_BC_MAX_PENDING)
		return vfail(v, pc, "more than %u jumps pending at once", HP_BC_MAX_PENDING);
	v->pend[v->npend].target = target;
	v->pend[v->npend].from = pc;
	v->pend[v->npend].st = *st;
	v->npend++;
	return true;
}

/* Paths that jump to pc must arrive with the state that falls through. */
static bool join(verifier *v, uint32_t pc, const vstate *st)
{
	for (unsigned i = 0; i < v->npend;) {
		if (v->pend[i].target != pc) {
			i++;
			continue;
		}
		if (!same_state(&v->pend[i].st, st))
			return merge_error(v, pc, v->pend[i].from, &v->pend[i].st, st);
		v->pend[i] = v->pend[--v->npend];
	}
	return true;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	if (a && b > (HP_BC_MAX_STEPS + 1) / a)
		return HP_BC_MAX_STEPS + 1;
	uint64_t r = a * b;
	return r > HP_BC_MAX_STEPS + 1 ? HP_BC_MAX_STEPS + 1 : r;
}

static bool verify_region(verifier *v)
{
	hp_bc *bc = v->bc;
	vstate st;
	memset(&st, 0, sizeof st);
	v->npend = 0;
	v->weight[0] = 1;
	v->bounds.steps = v->bounds.probes = 0;
	uint32_t end = v->r.start + v->r.len, last = end - 1;
	for (uint32_t pc = v->r.start; pc < end; pc++) {
		hp_insn *in = &bc->code[pc];
		if (in->op >= HP_I_COUNT)
			return vfail(v, pc, "unknown opcode");
		if (!join(v, pc, &st))
			return false;
		const hp_opcode_info *op = &hp_opcodes[in->op];
		char rn[120];
		if (op->region == HP_OPR_BODY && v->kind != HP_BC_REG_BODY)
			return vfail(v, pc, "not allowed in %s (only in a role's checks)",
			             region_name(v, rn, sizeof rn));
		if (op->region == HP_OPR_VALUE && v->kind == HP_BC_REG_BODY)
			return vfail(v, pc, "not allowed in %s (only in a value region)",
			             region_name(v, rn, sizeof rn));
		if (op->terminal && pc != last)
			return vfail(v, pc, "ends %s before its last instruction %u",
			             region_name(v, rn, sizeof rn), last);
		if (pc == last && !op->terminal)
			return vfail(v, pc, "%s does not end with %s",
			             region_name(v, rn, sizeof rn), terminal_name(v->kind));
		if (!check_operands(v, pc, &st))
			return false;
		/* a FOR runs as often as its enclosing loops; its body, bound times more */
		uint64_t w = v->weight[st.nloops];
		v->bounds.steps += w;
		if (in->op == HP_I_PROBE0 || in->op == HP_I_PROBE1)
			v->bounds.probes += w;
		if (v->bounds.steps > HP_BC_MAX_STEPS)
			return vfail(v, pc, "%s can run more than %llu instructions",
			             region_name(v, rn, sizeof rn),
			             (unsigned long long)HP_BC_MAX_STEPS);
		if (v->bounds.probes > HP_BC_MAX_PROBES)
			return vfail(v, pc, "%s can ask more than %llu probes",
			             region_name(v, rn, sizeof rn),
			             (unsigned long long)HP_BC_MAX_PROBES);
		if (in->op == HP_I_ENDFOR) {
			const vstate *entry = &v->loop_entry[st.nloops - 1];
			if (st.depth != entry->depth || memcmp(st.types, entry->types, st.depth)) {
				char x[200], y[200];
				types_text(x, sizeof x, entry->types, entry->depth);
				types_text(y, sizeof y, st.types, st.depth);
				return vfail(v, pc,
				             "the loop body changes the stack from (%s) to (%s)", x,
				             y);
			}
			for (unsigned i = 0; i < v->npend; i++)
				if (v->pend[i].st.nloops == st.nloops)
					return vfail(v, v->pend[i].from,
					             "jump to instruction %u leaves its loop",
					             v->pend[i].target);
			uint32_t for_pc = st.loops[--st.nloops];
			in->aux = for_pc;
			bc->code[for_pc].aux = pc;
			continue;
		}
		if (!apply_stack(v, pc, &st))
			return false;
		if (in->op == HP_I_FOR) {
			if (st.nloops >= HP_BC_MAX_LOOP_DEPTH)
				return vfail(v, pc, "loops nested more than %u deep",
				             HP_BC_MAX_LOOP_DEPTH);
			v->loop_entry[st.nloops] = st;
			st.loops[st.nloops++] = pc;
			v->weight[st.nloops] = sat_mul(w, in->c);
		}
		if (hp_opcodes[in->op].kind[2] == HP_K_TARGET && !add_pending(v, pc, in->c, &st))
			return false;
		if (hp_opcodes[in->op].kind[2] == HP_K_ASSERT)
			bc->asserts[in->c].pc = pc;
	}
	if (st.nloops)
		return vfail(v, last, "loop opened at instruction %u is not closed", st.loops[0]);
	if (st.depth != 0) {
		char rn[120], x[200];
		types_text(x, sizeof x, st.types, st.depth);
		return vfail(v, last, "%s ends with values left on the stack (%s)",
		             region_name(v, rn, sizeof rn), x);
	}
	return true;
}

bool hp_bc_verify(hp_bc *bc, hp_err *err)
{
	verifier v;
	memset(&v, 0, sizeof v);
	v.bc = bc;
	v.err = err;
	size_t n = hp_bc_region_count(bc);
	hp_bc_region_ref *rs = hp_xcalloc(n ? n : 1, sizeof *rs);
	hp_bc_regions(bc, rs);
	bool ok = true;
	for (size_t k = 0; k < n && ok; k++) {
		uint32_t i = rs[k].index;
		v.kind = rs[k].kind;
		v.index = i;
		v.r = rs[k].r;
		switch (v.kind) {
		case HP_BC_REG_PARAM:
			v.want = bc->params[i].type;
			break;
		case HP_BC_REG_IDENTITY:
			v.role = bc->roles[i].role;
			v.want = HP_T_COUNT;
			break;
		case HP_BC_REG_BODY:
			v.role = bc->roles[i].role;
			break;
		case HP_BC_REG_COND:
			v.want = HP_T_BOOL;
			break;
		}
		ok = verify_region(&v);
		if (!ok)
			break;
		switch (v.kind) {
		case HP_BC_REG_PARAM:
			bc->params[i].bounds = v.bounds;
			break;
		case HP_BC_REG_IDENTITY:
			bc->roles[i].identity_type = v.returned;
			bc->roles[i].identity_bounds = v.bounds;
			break;
		case HP_BC_REG_BODY:
			bc->roles[i].body_bounds = v.bounds;
			break;
		case HP_BC_REG_COND:
			bc->conds[i].bounds = v.bounds;
			break;
		}
	}
	free(rs);
	if (!ok)
		return false;
	for (uint32_t i = 0; i < bc->nasserts; i++)
		if (bc->asserts[i].pc == HP_BC_NONE) {
			hp_err_set(err, "%s: byte %zu: assertion %u (rule %s) is never checked",
			           bc->path,
			           (size_t)bc->asserts_offset + (size_t)i * HP_BC_ASSERTION_SIZE, i,
			           hp_bc_str(bc, bc->rules[bc->asserts[i].rule].id));
			return false;
		}
	return true;
}
