/* test_dircache.c: a directory's answers kept by device, inode and mount,
 * only decided ones, only with a mount id, and a table that grows and
 * stops at its bound. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "os/dircache.h"

static hp_fileinfo dir(uint64_t dev, uint64_t ino, uint64_t mnt)
{
	hp_fileinfo fi = {.type = HP_FT_DIR, .dev = (dev_t)dev, .ino = (ino_t)ino};
	fi.mnt_id = mnt;
	fi.has_mnt_id = 1;
	return fi;
}

static void test_kept_by_identity(void **state)
{
	(void)state;
	hp_dircache *c = hp_os_dircache_new();
	hp_fileinfo a = dir(1, 10, 100), same = dir(1, 10, 100);
	hp_fileinfo other_ino = dir(1, 11, 100), other_dev = dir(2, 10, 100),
	            bind = dir(1, 10, 101);
	assert_null(hp_os_dircache_get(c, &a));
	hp_os_dircache_put(c, &a, &(hp_dirfacts){false, HP_TRUE, 0});
	const hp_dirfacts *f = hp_os_dircache_get(c, &same);
	assert_non_null(f);
	assert_false(f->rdonly);
	assert_int_equal(f->wx, HP_TRUE);
	/* another inode, device or mount (a bind mount of it) is another */
	assert_null(hp_os_dircache_get(c, &other_ino));
	assert_null(hp_os_dircache_get(c, &other_dev));
	assert_null(hp_os_dircache_get(c, &bind));
	/* a later answer replaces the first */
	hp_os_dircache_put(c, &a, &(hp_dirfacts){true, HP_FALSE, 0});
	f = hp_os_dircache_get(c, &a);
	assert_true(f->rdonly);
	assert_int_equal(f->wx, HP_FALSE);
	hp_os_dircache_free(c);
}

static void test_only_decided_with_mount(void **state)
{
	(void)state;
	hp_dircache *c = hp_os_dircache_new();
	hp_fileinfo a = dir(1, 10, 100);
	/* an unknown is asked again, never kept */
	hp_os_dircache_put(c, &a, &(hp_dirfacts){false, HP_UNKNOWN, 0});
	assert_null(hp_os_dircache_get(c, &a));
	/* no mount id: a path-based LSM could tell bind mounts apart */
	hp_fileinfo nomnt = a;
	nomnt.has_mnt_id = 0;
	hp_os_dircache_put(c, &nomnt, &(hp_dirfacts){false, HP_FALSE, 0});
	assert_null(hp_os_dircache_get(c, &nomnt));
	assert_null(hp_os_dircache_get(c, &a));
	hp_os_dircache_put(c, &a, &(hp_dirfacts){false, HP_FALSE, 0});
	assert_null(hp_os_dircache_get(c, &nomnt));
	hp_os_dircache_free(c);
	hp_os_dircache_free(NULL);
}

static void test_grows_to_its_bound(void **state)
{
	(void)state;
	hp_dircache *c = hp_os_dircache_new();
	for (uint64_t i = 0; i < HP_DIRCACHE_MAX + 100; i++) {
		hp_fileinfo d = dir(i % 7, i, i % 3);
		hp_os_dircache_put(c, &d, &(hp_dirfacts){false, i % 2 ? HP_TRUE : HP_FALSE, 0});
	}
	/* everything up to the bound is kept, with its own answer */
	for (uint64_t i = 0; i < HP_DIRCACHE_MAX; i++) {
		hp_fileinfo d = dir(i % 7, i, i % 3);
		const hp_dirfacts *f = hp_os_dircache_get(c, &d);
		assert_non_null(f);
		assert_int_equal(f->wx, i % 2 ? HP_TRUE : HP_FALSE);
	}
	/* past it nothing is */
	for (uint64_t i = HP_DIRCACHE_MAX; i < HP_DIRCACHE_MAX + 100; i++) {
		hp_fileinfo d = dir(i % 7, i, i % 3);
		assert_null(hp_os_dircache_get(c, &d));
	}
	hp_os_dircache_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kept_by_identity),
	    cmocka_unit_test(test_only_decided_with_mount),
	    cmocka_unit_test(test_grows_to_its_bound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
