/* test_pam.c: su's PAM auth stack, read and run as libpam would, over the
 * answers each module could give without the target's password. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "etc/pam.h"

/* an image's files, in memory: "path\0text" pairs; a NULL text is a
 * directory */
typedef struct {
	const char *path, *text;
} mem_file;

typedef struct {
	const mem_file *f;
	size_t n;
} mem_root;

static hp_tri mem_read(void *ctx, const char *path, size_t max, char **buf, size_t *len,
                       hp_err *err)
{
	const mem_root *r = ctx;
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->f[i].path, path) == 0) {
			if (!r->f[i].text) {
				hp_err_set(err, "%s: not a regular file", path);
				return HP_UNKNOWN;
			}
			*len = strlen(r->f[i].text);
			if (*len > max) {
				hp_err_set(err, "%s: more than %zu bytes", path, max);
				return HP_UNKNOWN;
			}
			*buf = malloc(*len + 1);
			memcpy(*buf, r->f[i].text, *len + 1);
			return HP_TRUE;
		}
	return HP_FALSE;
}

static hp_tri mem_isdir(void *ctx, const char *path, hp_err *err)
{
	(void)err;
	const mem_root *r = ctx;
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->f[i].path, path) == 0)
			return r->f[i].text ? HP_FALSE : HP_TRUE;
	return HP_FALSE;
}

static const char passwd[] = "root:x:0:0:root:/root:/bin/sh\n"
                             "hangar:x:999:999::/var/lib/hangar:/usr/sbin/nologin\n"
                             "agent:x:1000:1000::/home/agent:/bin/sh\n";
static const char group[] = "root:x:0:\n"
                            "staff:x:50:agent\n"
                            "wheel:x:10:\n"
                            "hangar:x:999:\n"
                            "agent:x:1000:\n";

static const char debian_common_auth[] =
    "# here are the per-package modules (the \"Primary\" block)\n"
    "auth\t[success=1 default=ignore]\tpam_unix.so nullok\n"
    "# here's the fallback if no module succeeds\n"
    "auth\trequisite\t\t\tpam_deny.so\n"
    "auth\trequired\t\t\tpam_permit.so\n"
    "auth\toptional\t\t\tpam_cap.so \n";
static const char debian_su[] = "auth       sufficient pam_rootok.so\n"
                                "# auth       sufficient pam_wheel.so trust\n"
                                "session       required   pam_env.so readenv=1\n"
                                "session    optional   pam_mail.so nopen\n"
                                "session    required   pam_limits.so\n"
                                "@include common-auth\n"
                                "@include common-account\n"
                                "@include common-session\n";

static hp_userdb *db;

static int setup(void **state)
{
	(void)state;
	hp_err err;
	db = hp_etc_userdb_parse(passwd, strlen(passwd), "etc/passwd", group, strlen(group),
	                         "etc/group", &err);
	return db ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	hp_etc_userdb_free(db);
	return 0;
}

/* su to target, by agent, with etc/pam.d/su (and common-auth) as given */
static hp_tri ask_pw(const char *su, const char *common, const char *target, hp_pw_state pw,
                     hp_err *why)
{
	mem_file f[] = {{"etc/pam.d", NULL},
	                {"etc/pam.d/su", su},
	                {"etc/pam.d/common-auth", common},
	                {"etc/pam.d/common-account", "account required pam_unix.so\n"},
	                {"etc/pam.d/common-session", "session required pam_unix.so\n"},
	                {"etc/pam.d/other", "@include common-auth\n"}};
	mem_root r = {f, su ? 6 : 6};
	if (!su) {
		f[1].path = "etc/pam.d/su-none";
	}
	hp_pam_files files = {&r, mem_read, mem_isdir};
	hp_pam_who who = {db, target, pw, "etc/shadow could not be read", 1000};
	memset(why, 0, sizeof *why);
	return hp_etc_pam_passwordless(&files, "su", &who, why);
}

static hp_tri ask(const char *su, hp_err *why)
{
	return ask_pw(su, debian_common_auth, "root", HP_PW_LOCKED, why);
}

static void test_debian_stock(void **state)
{
	(void)state;
	hp_err why;
	assert_int_equal(ask(debian_su, &why), HP_FALSE);
	assert_string_equal(why.msg, "no way through su's auth stack succeeds without the password");
	/* a hash is as good as locked to PAM: it needs the password */
	assert_int_equal(ask_pw(debian_su, debian_common_auth, "root", HP_PW_HASH, &why), HP_FALSE);
	/* nullok and an empty password: in without one */
	assert_int_equal(ask_pw(debian_su, debian_common_auth, "root", HP_PW_EMPTY, &why), HP_TRUE);
	assert_string_equal(why.msg, "etc/pam.d/common-auth:2: pam_unix.so nullok lets in an empty "
	                             "password, and root's is empty");
	assert_int_equal(ask_pw(debian_su, debian_common_auth, "root", HP_PW_UNKNOWN, &why),
	                 HP_UNKNOWN);
	assert_string_equal(why.msg, "etc/pam.d/common-auth:2: pam_unix.so nullok lets in an empty "
	                             "password, and whether root's is empty is unknown (etc/shadow "
	                             "could not be read): it may let su in without a password");
	/* no nullok: an empty password fails too */
	assert_int_equal(ask_pw(debian_su, "auth required pam_unix.so\n", "root", HP_PW_EMPTY, &why),
	                 HP_FALSE);
	/* pam_unix reads its options by prefix */
	assert_int_equal(ask_pw(debian_su, "auth sufficient pam_unix.so nullok_secure\n", "root",
	                        HP_PW_EMPTY, &why),
	                 HP_TRUE);
}

static void test_ways_in(void **state)
{
	(void)state;
	hp_err why;
	assert_int_equal(ask("auth sufficient pam_permit.so\n@include common-auth\n", &why), HP_TRUE);
	assert_string_equal(why.msg, "etc/pam.d/su:1: pam_permit.so lets anyone in");
	/* the control word in any case, the module by its full path */
	assert_int_equal(
	    ask("AUTH Sufficient /lib/x86_64-linux-gnu/security/pam_permit.so\n", &why), HP_TRUE);
	/* a jump over pam_unix, and one on a failure the caller can cause */
	assert_int_equal(ask("auth [success=done default=1] pam_unix.so\nauth requisite pam_deny.so\n"
	                     "auth required pam_permit.so\n",
	                     &why),
	                 HP_TRUE);
	assert_string_equal(why.msg, "etc/pam.d/su:3: pam_permit.so lets anyone in");
	assert_int_equal(ask("auth [success=ok conv_err=1 default=bad] pam_unix.so\n"
	                     "auth requisite pam_deny.so\nauth required pam_permit.so\n",
	                     &why),
	                 HP_TRUE);
	/* pam_wheel trust: for a group the agent is in (staff), or its own */
	assert_int_equal(ask("auth sufficient pam_wheel.so trust group=staff\n@include common-auth\n",
	                     &why),
	                 HP_TRUE);
	assert_string_equal(why.msg, "etc/pam.d/su:1: pam_wheel.so trust lets in the group \"staff\", "
	                             "and agent is in it");
	assert_int_equal(ask("auth sufficient pam_wheel.so trust group=agent\n", &why), HP_TRUE);
	/* ... but not for wheel, which the agent is not in */
	assert_int_equal(ask("auth sufficient pam_wheel.so trust\n@include common-auth\n", &why),
	                 HP_FALSE);
	/* deny trust: whoever is not in the group */
	assert_int_equal(ask("auth sufficient pam_wheel.so trust deny group=wheel\n", &why), HP_TRUE);
	/* root_only: for hangar the module ignores the request */
	assert_int_equal(ask_pw("auth sufficient pam_wheel.so trust group=staff root_only\n"
	                        "@include common-auth\n",
	                        debian_common_auth, "hangar", HP_PW_LOCKED, &why),
	                 HP_FALSE);
	/* pam_nologin successok, pam_securetty for a target that is not root */
	assert_int_equal(ask("auth sufficient pam_nologin.so successok\n", &why), HP_TRUE);
	assert_int_equal(ask("auth sufficient pam_nologin.so\n@include common-auth\n", &why),
	                 HP_FALSE);
	assert_int_equal(ask("auth sufficient pam_securetty.so\n", &why), HP_TRUE);
	/* a substack whose own success is done: only its own level ends */
	assert_int_equal(ask("auth substack common-auth\nauth required pam_permit.so\n", &why),
	                 HP_FALSE);
	/* reset back to the start after a failure, then a permit */
	assert_int_equal(ask("auth [default=reset] pam_unix.so\nauth required pam_permit.so\n", &why),
	                 HP_TRUE);
	assert_int_equal(ask("auth required pam_deny.so\nauth [default=reset] pam_unix.so\n"
	                     "auth required pam_permit.so\n",
	                     &why),
	                 HP_TRUE);
	/* ... but requisite's failure ends the stack before any reset */
	assert_int_equal(ask("auth requisite pam_deny.so\nauth [success=ok default=reset] pam_unix.so\n"
	                     "auth required pam_permit.so\n",
	                     &why),
	                 HP_FALSE);
}

static void test_unknown(void **state)
{
	(void)state;
	hp_err why;
	assert_int_equal(ask("auth sufficient pam_succeed_if.so uid >= 0\n@include common-auth\n",
	                     &why),
	                 HP_UNKNOWN);
	assert_string_equal(why.msg, "etc/pam.d/su:1: pam_succeed_if.so succeeds when its conditions "
	                             "hold, which are not evaluated: it may let su in without a "
	                             "password");
	assert_int_equal(ask("auth sufficient pam_foo.so\n@include common-auth\n", &why), HP_UNKNOWN);
	assert_string_equal(why.msg, "etc/pam.d/su:1: pam_foo.so is not a module whose answers this "
	                             "check knows: it may let su in without a password");
	assert_int_equal(ask("auth sufficient /home/agent/pam_x.so\n", &why), HP_UNKNOWN);
	assert_string_equal(why.msg, "etc/pam.d/su:1: /home/agent/pam_x.so, a module outside the "
	                             "module directories: it may let su in without a password");
	/* an unknown module that only comes after a refusal is harmless */
	assert_int_equal(ask("auth requisite pam_deny.so\nauth sufficient pam_foo.so\n", &why),
	                 HP_FALSE);
	assert_int_equal(ask("auth [success=ok default=bda] pam_unix.so\n", &why), HP_UNKNOWN);
	assert_string_equal(why.msg, "etc/pam.d/su:1: the control \"success=ok default=bda\" is not "
	                             "one this check reads");
	assert_int_equal(ask("auth [success=0] pam_unix.so\n", &why), HP_UNKNOWN);
	assert_int_equal(ask("auht sufficient pam_permit.so\n", &why), HP_UNKNOWN);
	assert_string_equal(why.msg, "etc/pam.d/su:1: \"auht\" is not a module type");
	assert_int_equal(ask("auth sufficient\n", &why), HP_UNKNOWN);
	assert_string_equal(why.msg, "etc/pam.d/su:1: no module");
	assert_int_equal(ask("@include missing\n", &why), HP_UNKNOWN);
	assert_string_equal(why.msg, "etc/pam.d/missing does not exist");
	assert_int_equal(ask("@include /home/agent/pam\n", &why), HP_UNKNOWN);
	assert_string_equal(why.msg, "etc/pam.d/su:1: includes \"/home/agent/pam\", outside etc/pam.d");
	assert_int_equal(ask("auth include ../../home/agent/x\n", &why), HP_UNKNOWN);
	assert_int_equal(ask("@include su\n", &why), HP_UNKNOWN);
	assert_string_equal(why.msg, "etc/pam.d/su:1: includes nested more than 16 deep");
	assert_int_equal(ask("auth required pam_unix.so\r\n", &why), HP_UNKNOWN);
	assert_string_equal(why.msg, "etc/pam.d/su:1: a control character (0x0d)");
	/* a line libpam would cut in two */
	char longline[1200];
	memset(longline, ' ', sizeof longline);
	memcpy(longline, "auth required pam_deny.so", 25);
	memcpy(longline + 1100, "\nauth sufficient pam_permit.so\n", 32);
	assert_int_equal(ask(longline, &why), HP_UNKNOWN);
	assert_string_equal(why.msg, "etc/pam.d/su:1: a line longer than libpam's 1023 bytes (it "
	                             "would cut it in two)");
}

static void test_lines(void **state)
{
	(void)state;
	hp_err why;
	/* a '#' anywhere starts a comment */
	assert_int_equal(ask("auth sufficient pam_unix.so #nullok\n@include common-auth\n", &why),
	                 HP_FALSE);
	/* ... right after the module's name too: no "pam_unix.so#nullok" */
	assert_int_equal(ask_pw("auth [success=ok default=bad] pam_unix.so#nullok\n", "", "root",
	                        HP_PW_EMPTY, &why),
	                 HP_FALSE);
	/* a backslash joins the next line that is not blank or a comment */
	assert_int_equal(ask("auth sufficient \\\n# a comment\n\npam_permit.so\n", &why), HP_TRUE);
	assert_string_equal(why.msg, "etc/pam.d/su:1: pam_permit.so lets anyone in");
	/* a bracketed token is one, "\]" is "]" */
	assert_int_equal(ask("auth [success=done\tdefault=ignore] pam_permit.so\n", &why), HP_TRUE);
	/* other stacks' lines are not the auth stack's */
	assert_int_equal(ask("account sufficient pam_permit.so\nsession sufficient pam_permit.so\n"
	                     "auth required pam_deny.so\n",
	                     &why),
	                 HP_FALSE);
	assert_int_equal(ask("auth required pam_unix.so\n\\", &why), HP_UNKNOWN);
	assert_string_equal(why.msg, "etc/pam.d/su:2: the last line ends in a backslash");
}

static void test_services(void **state)
{
	(void)state;
	hp_err why;
	/* no auth line in su: libpam runs other's */
	assert_int_equal(ask("session required pam_env.so\n", &why), HP_FALSE);
	mem_file f[] = {{"etc/pam.d", NULL}, {"etc/pam.d/other", "auth sufficient pam_permit.so\n"}};
	mem_root r = {f, 2};
	hp_pam_files files = {&r, mem_read, mem_isdir};
	hp_pam_who who = {db, "root", HP_PW_LOCKED, NULL, 1000};
	assert_int_equal(hp_etc_pam_passwordless(&files, "su", &who, &why), HP_TRUE);
	assert_string_equal(why.msg, "etc/pam.d/other:1: pam_permit.so lets anyone in");
	/* su with no auth line of its own */
	mem_file o[] = {{"etc/pam.d", NULL},
	                {"etc/pam.d/su", "session required pam_env.so\n"},
	                {"etc/pam.d/other", "auth sufficient pam_permit.so\n"}};
	mem_root ro = {o, 3};
	files.ctx = &ro;
	assert_int_equal(hp_etc_pam_passwordless(&files, "su", &who, &why), HP_TRUE);
	assert_string_equal(why.msg, "etc/pam.d/other:1: pam_permit.so lets anyone in");
	files.ctx = &r;
	f[1].path = "etc/pam.d/else";
	assert_int_equal(hp_etc_pam_passwordless(&files, "su", &who, &why), HP_FALSE);
	assert_string_equal(why.msg,
	                    "su has no PAM file and there is no \"other\": PAM lets no one in");
	/* usr/lib/pam.d is not checked for who can write it */
	mem_file g[] = {{"usr/lib/pam.d", NULL}, {"usr/lib/pam.d/su", "auth required pam_deny.so\n"}};
	mem_root rg = {g, 2};
	files.ctx = &rg;
	assert_int_equal(hp_etc_pam_passwordless(&files, "su", &who, &why), HP_UNKNOWN);
	assert_string_equal(why.msg, "usr/lib/pam.d/su: PAM reads usr/lib/pam.d, whose files "
	                             "system-files does not check");
	/* neither directory: pam.conf, or nothing */
	mem_file h[] = {{"etc/pam.conf", "su auth sufficient pam_permit.so\n"}};
	mem_root rh = {h, 1};
	files.ctx = &rh;
	assert_int_equal(hp_etc_pam_passwordless(&files, "su", &who, &why), HP_UNKNOWN);
	assert_string_equal(why.msg, "PAM reads etc/pam.conf, which this check does not read");
	rh.n = 0;
	assert_int_equal(hp_etc_pam_passwordless(&files, "su", &who, &why), HP_FALSE);
	assert_int_equal(hp_etc_pam_passwordless(&files, "../su", &who, &why), HP_UNKNOWN);
	assert_string_equal(why.msg, "\"../su\" is not a PAM service name");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_debian_stock), cmocka_unit_test(test_ways_in),
	    cmocka_unit_test(test_unknown),      cmocka_unit_test(test_lines),
	    cmocka_unit_test(test_services),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
