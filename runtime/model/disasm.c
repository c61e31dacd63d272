/* disasm.c: instruction printer and program listing (disasm.h). Operands
 * are printed by their kind from the opcode table, so a new opcode needs
 * no change here. */
#include "model/disasm.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void put_str_short(hp_buf *b, const hp_bc *bc, uint32_t i)
{
	const hp_str *s = &bc->strings[i];
	hp_value v = hp_v_str(s->p, s->len > 60 ? 60 : s->len);
	hp_value_format(b, &v);
	if (s->len > 60)
		hp_buf_puts(b, "...");
}

static void operand(hp_buf *b, const hp_bc *bc, const hp_insn *in, hp_operand_kind k, uint32_t x)
{
	switch (k) {
	case HP_K_BOOL:
		hp_buf_puts(b, x ? "true" : "false");
		break;
	case HP_K_ROLE:
		hp_buf_puts(b, x < HP_ROLE_COUNT ? hp_role_names[x] : "?");
		break;
	case HP_K_SLOT:
		hp_buf_printf(b, "slot %u", x);
		if (in->op == HP_I_FOR && in->aux < bc->ncode)
			hp_buf_printf(b, " (%s)", hp_bc_str(bc, bc->code[in->aux].c));
		break;
	case HP_K_FIELD:
		hp_buf_printf(b, ".%s", x < HP_RF_COUNT ? hp_rfields[x].name : "?");
		break;
	case HP_K_PROBE:
		hp_buf_puts(b, x < HP_PROBE_COUNT ? hp_probes[x].name : "?");
		break;
	case HP_K_BOUND:
		hp_buf_printf(b, "max %u", x);
		break;
	case HP_K_INTK:
		hp_buf_printf(b, "%" PRId64, (int64_t)bc->consts[x].value);
		break;
	case HP_K_CAPSK:
		hp_caps_format(b, bc->consts[x].value);
		break;
	case HP_K_LISTK: {
		uint64_t lk = bc->consts[x].value;
		hp_value v = hp_v_list(bc->strings + (uint32_t)lk, (uint32_t)(lk >> 32));
		hp_value_format(b, &v);
		break;
	}
	case HP_K_STR:
		if (in->op == HP_I_ENDFOR)
			hp_buf_puts(b, hp_bc_str(bc, x));
		else
			put_str_short(b, bc, x);
		break;
	case HP_K_PARAM:
		hp_buf_puts(b, hp_bc_str(bc, bc->params[x].name));
		break;
	case HP_K_TARGET:
		hp_buf_printf(b, "-> %u", x);
		break;
	case HP_K_ASSERT:
		hp_buf_printf(b, "#%u %s", x, hp_bc_str(bc, bc->asserts[x].text));
		break;
	case HP_K_Z:
	case HP_K_COUNT:
	default:
		break;
	}
}

void hp_disasm_insn(hp_buf *b, const hp_bc *bc, uint32_t pc)
{
	const hp_insn *in = &bc->code[pc];
	const hp_opcode_info *op = &hp_opcodes[in->op];
	size_t start = b->len;
	hp_buf_puts(b, op->name);
	bool first = true;
	for (int i = 0; i < 3; i++) {
		if (op->kind[i] == HP_K_Z)
			continue;
		if (first) {
			size_t w = b->len - start;
			for (; w < 14; w++)
				hp_buf_putc(b, ' ');
			if (b->len - start == strlen(op->name))
				hp_buf_putc(b, ' ');
		} else {
			hp_buf_puts(b, ", ");
		}
		first = false;
		uint32_t x = i == 0 ? in->a : i == 1 ? in->b : in->c;
		operand(b, bc, in, (hp_operand_kind)op->kind[i], x);
	}
}

void hp_disasm_region(hp_buf *b, const hp_bc *bc, hp_bc_region r)
{
	uint32_t shown_file = HP_BC_NONE, shown_line = 0;
	for (uint32_t pc = r.start; pc < r.start + r.len; pc++) {
		const hp_bc_srcmap *m = hp_bc_srcmap_at(bc, pc);
		if (m && (m->loc.file != shown_file || m->loc.line != shown_line)) {
			const char *text = hp_bc_str(bc, m->line_text);
			hp_buf_printf(b, "          ; %s:%u: ", hp_bc_str(bc, m->loc.file),
			              m->loc.line);
			while (*text == ' ' || *text == '\t')
				text++;
			hp_buf_printf(b, "%s\n", text);
			shown_file = m->loc.file;
			shown_line = m->loc.line;
		}
		hp_buf_printf(b, "  %6u  ", pc);
		hp_disasm_insn(b, bc, pc);
		hp_buf_putc(b, '\n');
	}
}

static void bounds(hp_buf *b, const char *what, hp_bc_bounds x)
{
	hp_buf_printf(b, "  %-28s %12" PRIu64 " %10" PRIu64 "\n", what, x.steps, x.probes);
}

static hp_bc_bounds add(hp_bc_bounds a, hp_bc_bounds b)
{
	hp_bc_bounds r = {a.steps + b.steps, a.probes + b.probes};
	return r;
}

void hp_explain(hp_buf *b, const hp_bc *bc)
{
	hp_buf_printf(b, "policy \"%s\" version %" PRId64 "\n", hp_bc_str(bc, bc->name),
	              bc->version);
	hp_buf_printf(b, "bytecode format %u, %u bytes, checksum %08x\n", HP_BC_VERSION, bc->size,
	              bc->checksum);
	hp_buf_printf(b, "%u strings, %u constants, %u instructions\n", bc->nstrings, bc->nconsts,
	              bc->ncode);

	hp_buf_printf(b, "\nparams (%u):\n", bc->nparams);
	for (uint32_t i = 0; i < bc->nparams; i++) {
		const hp_bc_param *p = &bc->params[i];
		hp_buf_printf(b, "  %-20s %-7s ", hp_bc_str(bc, p->name), hp_type_names[p->type]);
		hp_bc_loc_format(b, bc, p->loc);
		hp_buf_putc(b, '\n');
	}

	hp_buf_printf(b, "\nroles (%u):\n", bc->nroles);
	for (uint32_t i = 0; i < bc->nroles; i++) {
		const hp_bc_role *r = &bc->roles[i];
		hp_buf_printf(b, "  %-8s identity %-4s", hp_role_names[r->role],
		              r->identity_type == HP_T_USER ? "user" : "uid");
		if (r->flags & HP_BC_ROLE_KEEP_CAPS) {
			hp_buf_puts(b, "  keep caps ");
			hp_caps_format(b, r->keep_caps);
		}
		if (r->flags & HP_BC_ROLE_NO_CAPS)
			hp_buf_puts(b, "  no caps");
		if (r->flags & HP_BC_ROLE_NO_NEW_PRIVS)
			hp_buf_puts(b, "  no_new_privs");
		hp_buf_puts(b, "  ");
		hp_bc_loc_format(b, bc, r->loc);
		hp_buf_putc(b, '\n');
	}

	hp_buf_printf(b, "\nrules (%u):\n", bc->nrules);
	for (uint32_t i = 0; i < bc->nrules; i++) {
		const hp_bc_rule *r = &bc->rules[i];
		hp_buf_printf(b, "  %u %s \"%s\"\n", i, hp_bc_str(bc, r->id),
		              hp_bc_str(bc, r->title));
		hp_buf_puts(b, "      at ");
		hp_bc_loc_format(b, bc, r->loc);
		hp_buf_puts(b, ", roles");
		for (int role = 0; role < HP_ROLE_COUNT; role++)
			if (r->roles & (1u << role))
				hp_buf_printf(b, " %s", hp_role_names[role]);
		hp_buf_printf(b, ", %u assertion%s\n", r->count, r->count == 1 ? "" : "s");
		hp_buf_puts(b, "      counts for");
		if (r->applies == HP_APPLIES_ALL) {
			hp_buf_puts(b, " every mode and provider\n");
		} else if (r->applies == 0) {
			hp_buf_puts(b, " no mode and provider\n");
		} else {
			for (int m = 0; m < HP_MODE_COUNT; m++) {
				unsigned provs = 0;
				for (int p = 0; p < HP_PROVIDER_COUNT; p++)
					provs += (r->applies & HP_APPLIES_BIT(m, p)) != 0;
				if (!provs)
					continue;
				hp_buf_printf(b, " %s", hp_mode_names[m]);
				if (provs == HP_PROVIDER_COUNT)
					continue;
				hp_buf_puts(b, " (");
				for (int p = 0, k = 0; p < HP_PROVIDER_COUNT; p++)
					if (r->applies & HP_APPLIES_BIT(m, p))
						hp_buf_printf(b, "%s%s", k++ ? " " : "",
						              hp_provider_names[p]);
				hp_buf_putc(b, ')');
			}
			hp_buf_putc(b, '\n');
		}
		if (r->remedy != HP_BC_NONE)
			hp_buf_printf(b, "      remedy: %s\n", hp_bc_str(bc, r->remedy));
		for (uint32_t k = r->first; k < r->first + r->count; k++) {
			const hp_bc_assertion *a = &bc->asserts[k];
			hp_buf_printf(b, "      #%u as %-6s %s  ", k, hp_role_names[a->role],
			              hp_bc_str(bc, a->text));
			hp_bc_loc_format(b, bc, a->loc);
			hp_buf_putc(b, '\n');
		}
	}

	hp_buf_printf(b, "\nproviders (%u):\n", bc->nproviders);
	for (uint32_t i = 0; i < bc->nproviders; i++) {
		const hp_bc_provider *p = &bc->providers[i];
		hp_buf_printf(b, "  %-12s uid_split default %s\n", hp_provider_names[p->provider],
		              hp_setting_names[p->uid_split]);
		for (uint32_t k = p->first; k < p->first + p->count; k++) {
			const hp_bc_cond *c = &bc->conds[k];
			hp_buf_printf(b, "      %s %s",
			              c->kind == HP_BC_NEEDS ? "split needs" : "never split when",
			              hp_bc_str(bc, c->text));
			if (c->kind == HP_BC_NEVER)
				hp_buf_printf(b, " because \"%s\"", hp_bc_str(bc, c->because));
			hp_buf_puts(b, "  ");
			hp_bc_loc_format(b, bc, c->loc);
			hp_buf_putc(b, '\n');
		}
	}

	hp_buf_puts(b, "\nbounds (at most):\n");
	hp_buf_printf(b, "  %-28s %12s %10s\n", "", "instructions", "probes");
	hp_bc_bounds g = {0, 0};
	for (uint32_t i = 0; i < bc->nparams; i++)
		g = add(g, bc->params[i].bounds);
	for (uint32_t i = 0; i < bc->nroles; i++)
		g = add(g, bc->roles[i].identity_bounds);
	for (uint32_t i = 0; i < bc->nconds; i++)
		g = add(g, bc->conds[i].bounds);
	bounds(b, "params and providers (root)", g);
	for (uint32_t i = 0; i < bc->nroles; i++) {
		char what[40];
		snprintf(what, sizeof what, "role %s", hp_role_names[bc->roles[i].role]);
		bounds(b, what, bc->roles[i].body_bounds);
	}

	hp_buf_puts(b, "\ncode:\n");
	for (uint32_t i = 0; i < bc->nparams; i++) {
		hp_buf_printf(b, "param %s:\n", hp_bc_str(bc, bc->params[i].name));
		hp_disasm_region(b, bc, bc->params[i].code);
	}
	for (uint32_t i = 0; i < bc->nroles; i++) {
		hp_buf_printf(b, "identity of role %s:\n", hp_role_names[bc->roles[i].role]);
		hp_disasm_region(b, bc, bc->roles[i].identity);
	}
	for (uint32_t i = 0; i < bc->nproviders; i++) {
		const hp_bc_provider *p = &bc->providers[i];
		for (uint32_t k = p->first; k < p->first + p->count; k++) {
			hp_buf_printf(b, "provider %s, condition %u:\n",
			              hp_provider_names[p->provider], k - p->first);
			hp_disasm_region(b, bc, bc->conds[k].code);
		}
	}
	for (uint32_t i = 0; i < bc->nroles; i++) {
		hp_buf_printf(b, "checks of role %s:\n", hp_role_names[bc->roles[i].role]);
		hp_disasm_region(b, bc, bc->roles[i].body);
	}
}
