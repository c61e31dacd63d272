/* fuzz_frame.c: the framed-message decoder never reads out of bounds and
 * every record it accepts lies inside the message. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hp_frame f;
	hp_err e;
	if (hp_frame_decode(data, size, 1024, &f, &e) == HP_TRUE) {
		size_t total = 16;
		for (size_t i = 0; i < f.n; i++) {
			total += 8 + f.rec[i].len;
			uint64_t v;
			char *s = NULL;
			(void)hp_frame_rec_u64(&f.rec[i], &v);
			if (hp_frame_rec_str(&f.rec[i], &s) == 0)
				free(s);
		}
		if (total != size)
			abort();
		hp_frame_free(&f);
	}
	return 0;
}
