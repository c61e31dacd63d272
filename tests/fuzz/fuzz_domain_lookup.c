/* fuzz_domain_lookup.c: name lookups in the generated tables never read out
 * of bounds, whatever the name. (The smallest harness; it also keeps the
 * fuzz build exercised.) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/domain.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	(void)hp_probe_lookup(s);
	(void)hp_lookup_name(hp_mode_names, HP_MODE_COUNT, s);
	free(s);
	return 0;
}
