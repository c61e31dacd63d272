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

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	static char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
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

static void test_every_opcode_is_tested(void **state)
{
	(void)state;
	const char *src = slurp("tests/unit/test_vm.c");
	assert_non_null(src);
	for (int i = 0; i < HP_I_COUNT; i++) {
		char a[64], b[64];
		snprintf(a, sizeof a, "E(%s,", hp_opcodes[i].name);
		snprintf(b, sizeof b, "HP_I_%s", hp_opcodes[i].name);
		if (!strstr(src, a) && !strstr(src, b))
			fail_msg("opcode %s is not run in tests/unit/test_vm.c",
			         hp_opcodes[i].name);
	}
}

static const char *kind_doc(uint8_t k)
{
	return k == HP_K_Z ? "–" : hp_operand_kind_names[k];
}

static void test_documented(void **state)
{
	(void)state;
	const char *doc = slurp("docs/bytecode.md");
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
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table),
	    cmocka_unit_test(test_every_opcode_is_tested),
	    cmocka_unit_test(test_documented),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
