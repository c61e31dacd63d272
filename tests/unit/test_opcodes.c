/* test_opcodes.c: the opcode table (opcodes.def) is consistent, every
 * opcode is run by the VM's unit tests, and the reference table in
 * docs/bytecode.md says what the table says: one definition, checked
 * wherever it is restated. Run from the top of the tree (make check). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/opcodes.h"

/* The file's text (at most 1 MiB), malloc'd; NULL when it cannot be read. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	enum { CAP = 1 << 20 };
	char *buf = malloc(CAP);
	size_t n = buf ? fread(buf, 1, CAP - 1, f) : 0;
	fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

static void test_table(void **state)
{
	(void)state;
	for (int i = 0; i < HP_I_COUNT; i++) {
		const hp_opcode_info *op = &hp_opcodes[i];
		assert_int_equal(hp_opcode_lookup(op->name), i);
		assert_int_equal(op->npops, strlen(op->pops));
		assert_int_equal(op->npushes, strlen(op->pushes));
		assert_true(op->npops <= 4); /* the verifier names at most 4 operands */
		assert_true(op->npushes <= 1);
		for (int k = 0; k < 3; k++)
			assert_true(op->kind[k] < HP_K_COUNT);
		assert_true(strlen(op->doc) > 0);
		for (const char *p = op->pops; *p; p++)
			assert_non_null(strchr("bislcugr*SR?", *p));
		for (const char *p = op->pushes; *p; p++)
			assert_non_null(strchr("bislcugr*SR?", *p));
	}
	assert_int_equal(hp_opcode_lookup("NO_SUCH"), -1);
}

/* The tests that run the VM on hand-assembled programs, and the helpers
 * they assemble with. */
static const char *const vm_tests[] = {
    "tests/unit/test_vm_values.c",
    "tests/unit/test_vm_roles.c",
    "tests/support/vmtest.c",
};

static void test_every_opcode_is_tested(void **state)
{
	(void)state;
	char *src[sizeof vm_tests / sizeof vm_tests[0]];
	for (size_t f = 0; f < sizeof vm_tests / sizeof vm_tests[0]; f++) {
		src[f] = slurp(vm_tests[f]);
		assert_non_null(src[f]);
	}
	for (int i = 0; i < HP_I_COUNT; i++) {
		char a[64], b[64];
		snprintf(a, sizeof a, "E(%s,", hp_opcodes[i].name);
		snprintf(b, sizeof b, "HP_I_%s", hp_opcodes[i].name);
		bool run = false;
		for (size_t f = 0; f < sizeof vm_tests / sizeof vm_tests[0] && !run; f++)
			run = strstr(src[f], a) || strstr(src[f], b);
		if (!run)
			fail_msg("opcode %s is not run in the VM's tests (%s, %s)", hp_opcodes[i].name,
			         vm_tests[0], vm_tests[1]);
	}
	for (size_t f = 0; f < sizeof vm_tests / sizeof vm_tests[0]; f++)
		free(src[f]);
}

static const char *kind_doc(uint8_t k)
{
	return k == HP_K_Z ? "–" : hp_operand_kind_names[k];
}

static void test_documented(void **state)
{
	(void)state;
	char *doc = slurp("docs/bytecode.md");
	assert_non_null(doc);
	for (int i = 0; i < HP_I_COUNT; i++) {
		const hp_opcode_info *op = &hp_opcodes[i];
		char row[512], pops[16] = "", pushes[16] = "";
		if (*op->pops)
			snprintf(pops, sizeof pops, "`%s`", op->pops);
		if (*op->pushes)
			snprintf(pushes, sizeof pushes, "`%s`", op->pushes);
		snprintf(row, sizeof row, "| %d | `%s` | %s | %s | %s | %s | %s | %s |", i,
		         op->name, kind_doc(op->kind[0]), kind_doc(op->kind[1]),
		         kind_doc(op->kind[2]), pops, pushes, op->doc);
		if (!strstr(doc, row))
			fail_msg("docs/bytecode.md lacks the row\n%s", row);
	}
	free(doc);
}

/* The REGION and TERMINAL columns: each kind of region has exactly one
 * terminal instruction, and docs/bytecode.md ("Verification", 2) names the
 * instructions of each REGION as the table has them. */
static void append_names(char *out, size_t n, hp_op_region region, bool terminal_only)
{
	int count = 0, total = 0;
	for (int i = 0; i < HP_I_COUNT; i++)
		if (hp_opcodes[i].region == region && (!terminal_only || hp_opcodes[i].terminal))
			total++;
	out[0] = '\0';
	for (int i = 0; i < HP_I_COUNT; i++) {
		if (hp_opcodes[i].region != region || (terminal_only && !hp_opcodes[i].terminal))
			continue;
		count++;
		size_t k = strlen(out);
		snprintf(out + k, n - k, "%s`%s`", count == 1 ? "" : count == total ? " and " : ", ",
		         hp_opcodes[i].name);
	}
}

static void test_regions(void **state)
{
	(void)state;
	int body_terminals = 0, value_terminals = 0;
	for (int i = 0; i < HP_I_COUNT; i++) {
		if (!hp_opcodes[i].terminal)
			continue;
		assert_int_not_equal(hp_opcodes[i].region, HP_OPR_ANY);
		body_terminals += hp_opcodes[i].region == HP_OPR_BODY;
		value_terminals += hp_opcodes[i].region == HP_OPR_VALUE;
	}
	assert_int_equal(body_terminals, 1);
	assert_int_equal(value_terminals, 1);

	char *doc = slurp("docs/bytecode.md");
	if (!doc) {
		fail_msg("cannot read docs/bytecode.md");
		return;
	}
	/* the prose wraps: compare with runs of white space made one space */
	static char flat[1 << 20];
	size_t k = 0;
	for (const char *p = doc; *p && k < sizeof flat - 1; p++) {
		if (*p == ' ' || *p == '\n') {
			if (k && flat[k - 1] == ' ')
				continue;
			flat[k++] = ' ';
		} else {
			flat[k++] = *p;
		}
	}
	flat[k] = '\0';
	free(doc);
	char body[512], value[128], bt[64], vt[64], want[1024];
	append_names(body, sizeof body, HP_OPR_BODY, false);
	append_names(value, sizeof value, HP_OPR_VALUE, false);
	append_names(bt, sizeof bt, HP_OPR_BODY, true);
	append_names(vt, sizeof vt, HP_OPR_VALUE, true);
	snprintf(want, sizeof want,
	         "the last instruction is the region's terminal one (%s for a role's checks, %s "
	         "for a param, identity or condition) and no other instruction is; %s appear only "
	         "in a role's checks, %s only elsewhere;",
	         bt, vt, body, value);
	if (!strstr(flat, want))
		fail_msg("docs/bytecode.md lacks\n%s", want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table),
	    cmocka_unit_test(test_every_opcode_is_tested),
	    cmocka_unit_test(test_documented),
	    cmocka_unit_test(test_regions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
