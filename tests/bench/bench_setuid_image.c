/* bench_setuid_image.c: the whole-image setuid walk (setuid_image).
 *
 *   make bench && build/bench/bench_setuid_image [ROOT]
 *
 * With ROOT (an unpacked image, as `check --root` takes it): the image's
 * tree, walked offline. Without: this machine's "/", every mount of
 * /proc/self/mountinfo without nosuid, as a live check walks it. Prints
 * the entries looked at, the trees walked, what was found and the time of
 * a first (cold cache) and the best of five later walks. Never fails on
 * time.
 */
#include <stdio.h>
#include <string.h>

#include "os/setuid_image.h"
#include "os/sysx.h"

static int walk(const char *root_dir, hp_setuid_budget *b, size_t *found, hp_err *e)
{
	hp_root r;
	unsigned flags = root_dir ? HP_ROOT_OFFLINE : 0;
	if (hp_os_root_open(&r, root_dir ? root_dir : "/", flags, e) != HP_TRUE)
		return -1;
	hp_mounts m = {0};
	if (!root_dir && hp_os_mounts_read(&m, e) != HP_TRUE) {
		hp_os_root_close(&r);
		return -1;
	}
	memset(b, 0, sizeof *b);
	hp_suid_list l;
	hp_tri t = hp_os_setuid_image(&r, root_dir ? NULL : &m, b, &l, e);
	*found = l.n;
	hp_os_suid_list_free(&l);
	hp_os_mounts_free(&m);
	hp_os_root_close(&r);
	return t == HP_TRUE ? 0 : -1;
}

int main(int argc, char **argv)
{
	const char *root_dir = argc > 1 ? argv[1] : NULL;
	hp_setuid_budget b;
	size_t found;
	hp_err e;
	if (walk(root_dir, &b, &found, &e) < 0) {
		fprintf(stderr, "bench_setuid_image: %s\n", e.msg);
		return 1;
	}
	long long first = (long long)b.ms;
	long long best = -1;
	for (int i = 0; i < 5; i++) {
		if (walk(root_dir, &b, &found, &e) < 0) {
			fprintf(stderr, "bench_setuid_image: %s\n", e.msg);
			return 1;
		}
		if (best < 0 || b.ms < best)
			best = (long long)b.ms;
	}
	printf("%s: %zu entries in %zu trees, %zu found; first walk %lld ms, best of 5 %lld ms\n",
	       root_dir ? root_dir : "/ (live mounts)", b.entries, b.trees, found, first, best);
	return 0;
}
