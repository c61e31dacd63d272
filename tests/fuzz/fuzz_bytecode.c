/* fuzz_bytecode.c: the loader, the verifier and the VM on any bytes. Every
 * input is loaded as it is; when the first byte is odd, a copy whose
 * length and checksum fields are recomputed is loaded too, so mutations
 * reach the checks behind the checksum. A program that verifies runs all
 * of phase one and every role against a facts backend, under small limits;
 * its results go through encode and decode, the combine step, evidence and
 * the disassembler. Nothing may crash, leak or read out of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bcwrite.h"
#include "check/combine.h"
#include "model/disasm.h"
#include "check/eval.h"
#include "probe/facts.h"

static const char facts_yaml[] =
    "facts:\n"
    "- {probe: env, arg: PATH, answer: \"/usr/bin:/bin\"}\n"
    "- {probe: env, arg: HANGAR_AGENT_USER, answer: absent}\n"
    "- {probe: user_by_uid, arg: 1000, answer: {name: agent, uid: 1000, gid: 1000}}\n"
    "- {probe: user, arg: agent, answer: {name: agent, uid: 1000, gid: 1000,\n"
    "    groups: [agent]}}\n"
    "- {probe: user, arg: hangar, answer: {name: hangar, uid: 1001, gid: 1001}}\n"
    "- {probe: setuid_root, arg: /usr/bin, answer: [su]}\n"
    "- {role: agent, probe: writable, arg: /usr/bin, answer: false}\n"
    "- {role: agent, probe: writable, arg: /bin, answer: true}\n"
    "- {role: agent, probe: sudo, answer: skipped, reason: offline}\n"
    "- {role: hangar, probe: caps.ambient, answer: [kill]}\n";

static hp_facts *facts;

static void run(const hp_bc *bc)
{
	hp_limits lim = {1u << 20, 1u << 12, 2000, 16u << 20};
	hp_eval_opts opts = {.run_role = NULL, .ctx = NULL, .roles = 0, .limits = &lim};
	hp_eval ev;
	hp_err err;
	/* the first param given on the "command line", when it can be */
	hp_param_override ov = {bc->nparams ? hp_bc_str(bc, bc->params[0].name) : "", "1"};
	if (!hp_eval_run(bc, hp_probe_facts_backend(facts), &ov, bc->nparams ? 1 : 0, &opts, &ev, &err) &&
	    !hp_eval_run(bc, hp_probe_facts_backend(facts), NULL, 0, &opts, &ev, &err))
		return;
	hp_buf b = {0};
	hp_eval_print(&b, &ev);
	for (int r = 0; r < HP_ROLE_COUNT; r++) {
		hp_buf enc = {0};
		hp_role_result_encode(&ev.roles[r], &enc);
		hp_role_result back;
		if (hp_role_result_decode(bc, (const uint8_t *)enc.data, enc.len, &back, &err)) {
			for (uint32_t i = 0; i < back.noutcomes; i++)
				hp_outcome_format(&b, bc, &back, &back.outcomes[i]);
			hp_role_result_free(&back);
		} else {
			abort(); /* what the VM writes always decodes */
		}
		hp_buf_free(&enc);
	}
	hp_explain(&b, bc);
	hp_buf_free(&b);
	hp_eval_free(&ev);
}

static void try_load(const uint8_t *data, size_t size)
{
	hp_err err;
	hp_bc *bc = hp_bc_load("fuzz.hpb", data, size, &err);
	if (bc) {
		run(bc);
		hp_bc_free(bc);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!facts) {
		hp_err err;
		facts = hp_probe_facts_new();
		if (!hp_probe_facts_load(facts, "fuzz.yaml", facts_yaml, sizeof facts_yaml - 1, &err))
			abort();
	}
	try_load(data, size);
	if (size > 0 && (data[0] & 1) && size <= HP_BC_MAX_FILE) {
		uint8_t *copy = malloc(size);
		if (!copy)
			return 0;
		memcpy(copy, data, size);
		hp_bc_reseal(copy, size);
		try_load(copy, size);
		free(copy);
	}
	return 0;
}
