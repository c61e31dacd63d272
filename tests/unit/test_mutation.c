/* test_mutation.c: every policy in policies/ is compiled, then mutated at
 * random 10,000 times (seeded: HP_MUTATION_SEED overrides the seed, and a
 * failure names the seed and the mutant, whose bytes are written to
 * build/mutant-fail.hpb). A mutant is one to three byte flips, inserts and
 * deletes. Each is loaded as it is, and again with its length and checksum
 * fields recomputed, so the checks behind the checksum are reached too.
 * Every load must either be rejected (what `check` turns into exit status
 * 2) or give a program that runs phase one and every role to completion
 * against a facts backend, within the limits, without a crash; the CI runs
 * this under ASan and UBSan. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcwrite.h"
#include "codegen.h"
#include "check/eval.h"
#include "probe/facts.h"
#include "front.h"

#define MUTANTS 10000

static uint64_t rng;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const char facts_yaml[] =
    "facts:\n"
    "- {probe: env, arg: PATH, answer: \"/usr/bin:/bin\"}\n"
    "- {probe: env, arg: HANGAR_AGENT_USER, answer: agent}\n"
    "- {probe: user, arg: agent, answer: {name: agent, uid: 1000, gid: 1000, groups: [agent]}}\n"
    "- {probe: user, arg: hangar, answer: {name: hangar, uid: 1001, gid: 1001}}\n"
    "- {probe: setuid_root, arg: /usr/bin, answer: [su]}\n"
    "- {role: agent, probe: writable, arg: /usr/bin, answer: false}\n"
    "- {role: agent, probe: sudo, answer: false}\n"
    "- {role: hangar, probe: caps.ambient, answer: [kill, setuid, setgid]}\n";

typedef struct {
	unsigned loaded, rejected, resealed_loaded, resealed_rejected;
} counts;

static void save_and_fail(const uint8_t *d, size_t n, const char *policy, uint64_t seed, int i,
                          const char *why)
{
	FILE *f = fopen("build/mutant-fail.hpb", "wb");
	if (f) {
		fwrite(d, 1, n, f);
		fclose(f);
	}
	fail_msg("%s, mutant %d (seed %llu): %s", policy, i, (unsigned long long)seed, why);
}

/* Load a mutant; if it verifies, run it all. false: it loaded but did not
 * run to completion. */
static bool try(const uint8_t *d, size_t n, hp_facts *facts, bool *loaded, char *why, size_t wl)
{
	hp_err err;
	hp_bc *bc = hp_bc_load("mutant.hpb", d, n, &err);
	*loaded = bc != NULL;
	if (!bc) {
		/* a rejection always says where */
		if (strncmp(err.msg, "mutant.hpb: ", 12) != 0) {
			snprintf(why, wl, "a rejection without the file name: %s", err.msg);
			return false;
		}
		return true;
	}
	hp_eval ev;
	bool ok = true;
	if (hp_eval_run(bc, hp_probe_facts_backend(facts), NULL, 0, NULL, &ev, &err)) {
		for (int r = 0; r < HP_ROLE_COUNT && ok; r++)
			if (ev.roles[r].status != HP_RUN_COMPLETE) {
				snprintf(why, wl, "role %s: %s", hp_role_names[r],
				         hp_role_result_str(&ev.roles[r], ev.roles[r].reason));
				ok = false;
			}
		if (ok && ev.globals.facts.status != HP_RUN_COMPLETE) {
			snprintf(why, wl, "phase one: %s",
			         hp_role_result_str(&ev.globals.facts, ev.globals.facts.reason));
			ok = false;
		}
		hp_eval_free(&ev);
	}
	hp_bc_free(bc);
	return ok;
}

static void mutate_policy(const char *path, uint64_t seed, hp_facts *facts, counts *c)
{
	hp_diags dg;
	hp_diags_init(&dg);
	size_t len;
	hp_program *prog;
	uint8_t *orig = hp_compile_file(path, &len, &dg, &prog);
	hp_program_free(prog);
	hp_diags_free(&dg);
	if (!orig)
		fail_msg("%s does not compile", path);
	uint8_t *m = malloc(len + 8);
	rng = seed;
	for (int i = 0; i < MUTANTS; i++) {
		memcpy(m, orig, len);
		size_t n = len;
		int ops = 1 + (int)(next() % 3);
		for (int k = 0; k < ops; k++) {
			size_t at = (size_t)(next() % n);
			switch (next() % 3) {
			case 0: /* flip a byte's bits */
				m[at] ^= (uint8_t)(1 + next() % 255);
				break;
			case 1: /* insert a byte */
				memmove(m + at + 1, m + at, n - at);
				m[at] = (uint8_t)next();
				n++;
				break;
			default: /* delete a byte */
				if (n > 1) {
					memmove(m + at, m + at + 1, n - at - 1);
					n--;
				}
				break;
			}
		}
		char why[600];
		bool loaded;
		if (!try(m, n, facts, &loaded, why, sizeof why))
			save_and_fail(m, n, path, seed, i, why);
		if (loaded)
			c->loaded++;
		else
			c->rejected++;
		hp_bc_reseal(m, n);
		if (!try(m, n, facts, &loaded, why, sizeof why))
			save_and_fail(m, n, path, seed, i, why);
		if (loaded)
			c->resealed_loaded++;
		else
			c->resealed_rejected++;
	}
	free(m);
	free(orig);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_mutants(void **state)
{
	(void)state;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	const char *s = getenv("HP_MUTATION_SEED");
	if (s && *s)
		seed = strtoull(s, NULL, 0);
	hp_facts *facts = hp_probe_facts_new();
	hp_err err;
	assert_true(hp_probe_facts_load(facts, "facts.yaml", facts_yaml, sizeof facts_yaml - 1, &err));
	DIR *d = opendir("policies");
	assert_non_null(d);
	char *names[64];
	int np = 0;
	struct dirent *e;
	while ((e = readdir(d)) && np < 64) {
		size_t l = strlen(e->d_name);
		if (l > 5 && strcmp(e->d_name + l - 5, ".hpol") == 0)
			names[np++] = strdup(e->d_name);
	}
	closedir(d);
	assert_true(np > 0);
	qsort(names, (size_t)np, sizeof *names, cmp_str);
	for (int i = 0; i < np; i++) {
		char path[512];
		snprintf(path, sizeof path, "policies/%s", names[i]);
		counts c = {0, 0, 0, 0};
		mutate_policy(path, seed + (uint64_t)i, facts, &c);
		printf(
		    "# %s: %d mutants: as is %u rejected, %u ran; resealed %u rejected, %u ran\n",
		    names[i], MUTANTS, c.rejected, c.loaded, c.resealed_rejected,
		    c.resealed_loaded);
		assert_int_equal(c.loaded + c.rejected, MUTANTS);
		free(names[i]);
	}
	hp_probe_facts_free(facts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_mutants),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
