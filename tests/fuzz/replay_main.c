/* replay_main.c: runs a libFuzzer harness over files and directories of
 * inputs without libFuzzer, so `make check` replays every seed corpus under
 * the ordinary compiler (and under the sanitizers in a sanitizer build).
 * Each input is copied to a heap buffer of its exact size, as libFuzzer
 * does, so an overread is caught. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);
	size_t r;
	while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			uint8_t *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", path);
		return 1;
	}
	uint8_t *exact = malloc(n ? n : 1);
	if (!exact) {
		free(buf);
		return 1;
	}
	memcpy(exact, buf, n);
	free(buf);
	LLVMFuzzerTestOneInput(exact, n);
	free(exact);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	int failures = 0, count = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			failures++;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			failures += run_file(argv[i]);
			count++;
			continue;
		}
		DIR *d = opendir(argv[i]);
		if (!d) {
			perror(argv[i]);
			failures++;
			continue;
		}
		char **names = NULL;
		size_t nn = 0, cap = 0;
		struct dirent *e;
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			if (nn == cap) {
				cap = cap ? cap * 2 : 64;
				char **nnames = realloc(names, cap * sizeof *names);
				if (!nnames)
					abort();
				names = nnames;
			}
			size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
			names[nn] = malloc(len);
			if (!names[nn])
				abort();
			snprintf(names[nn++], len, "%s/%s", argv[i], e->d_name);
		}
		closedir(d);
		qsort(names, nn, sizeof *names, cmp);
		for (size_t k = 0; k < nn; k++) {
			failures += run_file(names[k]);
			count++;
			free(names[k]);
		}
		free(names);
	}
	printf("replayed %d inputs, %d unreadable\n", count, failures);
	return failures ? 1 : 0;
}
