/* fuzz_envd.c: what a server on loopback answers the envd probe, and the
 * probe's own argument: neither is read out of bounds, a refusal or an
 * answer always comes with its status, and a request that parses is one
 * the probe can send (capital method, target from '/', printable ASCII). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "os/envd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hp_envd_request req;
	hp_err e;
	if (!hp_os_envd_parse("49983 GET /files?path=/etc/hostname", &req, &e))
		abort();
	/* a copy of exactly size bytes, so that a read past it is caught */
	char *buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	size_t caps[] = {size, size / 2, HP_ENVD_MAX_ANSWER};
	for (size_t i = 0; i < sizeof caps / sizeof *caps; i++) {
		int st = -1;
		size_t n = size < caps[i] ? size : caps[i];
		hp_envd_result r = hp_os_envd_answer(buf, n, caps[i], &req, &st, &e);
		if ((r == HP_ENVD_REFUSED && st != 401 && st != 403) ||
		    (r == HP_ENVD_ANSWERED && (st < 200 || st > 299)) || r == HP_ENVD_ABSENT)
			abort();
		if (r == HP_ENVD_MORE && n >= caps[i])
			abort();
	}
	free(buf);
	/* the argument: NUL-terminated text */
	char *arg = malloc(size + 1);
	if (!arg)
		return 0;
	memcpy(arg, data, size);
	arg[size] = '\0';
	if (hp_os_envd_parse(arg, &req, &e)) {
		if (req.port == 0 || !req.method[0] || req.target[0] != '/' ||
		    strlen(req.target) > HP_ENVD_MAX_TARGET)
			abort();
		for (const char *p = req.target; *p; p++)
			if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f)
				abort();
	}
	free(arg);
	return 0;
}
