/* fuzz_facts.c: the facts reader on any text. A file that loads is asked a
 * few questions through the backend. Nothing may crash, leak or read out
 * of bounds; a malformed file is an error with a position, never a crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/facts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	hp_facts *f = hp_probe_facts_new();
	hp_err err;
	if (hp_probe_facts_load(f, "fuzz.yaml", text, size, &err)) {
		hp_pool pool;
		hp_pool_init(&pool, 1u << 20);
		hp_backend *b = hp_probe_facts_backend(f);
		hp_value s = hp_v_str("/usr/bin", 8), none = hp_v_none(), i = hp_v_int(1000);
		hp_value r = hp_v_role(HP_ROLE_HANGAR);
		hp_buf out = {0};
		for (int role = 0; role < HP_ROLE_COUNT; role++) {
			hp_value v[] = {
				b->ops->ask(b, (hp_role)role, HP_PROBE_WRITABLE, &s, &pool),
				b->ops->ask(b, (hp_role)role, HP_PROBE_SUDO, &none, &pool),
				b->ops->ask(b, (hp_role)role, HP_PROBE_USER_BY_UID, &i, &pool),
				b->ops->ask(b, (hp_role)role, HP_PROBE_SIGNAL, &r, &pool),
				b->ops->ask(b, (hp_role)role, HP_PROBE_USER, &s, &pool),
			};
			for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
				hp_value_format(&out, &v[k]);
		}
		hp_buf_free(&out);
		hp_pool_free(&pool);
	}
	hp_probe_facts_free(f);
	free(text);
	return 0;
}
