/* test_probe_arg.c: the probe arguments no backend is asked about: paths
 * that are not absolute (every spelling of a relative PATH entry), paths
 * holding a NUL, malformed NAME:PATH commands; and that hp_backend_ask
 * refuses them before any backend sees them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "vm/backend.h"
#include "vm/probe_arg.h"

static hp_pool pool;

static int setup(void **state)
{
	(void)state;
	hp_pool_init(&pool, 1 << 20);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	hp_pool_free(&pool);
	return 0;
}

static hp_value str(const char *s, size_t n)
{
	return hp_v_str(s, (uint32_t)n);
}

static void test_relative_paths_refused(void **state)
{
	(void)state;
	static const char *const rel[] = {"node_modules/.bin", ".", "..", "bin", "./x", "../x",
	                                  " /usr/bin", "~/bin", "usr/bin ", "\t/bin"};
	for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		const char *why = hp_path_arg_problem(rel[i], strlen(rel[i]), &pool);
		assert_non_null(why);
		assert_non_null(strstr(why, "is not an absolute path"));
	}
	assert_string_equal(hp_path_arg_problem("node_modules/.bin", 17, &pool),
	                    "'node_modules/.bin' is not an absolute path: it is resolved against "
	                    "the working directory of whoever uses it, which the agent may choose");
	/* a control byte in the name is shown escaped */
	assert_string_equal(hp_path_arg_problem("\tbin", 4, &pool),
	                    "'\\x09bin' is not an absolute path: it is resolved against the "
	                    "working directory of whoever uses it, which the agent may choose");
	assert_string_equal(hp_path_arg_problem("", 0, &pool),
	                    "an empty path: as a PATH entry it is the working directory, which "
	                    "the agent may choose");
	assert_string_equal(hp_path_arg_problem("/usr/bin\0/x", 11, &pool),
	                    "'/usr/bin\\x00/x' holds a NUL byte: no file has that name");
	/* absolute, however odd, is a real name: "/usr/bin " is that directory */
	assert_null(hp_path_arg_problem("/", 1, &pool));
	assert_null(hp_path_arg_problem("/usr/bin ", 9, &pool));
	assert_null(hp_path_arg_problem("/a/../b/./c//", 13, &pool));
}

static void test_every_path_probe_refuses(void **state)
{
	(void)state;
	size_t paths = 0;
	for (int p = 0; p < HP_PROBE_COUNT; p++) {
		hp_value arg = str("bin", 3), out;
		bool refused = hp_probe_arg_refused((hp_probe_id)p, &arg, &pool, &out);
		if (hp_probe_arg_kind_of((hp_probe_id)p) == HP_ARG_PLAIN) {
			assert_false(refused);
			continue;
		}
		/* a path or a command is never a name like "bin" alone... */
		assert_int_equal(hp_probes[p].arg, HP_T_STR);
		assert_true(refused);
		assert_int_equal(out.state, HP_VAL_UNKNOWN);
		assert_int_equal(out.type, hp_probes[p].result);
		paths++;
	}
	/* the file probes: exists .. setuid_root, writable_entries, and the
	 * mount probes */
	assert_int_equal(paths, 15);
	assert_int_equal(hp_probe_arg_kind_of(HP_PROBE_WRITABLE_ENTRIES), HP_ARG_PATH);
	assert_int_equal(hp_probe_arg_kind_of(HP_PROBE_WRITABLE), HP_ARG_PATH);
	assert_int_equal(hp_probe_arg_kind_of(HP_PROBE_FS_TYPE), HP_ARG_PATH);
	assert_int_equal(hp_probe_arg_kind_of(HP_PROBE_ENV), HP_ARG_PLAIN);
	assert_int_equal(hp_probe_arg_kind_of(HP_PROBE_USER), HP_ARG_PLAIN);
	/* an absolute path, and an argument that is not a string, go through */
	hp_value abs = str("/usr/bin", 8), out;
	assert_false(hp_probe_arg_refused(HP_PROBE_WRITABLE, &abs, &pool, &out));
	hp_value none = hp_v_none();
	assert_false(hp_probe_arg_refused(HP_PROBE_SUDO, &none, &pool, &out));
}

/* A backend that records whether it was asked. */
typedef struct {
	hp_backend base;
	int asked;
} counting;

static hp_value counting_ask(hp_backend *b, hp_role role, hp_probe_id probe, const hp_value *arg,
                             hp_pool *p)
{
	(void)role;
	(void)arg;
	(void)p;
	((counting *)b)->asked++;
	return hp_probes[probe].result == HP_T_BOOL ? hp_v_bool(false) : hp_v_int(0);
}

static void test_backend_never_asked(void **state)
{
	(void)state;
	static const hp_backend_ops ops = {"counting", counting_ask, NULL, NULL};
	counting c = {{&ops}, 0};
	hp_value rel = str(".", 1);
	hp_value v = hp_backend_ask(&c.base, HP_ROLE_AGENT, HP_PROBE_WRITABLE, &rel, &pool);
	assert_int_equal(c.asked, 0);
	assert_int_equal(v.state, HP_VAL_UNKNOWN);
	assert_int_equal(v.type, HP_T_BOOL);
	assert_string_equal(v.u.reason, "'.' is not an absolute path: it is resolved against the "
	                                "working directory of whoever uses it, which the agent "
	                                "may choose");
	hp_value abs = str("/", 1);
	v = hp_backend_ask(&c.base, HP_ROLE_AGENT, HP_PROBE_WRITABLE, &abs, &pool);
	assert_int_equal(c.asked, 1);
	assert_int_equal(v.state, HP_VAL_KNOWN);
	/* a name is not a path: env("bin") is asked */
	hp_value name = str("bin", 3);
	(void)hp_backend_ask(&c.base, HP_ROLE_ROOT, HP_PROBE_OWNER, &name, &pool);
	assert_int_equal(c.asked, 1);
	(void)hp_backend_ask(&c.base, HP_ROLE_ROOT, HP_PROBE_SUDOERS_GRANTS, &name, &pool);
	assert_int_equal(c.asked, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_relative_paths_refused),
	    cmocka_unit_test(test_every_path_probe_refuses),
	    cmocka_unit_test(test_backend_never_asked),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
