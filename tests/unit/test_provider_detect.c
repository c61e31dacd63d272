/* test_provider_detect.c: --provider, HANGAR_PROVIDER and sandbox markers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/provider_detect.h"

static const char *fake_env[8][2];

static char *getenv_fake(const char *name)
{
	for (int i = 0; i < 8 && fake_env[i][0]; i++)
		if (strcmp(fake_env[i][0], name) == 0)
			return (char *)fake_env[i][1];
	return NULL;
}

static char root[64];

static int setup(void **state)
{
	(void)state;
	memset(fake_env, 0, sizeof fake_env);
	strcpy(root, "/tmp/hp-prov.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	return system(cmd);
}

static void touch(const char *rel)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
}

static void test_flag_and_env(void **state)
{
	(void)state;
	hp_provider p;
	hp_err err = {{0}};
	fake_env[0][0] = "HANGAR_PROVIDER";
	fake_env[0][1] = "e2b";
	assert_true(hp_probe_provider_detect("kubernetes", getenv_fake, root, &p, &err));
	assert_int_equal(p, HP_PROVIDER_KUBERNETES);
	assert_true(hp_probe_provider_detect(NULL, getenv_fake, root, &p, &err));
	assert_int_equal(p, HP_PROVIDER_E2B);
	assert_false(hp_probe_provider_detect("Docker", getenv_fake, root, &p, &err));
	assert_string_equal(
	    err.msg,
	    "--provider 'Docker' is not a provider (docker, kubernetes, e2b, cubesandbox)");
	fake_env[0][1] = "gke";
	assert_false(hp_probe_provider_detect(NULL, getenv_fake, root, &p, &err));
	assert_string_equal(
	    err.msg,
	    "HANGAR_PROVIDER 'gke' is not a provider (docker, kubernetes, e2b, cubesandbox)");
}

static void test_markers(void **state)
{
	(void)state;
	hp_provider p;
	hp_err err = {{0}};
	assert_false(hp_probe_provider_detect(NULL, getenv_fake, root, &p, &err));
	assert_string_equal(err.msg,
	                    "no sandbox provider is certain here (no /.dockerenv, "
	                    "KUBERNETES_SERVICE_HOST or E2B_SANDBOX): say which with --provider");
	touch(".dockerenv");
	assert_true(hp_probe_provider_detect(NULL, getenv_fake, root, &p, &err));
	assert_int_equal(p, HP_PROVIDER_DOCKER);
	fake_env[0][0] = "KUBERNETES_SERVICE_HOST";
	fake_env[0][1] = "10.0.0.1";
	assert_false(hp_probe_provider_detect(NULL, getenv_fake, root, &p, &err));
	assert_string_equal(err.msg,
	                    "the markers of several sandbox providers are present "
	                    "(/.dockerenv, KUBERNETES_SERVICE_HOST): say which with --provider");
}

static void test_e2b_markers(void **state)
{
	(void)state;
	hp_provider p;
	hp_err err = {{0}};
	char d[128];
	snprintf(d, sizeof d, "%s/run", root);
	mkdir(d, 0755);
	snprintf(d, sizeof d, "%s/run/e2b", root);
	mkdir(d, 0755);
	/* a directory where the marker file should be is no marker */
	snprintf(d, sizeof d, "%s/run/e2b/.E2B_SANDBOX", root);
	mkdir(d, 0755);
	assert_false(hp_probe_provider_detect(NULL, getenv_fake, root, &p, &err));
	rmdir(d);
	touch("run/e2b/.E2B_SANDBOX");
	assert_true(hp_probe_provider_detect(NULL, getenv_fake, root, &p, &err));
	assert_int_equal(p, HP_PROVIDER_E2B);
	unlink(d);
	fake_env[0][0] = "E2B_SANDBOX";
	fake_env[0][1] = "false";
	assert_false(hp_probe_provider_detect(NULL, getenv_fake, root, &p, &err));
	fake_env[0][1] = "true";
	assert_true(hp_probe_provider_detect(NULL, getenv_fake, root, &p, &err));
	assert_int_equal(p, HP_PROVIDER_E2B);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_flag_and_env, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_markers, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_e2b_markers, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
