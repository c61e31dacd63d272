/* bench_vm.c: the VM on the facts backend, and load plus verify.
 *
 *   make bench && build/bench/bench_vm [ASSERTIONS]   (default 100000)
 *
 * It generates a policy in the shape of policies/hangar.hpol with the
 * number of assertions asked (rules of 10 assertions for root and agent:
 * ownership, modes, writability, groups, capabilities, loops over a list
 * param) and a facts file answering every question it asks, compiles it,
 * then measures the figures below. Rules ask about paths of 1,000 groups
 * (rule r about group r mod 1000), so questions repeat as they do in real
 * policies; BENCH_GROUPS=N sets the number of groups, and BENCH_GROUPS=0
 * gives every rule paths of its own (every question distinct: the answer
 * tables outgrow the processor's caches). It measures:
 *   - loading and verifying that bytecode (best of 5);
 *   - running phase one and every role against the facts (best of 5,
 *     BENCH_REPS=N for more): instructions executed per second, and probes
 *     per second; and the whole evaluation, rule results included;
 *   - loading and verifying the shipped policies/default.hpol (mean of
 *     10,000 loads, best of 5 such means).
 * It prints figures; it never passes or fails on time. A second argument,
 * load, run or shipped, measures only that (for a profiler). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codegen.h"
#include "check/eval.h"
#include "probe/facts.h"
#include "front.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* One rule of ten assertions over the paths of group g. */
static void gen_rule(hp_buf *src, unsigned r, unsigned g)
{
	hp_buf_printf(
	    src,
	    "rule r%u \"generated rule %u\" {\n"
	    "    as root {\n"
	    "        require exists user(hangar_user)\n"
	    "        require owner(\"/srv/%u/home\") == user(hangar_user).uid\n"
	    "        require mode(\"/srv/%u/ctl\") & 0o077 == 0\n"
	    "        forbid user(agent_user).groups & privileged_groups != {}\n"
	    "        require setuid_root(\"/srv/%u/bin\") <= allowed_setuid\n"
	    "    }\n"
	    "    as agent {\n"
	    "        forbid writable(\"/srv/%u/home\") or writable_ancestor(\"/srv/%u/home\")\n"
	    "        forbid readable(\"/srv/%u/ctl\")\n"
	    "        require caps.effective == {} and no_new_privs\n"
	    "        for d in dirs {\n"
	    "            forbid writable(d + \"/%u\")\n"
	    "        }\n"
	    "        forbid signal(canary hangar)\n"
	    "    }\n"
	    "    remedy \"fix rule %u\"\n"
	    "}\n",
	    r, r, g, g, g, g, g, g, g, r);
}

/* The facts about the paths of group g. */
static void gen_facts(hp_buf *facts, unsigned r)
{
	hp_buf_printf(
	    facts,
	    "- {probe: owner, arg: /srv/%u/home, answer: 1001}\n"
	    "- {probe: mode, arg: /srv/%u/ctl, answer: 0o700}\n"
	    "- {probe: setuid_root, arg: /srv/%u/bin, answer: [passwd]}\n"
	    "- {role: agent, probe: writable, arg: /srv/%u/home, answer: false}\n"
	    "- {role: agent, probe: writable_ancestor, arg: /srv/%u/home, answer: false}\n"
	    "- {role: agent, probe: readable, arg: /srv/%u/ctl, answer: false}\n",
	    r, r, r, r, r, r);
	for (unsigned d = 0; d < 4; d++)
		hp_buf_printf(
		    facts, "- {role: agent, probe: writable, arg: /d%u/%u, answer: false}\n", d, r);
}

static uint8_t *compile(const char *name, const char *src, size_t *len)
{
	hp_diags d;
	hp_diags_init(&d);
	hp_program *p = hp_front_compile_text(name, src, strlen(src), NULL, &d);
	uint8_t *out = p->ok ? hp_codegen(p, len, &d) : NULL;
	if (!out) {
		hp_diag_style st = hp_diag_style_for(stderr);
		hp_diags_print(stderr, &d, &st);
	}
	hp_program_free(p);
	hp_diags_free(&d);
	return out;
}

static double best_load(const uint8_t *data, size_t len, int reps)
{
	double best = 1e9;
	for (int k = 0; k < 5; k++) {
		double t0 = now();
		for (int i = 0; i < reps; i++) {
			hp_err err;
			hp_bc *bc = hp_bc_load("bench.hpb", data, len, &err);
			if (!bc) {
				fprintf(stderr, "bench: %s\n", err.msg);
				exit(1);
			}
			hp_bc_free(bc);
		}
		double t = (now() - t0) / reps;
		if (t < best)
			best = t;
	}
	return best;
}

int main(int argc, char **argv)
{
	unsigned want = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 100000;
	const char *only = argc > 2 ? argv[2] : "";
	bool all = !*only;
	unsigned rules = (want + 9) / 10;
	hp_buf src = {0}, facts = {0};
	hp_buf_puts(&src, "policy \"bench\" version 1\n"
	                  "param hangar_user = \"hangar\"\n"
	                  "param agent_user = env(\"HANGAR_AGENT_USER\") or \"agent\"\n"
	                  "param dirs = { \"/d0\", \"/d1\", \"/d2\", \"/d3\" }\n"
	                  "param allowed_setuid = { \"passwd\", \"chsh\", \"su\" }\n"
	                  "param privileged_groups = { \"sudo\", \"wheel\", \"docker\" }\n"
	                  "role root = uid 0\n"
	                  "role hangar = user(hangar_user), keep caps { setuid, setgid, kill }\n"
	                  "role agent = user(agent_user), no caps, no_new_privs\n");
	hp_buf_puts(
	    &facts,
	    "facts:\n"
	    "- {probe: env, arg: HANGAR_AGENT_USER, answer: absent}\n"
	    "- {probe: user, arg: hangar, answer: {name: hangar, uid: 1001, gid: 1001}}\n"
	    "- {probe: user, arg: agent, answer: {name: agent, uid: 1000, gid: 1000, groups: "
	    "[agent]}}\n"
	    "- {role: agent, probe: caps.effective, answer: []}\n"
	    "- {role: agent, probe: no_new_privs, answer: true}\n"
	    "- {role: agent, probe: signal, arg: hangar, answer: false}\n");
	const char *ge = getenv("BENCH_GROUPS");
	unsigned groups = ge ? (unsigned)strtoul(ge, NULL, 10) : 1000;
	if (groups == 0 || groups > rules)
		groups = rules;
	for (unsigned r = 0; r < rules; r++)
		gen_rule(&src, r, r % groups);
	for (unsigned g = 0; g < groups; g++)
		gen_facts(&facts, g);

	double t0 = now();
	size_t len;
	uint8_t *code = compile("bench.hpol", src.data, &len);
	if (!code)
		return 1;
	double t_compile = now() - t0;
	hp_facts *f = hp_probe_facts_new();
	hp_err err;
	t0 = now();
	if (!hp_probe_facts_load(f, "bench.yaml", facts.data, facts.len, &err)) {
		fprintf(stderr, "bench: %s\n", err.msg);
		return 1;
	}
	double t_facts = now() - t0;
	hp_bc *bc = hp_bc_load("bench.hpb", code, len, &err);
	if (!bc) {
		fprintf(stderr, "bench: %s\n", err.msg);
		return 1;
	}
	double t_load = all || !strcmp(only, "load") ? best_load(code, len, 1) : 0;

	double best = 1e9, best_vm = 1e9;
	uint64_t steps = 0, probes = 0;
	unsigned pass = 0, total = bc->nrules;
	int reps = getenv("BENCH_REPS") ? atoi(getenv("BENCH_REPS")) : 5;
	for (int k = 0; k < reps && (all || !strcmp(only, "run")); k++) {
		/* the VM alone: phase one and each role's run */
		hp_globals g;
		hp_role_result rr[HP_ROLE_COUNT];
		t0 = now();
		if (!hp_globals_eval(bc, hp_probe_facts_backend(f), NULL, 0, NULL, &g, &err)) {
			fprintf(stderr, "bench: %s\n", err.msg);
			return 1;
		}
		for (int r = 0; r < HP_ROLE_COUNT; r++)
			hp_vm_run_role(bc, &g, (hp_role)r, hp_probe_facts_backend(f), NULL, &rr[r]);
		double t_vm = now() - t0;
		steps = g.facts.steps;
		probes = g.facts.probes;
		for (int r = 0; r < HP_ROLE_COUNT; r++) {
			steps += rr[r].steps;
			probes += rr[r].probes;
			hp_role_result_free(&rr[r]);
		}
		hp_globals_free(&g);
		if (t_vm < best_vm)
			best_vm = t_vm;
		/* the whole evaluation: the same, and the rule results */
		hp_eval ev;
		t0 = now();
		if (!hp_eval_run(bc, hp_probe_facts_backend(f), NULL, 0, NULL, &ev, &err)) {
			fprintf(stderr, "bench: %s\n", err.msg);
			return 1;
		}
		double t = now() - t0;
		pass = 0;
		for (uint32_t i = 0; i < bc->nrules; i++)
			pass += ev.rules[i].result == HP_RESULT_PASS;
		hp_eval_free(&ev);
		if (t < best)
			best = t;
	}
	printf("generated policy: %u rules, %u assertions, %zu bytes of source, %zu bytes of "
	       "bytecode, %u instructions; paths in %u groups\n",
	       bc->nrules, bc->nasserts, src.len, len, bc->ncode, groups);
	printf("compile: %.3f s   facts: %zu facts read in %.3f s\n", t_compile, hp_probe_facts_count(f),
	       t_facts);
	if (all || !strcmp(only, "load"))
		printf("load and verify: %.3f ms\n", t_load * 1e3);
	if (all || !strcmp(only, "run")) {
		printf("VM (phase one and 3 roles, best of %d): %.3f ms for %llu instructions and "
		       "%llu probes: %.1f million instructions a second, %.1f million probes a "
		       "second\n",
		       reps, best_vm * 1e3, (unsigned long long)steps, (unsigned long long)probes,
		       (double)steps / best_vm / 1e6, (double)probes / best_vm / 1e6);
		printf("whole evaluation (the VM and the rule results): %.3f ms, %u of %u rules "
		       "pass\n",
		       best * 1e3, pass, total);
	}
	hp_bc_free(bc);
	free(code);

	if (!all && strcmp(only, "shipped"))
		return 0;
	hp_diags d;
	hp_diags_init(&d);
	hp_program *prog;
	uint8_t *shipped = hp_compile_file("policies/default.hpol", &len, &d, &prog);
	hp_program_free(prog);
	hp_diags_free(&d);
	if (!shipped) {
		fprintf(stderr,
		        "bench: policies/default.hpol does not compile (run from the top)\n");
		return 1;
	}
	double t_ship = best_load(shipped, len, 10000);
	printf("shipped policy (policies/default.hpol, %zu bytes): load and verify %.1f us\n", len,
	       t_ship * 1e6);
	free(shipped);
	hp_probe_facts_free(f);
	hp_buf_free(&src);
	hp_buf_free(&facts);
	return 0;
}
