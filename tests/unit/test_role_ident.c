/* test_role_ident.c: a role's identity for one check, from what phase one
 * computed and a fixture image's etc files: every reason a role cannot
 * run, root left as it is, the switch each role table entry asks for, the
 * groups from etc/group; and, without root, whether this process already
 * is the role. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check/role_ident.h"
#include "sysb_fixture.h"

static hp_user user_named(const char *name, int64_t uid)
{
	hp_user u;
	memset(&u, 0, sizeof u);
	u.name = (hp_str){name, (uint32_t)strlen(name)};
	u.uid = uid;
	return u;
}

static void test_cannot_run(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	hp_role_ident ri;
	hp_bc_role br = {.role = HP_ROLE_AGENT};
	hp_value iv = hp_v_int(FX_AGENT);
	hp_role_ident_of(&ri, HP_ROLE_AGENT, NULL, &iv, sx_sb(f));
	assert_false(ri.ok);
	assert_string_equal(ri.why.msg, "role agent cannot run: the policy does not declare it");
	iv = hp_v_unknown(HP_T_USER, "no such user");
	hp_role_ident_of(&ri, HP_ROLE_AGENT, &br, &iv, sx_sb(f));
	assert_string_equal(ri.why.msg,
	                    "role agent cannot run: its identity is unknown (no such user)");
	iv = hp_v_int(4294967295LL);
	hp_role_ident_of(&ri, HP_ROLE_AGENT, &br, &iv, sx_sb(f));
	assert_string_equal(ri.why.msg, "role agent cannot run: its uid 4294967295 is not a uid");
	iv = hp_v_int(54321);
	hp_role_ident_of(&ri, HP_ROLE_AGENT, &br, &iv, sx_sb(f));
	assert_string_equal(ri.why.msg, "role agent cannot run: uid 54321 has no entry in "
	                                "etc/passwd: its groups are unknown");
	hp_user nobody = user_named("nobody", 65534);
	iv = hp_v_user(&nobody);
	hp_role_ident_of(&ri, HP_ROLE_AGENT, &br, &iv, sx_sb(f));
	assert_string_equal(ri.why.msg, "role agent cannot run: no user \"nobody\" in etc/passwd");
	/* phase one's user and etc/passwd's must agree */
	hp_user moved = user_named("agent", FX_AGENT + 1);
	iv = hp_v_user(&moved);
	hp_role_ident_of(&ri, HP_ROLE_AGENT, &br, &iv, sx_sb(f));
	assert_string_equal(ri.why.msg, "role agent cannot run: etc/passwd changed while the check "
	                                "ran");
	hp_role_ident_free(&ri);
}

static void test_switches(void **state)
{
	FX_NEED_ROOT();
	sx_fx *f = *state;
	hp_role_ident ri;
	/* root without a caps clause: this process as it is */
	hp_bc_role root = {.role = HP_ROLE_ROOT};
	hp_value iv = hp_v_int(0);
	hp_role_ident_of(&ri, HP_ROLE_ROOT, &root, &iv, sx_sb(f));
	assert_true(ri.ok);
	assert_int_equal(ri.id.kind, HP_ID_UNCHANGED);
	assert_false(hp_role_ident_seen_by_others(&ri));
	/* the agent: no caps, no_new_privs, its groups from etc/group */
	hp_bc_role agent = {.role = HP_ROLE_AGENT,
	                    .flags = HP_BC_ROLE_NO_CAPS | HP_BC_ROLE_NO_NEW_PRIVS};
	hp_user a = user_named("agent", FX_AGENT);
	iv = hp_v_user(&a);
	hp_role_ident_of(&ri, HP_ROLE_AGENT, &agent, &iv, sx_sb(f));
	assert_true(ri.ok);
	assert_int_equal(ri.id.kind, HP_ID_NO_CAPS);
	assert_true(ri.id.no_new_privs);
	assert_int_equal(ri.id.uid, FX_AGENT);
	assert_int_equal(ri.cred.caps, 0);
	bool docker = false;
	for (size_t i = 0; i < ri.ngroups; i++)
		docker = docker || ri.groups[i] == FX_GROUP;
	assert_true(docker);
	assert_true(hp_role_ident_seen_by_others(&ri));
	hp_role_ident_free(&ri);
	/* hangar keeps kill: its credentials hold it */
	hp_bc_role hangar = {.role = HP_ROLE_HANGAR, .flags = HP_BC_ROLE_KEEP_CAPS,
	                     .keep_caps = 1ull << 5};
	iv = hp_v_int(FX_HANGAR);
	hp_role_ident_of(&ri, HP_ROLE_HANGAR, &hangar, &iv, sx_sb(f));
	assert_true(ri.ok);
	assert_int_equal(ri.id.kind, HP_ID_KEEP_CAPS);
	assert_int_equal(ri.cred.caps, 1ull << 5);
	/* this process (root) is not hangar: without root it could not run */
	hp_err e;
	assert_false(hp_role_ident_is_current(&ri, HP_ROLE_HANGAR, &e));
	char want[128];
	snprintf(want, sizeof want, "role hangar not run: switching to uid %u needs root",
	         (unsigned)FX_HANGAR);
	assert_string_equal(e.msg, want);
	hp_role_ident_free(&ri);
}

static void test_container(void **state)
{
	(void)state;
	hp_role_ident ri;
	hp_role_ident_container(&ri, HP_ROLE_HANGAR, false);
	assert_false(ri.ok);
	assert_string_equal(ri.why.msg, "role hangar cannot run: in a container only the role of "
	                                "the container's own user runs");
	hp_role_ident_container(&ri, HP_ROLE_AGENT, true);
	assert_true(ri.ok);
	assert_int_equal(ri.id.kind, HP_ID_UNCHANGED);
	assert_int_equal(ri.id.uid, geteuid());
	/* this process is that identity, groups and all */
	hp_err e;
	assert_true(hp_role_ident_is_current(&ri, HP_ROLE_AGENT, &e));
	hp_role_ident_free(&ri);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_cannot_run, sx_setup, sx_teardown),
	    cmocka_unit_test_setup_teardown(test_switches, sx_setup, sx_teardown),
	    cmocka_unit_test(test_container),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
