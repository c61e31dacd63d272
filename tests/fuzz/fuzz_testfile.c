/* fuzz_testfile.c: the test-file reader (docs/testing.md) on any text. A
 * file that loads has each case's inline facts handed to the facts reader,
 * as `test` does, so the padding that keeps their lines is fuzzed too.
 * Nothing may crash, leak or read out of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/facts.h"
#include "testfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	hp_test_file tf;
	hp_err err;
	if (hp_test_file_parse("fuzz_test.yaml", text, size, &tf, &err)) {
		for (size_t i = 0; i < tf.ncases; i++) {
			const hp_test_case *c = &tf.cases[i];
			hp_facts *f = hp_probe_facts_new();
			for (size_t k = 0; k < c->ninline; k++)
				(void)hp_probe_facts_load(f, c->file, c->inline_facts[k].text,
				                    c->inline_facts[k].len, &err);
			hp_probe_facts_free(f);
		}
	}
	hp_test_file_free(&tf);
	free(text);
	return 0;
}
