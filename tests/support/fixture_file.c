/* fixture_file.c: reading test fixture files. */
#include "fixture_file.h"

#include <stdio.h>
#include <stdlib.h>

char *hp_fixture_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		abort();
	}
	size_t cap = 4096, n = 0, r;
	char *buf = malloc(cap + 1);
	while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			char *nb = realloc(buf, cap + 1);
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	if (!buf || ferror(f)) {
		fprintf(stderr, "%s: cannot read\n", path);
		abort();
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}
