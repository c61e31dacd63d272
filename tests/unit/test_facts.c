/* test_facts.c: the facts format (docs/facts.md): what it accepts, how the
 * backend answers from it, and every error, with its exact message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/facts.h"
#include "expect.h"


static char text[2048];

static const char *fmt(const hp_value *v)
{
	hp_buf b = {0};
	hp_value_format(&b, v);
	snprintf(text, sizeof text, "%s", b.data);
	hp_buf_free(&b);
	return text;
}

/* Ask the backend; the answer as text. */
static const char *ask(hp_facts *f, hp_role role, hp_probe_id probe, const char *arg)
{
	hp_pool pool;
	hp_pool_init(&pool, 1 << 20);
	hp_value a = hp_v_none();
	if (arg && hp_probes[probe].arg == HP_T_STR)
		a = hp_v_str(arg, (uint32_t)strlen(arg));
	else if (arg && hp_probes[probe].arg == HP_T_ROLE)
		a = hp_v_role((hp_role)hp_lookup_name(hp_role_names, HP_ROLE_COUNT, arg));
	else if (arg)
		a = hp_v_int(atoi(arg));
	hp_backend *b = hp_probe_facts_backend(f);
	hp_value v = b->ops->ask(b, role, probe, &a, &pool);
	fmt(&v);
	hp_pool_free(&pool);
	return text;
}

static const char good[] =
    "# a comment\n"
    "version: 1\n"
    "facts:\n"
    "  - probe: user\n"
    "    arg: hangar\n"
    "    answer: {name: hangar, uid: 1001, gid: 1002, home: /var/lib/hangar, shell: /bin/sh,\n"
    "             groups: [hangar, docker]}\n"
    "  - probe: group\n"
    "    arg: docker\n"
    "    answer:\n"
    "      name: docker\n"
    "      gid: 999\n"
    "      members: [agent]\n"
    "  - {probe: user_by_uid, arg: 0x3e8, answer: absent}\n"
    "  - {probe: env, arg: PATH, answer: \"unknown\"}\n"
    "  - {probe: env, arg: HOME, answer: unknown, reason: \"env not readable\"}\n"
    "  - {probe: mode, arg: /etc, answer: 0o755}\n"
    "  - {probe: setuid_root, arg: /bin, answer: [su, passwd]}\n"
    "  - {probe: writable, arg: /tmp, answer: true}\n"
    "  - {role: agent, probe: writable, arg: /tmp, answer: false}\n"
    "  - {role: hangar, probe: caps.ambient, answer: [setuid, kill]}\n"
    "  - {role: agent, probe: sudo, answer: skipped, reason: needs a live sandbox}\n"
    "  - {role: agent, probe: signal, arg: hangar, answer: false}\n"
    "  - {role: agent, probe: procs_visible, arg: 0o1750, answer: true}\n";

static void test_answers(void **state)
{
	(void)state;
	hp_facts *f = hp_probe_facts_new();
	hp_err err = {{0}};
	if (!hp_probe_facts_load(f, "good.yaml", good, strlen(good), &err))
		fail_msg("%s", err.msg);
	assert_int_equal(hp_probe_facts_count(f), 13);
	assert_string_equal(ask(f, HP_ROLE_ROOT, HP_PROBE_USER, "hangar"),
	                    "user \"hangar\" (uid 1001, gid 1002, home \"/var/lib/hangar\", shell "
	                    "\"/bin/sh\", groups { \"hangar\", \"docker\" })");
	assert_string_equal(ask(f, HP_ROLE_ROOT, HP_PROBE_GROUP, "docker"),
	                    "group \"docker\" (gid 999, members { \"agent\" })");
	assert_string_equal(ask(f, HP_ROLE_ROOT, HP_PROBE_USER_BY_UID, "1000"), "absent");
	/* a quoted keyword is a string */
	assert_string_equal(ask(f, HP_ROLE_ROOT, HP_PROBE_ENV, "PATH"), "\"unknown\"");
	assert_string_equal(ask(f, HP_ROLE_ROOT, HP_PROBE_ENV, "HOME"),
	                    "unknown (env not readable)");
	assert_string_equal(ask(f, HP_ROLE_ROOT, HP_PROBE_MODE, "/etc"), "493");
	assert_string_equal(ask(f, HP_ROLE_ROOT, HP_PROBE_SETUID_ROOT, "/bin"),
	                    "{ \"su\", \"passwd\" }");
	/* a fact for one role beats a fact for every role */
	assert_string_equal(ask(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/tmp"), "false");
	assert_string_equal(ask(f, HP_ROLE_HANGAR, HP_PROBE_WRITABLE, "/tmp"), "true");
	assert_string_equal(ask(f, HP_ROLE_HANGAR, HP_PROBE_CAPS_AMBIENT, NULL),
	                    "{ kill, setuid }");
	assert_string_equal(ask(f, HP_ROLE_AGENT, HP_PROBE_SUDO, NULL),
	                    "skipped (needs a live sandbox)");
	assert_string_equal(ask(f, HP_ROLE_AGENT, HP_PROBE_SIGNAL, "hangar"), "false");
	assert_string_equal(ask(f, HP_ROLE_AGENT, HP_PROBE_PROCS_VISIBLE, "1000"), "true");
	/* a missing fact is unknown */
	assert_string_equal(ask(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/etc"),
	                    "unknown (no fact answers writable(\"/etc\") as agent)");
	assert_string_equal(ask(f, HP_ROLE_ROOT, HP_PROBE_USER, "nobody"),
	                    "unknown (no fact answers user(\"nobody\"))");
	assert_string_equal(ask(f, HP_ROLE_HANGAR, HP_PROBE_SUDO, NULL),
	                    "unknown (no fact answers sudo as hangar)");
	/* a later file never replaces an earlier one: agreeing is fine,
	 * disagreeing is an error naming both */
	const char *same = "facts:\n  - {role: agent, probe: writable, arg: /tmp, answer: false}\n";
	assert_true(hp_probe_facts_load(f, "same.yaml", same, strlen(same), &err));
	const char *more = "facts:\n  - {role: agent, probe: writable, arg: /tmp, answer: true}\n";
	assert_false(hp_probe_facts_load(f, "more.yaml", more, strlen(more), &err));
	assert_string_equal(err.msg, "more.yaml:2:5: the same question is answered differently "
	                             "at good.yaml:20");
	assert_string_equal(ask(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/tmp"), "false");
	hp_probe_facts_free(f);
}

/* One file per container of a pod: apart, never overriding each other. */
static void test_containers(void **state)
{
	(void)state;
	hp_err err;
	hp_facts *f = hp_probe_facts_new();
	const char *a = "container: sandbox\nfacts:\n"
	                "  - {role: agent, probe: writable, arg: /var/lib/hangar, answer: false}\n"
	                "  - {probe: owner, arg: /etc, answer: 0}\n"
	                "  - {probe: env, arg: HANGAR_K8S_DRIVER_SIDECAR, answer: \"true\"}\n";
	const char *b = "container: hangar-driver\nfacts:\n"
	                "  - {role: hangar, probe: no_new_privs, answer: true}\n"
	                "  - {probe: owner, arg: /etc, answer: 1001}\n";
	assert_true(hp_probe_facts_load(f, "a.yaml", a, strlen(a), &err));
	assert_true(hp_probe_facts_load(f, "b.yaml", b, strlen(b), &err));
	assert_string_equal(ask(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/var/lib/hangar"), "false");
	assert_string_equal(ask(f, HP_ROLE_HANGAR, HP_PROBE_NO_NEW_PRIVS, NULL), "true");
	/* two containers disagree: neither answer is taken */
	assert_string_equal(ask(f, HP_ROLE_ROOT, HP_PROBE_OWNER, "/etc"),
	                    "unknown (answered differently in container sandbox (a.yaml:4) and "
	                    "hangar-driver (b.yaml:4))");
	/* hangar's own settings are this process's, never a recording's */
	unsetenv("HANGAR_K8S_DRIVER_SIDECAR");
	assert_string_equal(ask(f, HP_ROLE_ROOT, HP_PROBE_ENV, "HANGAR_K8S_DRIVER_SIDECAR"),
	                    "absent");
	setenv("HANGAR_K8S_DRIVER_SIDECAR", "false", 1);
	assert_string_equal(ask(f, HP_ROLE_ROOT, HP_PROBE_ENV, "HANGAR_K8S_DRIVER_SIDECAR"),
	                    "\"false\"");
	unsetenv("HANGAR_K8S_DRIVER_SIDECAR");
	/* a second recording of one container that disagrees */
	const char *a2 = "container: sandbox\nfacts:\n"
	                 "  - {role: agent, probe: writable, arg: /var/lib/hangar, answer: true}\n";
	assert_false(hp_probe_facts_load(f, "a2.yaml", a2, strlen(a2), &err));
	assert_string_equal(err.msg, "a2.yaml:3:5: the same question is answered differently at "
	                             "a.yaml:3 (container sandbox)");
	/* a recording made in a container holds no document answers */
	const char *d = "container: sandbox\nfacts:\n"
	                "  - {probe: doc_bool, arg: \"pod:spec.hostPID\", answer: false}\n";
	assert_false(hp_probe_facts_load(f, "d.yaml", d, strlen(d), &err));
	assert_string_equal(err.msg, "d.yaml:3:13: a recording made in container sandbox cannot "
	                             "answer doc_bool: a document comes from the deciding call "
	                             "(--document)");
	const char *bad = "container: \"a b\"\nfacts: []\n";
	assert_false(hp_probe_facts_load(f, "bad.yaml", bad, strlen(bad), &err));
	assert_string_equal(err.msg, "bad.yaml:1:12: the container 'a b' is not a container's name");
	hp_probe_facts_free(f);
}

/* A role's fact beats the fact for every role only within its container:
 * across containers each one's own answer is compared, so a container
 * answering for every role disagrees with another's answer for the role. */
static void test_containers_role_less(void **state)
{
	(void)state;
	hp_err err;
	hp_facts *f = hp_probe_facts_new();
	const char *a = "container: sandbox\nfacts:\n"
	                "  - {role: agent, probe: procs_visible, arg: 1001, answer: false}\n"
	                "  - {role: agent, probe: writable, arg: /x, answer: false}\n"
	                "  - {probe: writable, arg: /y, answer: false}\n";
	const char *b = "container: hangar-driver\nfacts:\n"
	                "  - {probe: procs_visible, arg: 1001, answer: true}\n"
	                "  - {probe: writable, arg: /x, answer: false}\n"
	                "  - {role: agent, probe: writable, arg: /y, answer: true}\n";
	assert_true(hp_probe_facts_load(f, "a.yaml", a, strlen(a), &err));
	assert_true(hp_probe_facts_load(f, "b.yaml", b, strlen(b), &err));
	assert_string_equal(ask(f, HP_ROLE_AGENT, HP_PROBE_PROCS_VISIBLE, "1001"),
	                    "unknown (answered differently in container sandbox (a.yaml:3) and "
	                    "hangar-driver (b.yaml:3))");
	/* the other way round: the role's fact in the second container */
	assert_string_equal(ask(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/y"),
	                    "unknown (answered differently in container sandbox (a.yaml:5) and "
	                    "hangar-driver (b.yaml:5))");
	/* containers that agree, one for the role and one for every role */
	assert_string_equal(ask(f, HP_ROLE_AGENT, HP_PROBE_WRITABLE, "/x"), "false");
	/* a role that only one container answers for: the other's answer for
	 * every role is its answer for that role too */
	assert_string_equal(ask(f, HP_ROLE_HANGAR, HP_PROBE_PROCS_VISIBLE, "1001"), "true");
	assert_string_equal(ask(f, HP_ROLE_HANGAR, HP_PROBE_WRITABLE, "/y"), "false");
	hp_probe_facts_free(f);
}

/* A document's answers come from the deciding call's --document: facts
 * (a recording without a container, say) never answer doc_* unless the
 * caller is hangar-policy test, whose facts are the test's own. */
static void test_documents_not_from_facts(void **state)
{
	(void)state;
	hp_err err;
	hp_facts *f = hp_probe_facts_new();
	const char *a = "facts:\n"
	                "  - {probe: doc_bool, arg: \"pod:spec.hostPID\", answer: false,\n"
	                "     where: \"pod.yaml:3:12: spec.hostPID\"}\n";
	assert_true(hp_probe_facts_load(f, "a.yaml", a, strlen(a), &err));
	assert_string_equal(ask(f, HP_ROLE_ROOT, HP_PROBE_DOC_BOOL, "pod:spec.hostPID"),
	                    "unknown (the document is not given (--document NAME=FILE), and a "
	                    "document's answers never come from facts)");
	hp_backend *b = hp_probe_facts_backend(f);
	hp_pool pool;
	hp_pool_init(&pool, 1 << 16);
	hp_value arg = hp_v_str("pod:spec.hostPID", 16);
	assert_null(b->ops->where(b, HP_ROLE_ROOT, HP_PROBE_DOC_BOOL, &arg, &pool));
	hp_probe_facts_allow_documents(f);
	assert_string_equal(ask(f, HP_ROLE_ROOT, HP_PROBE_DOC_BOOL, "pod:spec.hostPID"), "false");
	assert_string_equal(b->ops->where(b, HP_ROLE_ROOT, HP_PROBE_DOC_BOOL, &arg, &pool),
	                    "pod.yaml:3:12: spec.hostPID");
	hp_pool_free(&pool);
	hp_probe_facts_free(f);
}

static const char *load(const char *yaml)
{
	static hp_err err;
	memset(&err, 0, sizeof err);
	hp_facts *f = hp_probe_facts_new();
	bool ok = hp_probe_facts_load(f, "f.yaml", yaml, strlen(yaml), &err);
	hp_probe_facts_free(f);
	return ok ? "(accepted)" : err.msg;
}

static void test_structure_errors(void **state)
{
	(void)state;
	EXPECT(load(""), "f.yaml:1:1: the file is empty: it needs a mapping with a 'facts' list");
	EXPECT(load("facts: [\n"),
	       "f.yaml:2:1: did not find expected node content while parsing a flow node");
	EXPECT(load("- a\n"),
	       "f.yaml:1:1: the file must be a mapping with a 'facts' list, not a list");
	EXPECT(load("facts: []\nextra: 1\n"),
	       "f.yaml:2:1: unknown key 'extra' (the keys are version, facts and container)");
	EXPECT(load("version: 2\nfacts: []\n"),
	       "f.yaml:1:10: version 2: this runtime reads version 1");
	EXPECT(load("version: one\nfacts: []\n"),
	       "f.yaml:1:10: the version must be an int, not 'one'");
	EXPECT(load("version: 1\n"), "f.yaml:1:1: no 'facts' list");
	EXPECT(load("facts: {probe: sudo}\n"), "f.yaml:1:8: 'facts' must be a list, not a mapping");
	EXPECT(load("facts: []\n---\nfacts: []\n"), "f.yaml:2:1: more than one YAML document in the file");
	EXPECT(load("facts: &a []\n"), "f.yaml:1:8: anchors are not allowed");
	EXPECT(load("facts: !!seq []\n"), "f.yaml:1:8: tags are not allowed ('tag:yaml.org,2002:seq')");
	EXPECT(load("x: &a 1\nfacts: *a\n"), "f.yaml:1:4: anchors are not allowed");
	EXPECT(load("facts: *a\n"), "f.yaml:1:8: aliases are not allowed (a file is read without expansion)");
	EXPECT(load("facts: [[[[[[[[[1]]]]]]]]]\n"),
	       "f.yaml:1:15: collections nested more than 8 deep");
	EXPECT(load("facts: []\nfacts: []\n"),
	       "f.yaml:2:1: key 'facts' given twice (first at line 1)");
	EXPECT(load("? [a]\n: 1\nfacts: []\n"), "f.yaml:1:3: a key must be a word, not a list");
}

static void test_fact_errors(void **state)
{
	(void)state;
	EXPECT(load("facts:\n  - sudo\n"),
	       "f.yaml:2:5: a fact is a mapping (role, probe, arg, answer), not a scalar");
	EXPECT(
	    load("facts:\n  - {probe: sudo, answer: true, colour: red}\n"),
	    "f.yaml:2:33: unknown key 'colour' (the keys are role, probe, arg, answer, reason and where)");
	EXPECT(load("facts:\n  - {answer: true}\n"), "f.yaml:2:5: a fact needs a probe");
	EXPECT(load("facts:\n  - {probe: [sudo], answer: true}\n"),
	       "f.yaml:2:13: the probe must be a scalar, not a list");
	EXPECT(load("facts:\n  - {probe: sudoo, answer: true}\n"),
	       "f.yaml:2:13: unknown probe 'sudoo'");
	EXPECT(load("facts:\n  - {role: admin, probe: sudo, answer: true}\n"),
	       "f.yaml:2:12: unknown role 'admin' (root, hangar or agent)");
	EXPECT(load("facts:\n  - {role: agent, probe: env, arg: X, answer: x}\n"),
	       "f.yaml:2:12: probe env is answered once for every role: its facts have no role");
	EXPECT(load("facts:\n  - {probe: sudo, arg: x, answer: true}\n"),
	       "f.yaml:2:24: probe sudo takes no argument");
	EXPECT(load("facts:\n  - {probe: writable, answer: true}\n"),
	       "f.yaml:2:5: probe writable takes an argument (string): add 'arg'");
	EXPECT(load("facts:\n  - {probe: user_by_uid, arg: root, answer: absent}\n"),
	       "f.yaml:2:31: the argument must be an int, not 'root'");
	EXPECT(load("facts:\n  - {probe: signal, arg: nobody, answer: true}\n"),
	       "f.yaml:2:26: unknown role 'nobody' (root, hangar or agent)");
	EXPECT(load("facts:\n  - {probe: sudo}\n"), "f.yaml:2:5: a fact needs an answer");
	EXPECT(load("facts:\n  - {probe: sudo, answer: yes}\n"),
	       "f.yaml:2:27: the answer must be true or false, not 'yes'");
	EXPECT(load("facts:\n  - {probe: sudo, answer: \"true\"}\n"),
	       "f.yaml:2:27: the answer must be true or false, not a quoted string");
	EXPECT(load("facts:\n  - {probe: owner, arg: /, answer: 0xg}\n"),
	       "f.yaml:2:36: the answer must be an int, not '0xg'");
	EXPECT(load("facts:\n  - {probe: owner, arg: /, answer: 99999999999999999999}\n"),
	       "f.yaml:2:36: the answer must be an int, not '99999999999999999999'");
	EXPECT(load("facts:\n  - {probe: setuid_root, arg: /, answer: su}\n"),
	       "f.yaml:2:42: the answer must be a list, not a scalar");
	EXPECT(load("facts:\n  - {probe: setuid_root, arg: /, answer: [[su]]}\n"),
	       "f.yaml:2:43: an item must be a scalar, not a list");
	EXPECT(load("facts:\n  - {probe: caps.ambient, answer: [cap_kill]}\n"),
	       "f.yaml:2:36: unknown capability 'cap_kill' (write it without cap_)");
	EXPECT(load("facts:\n  - {probe: caps.ambient, answer: kill}\n"),
	       "f.yaml:2:35: the answer must be a list of capability names, not a scalar");
	EXPECT(load("facts:\n  - {probe: user, arg: a, answer: {name: a, uid: 1}}\n"),
	       "f.yaml:2:35: a user needs name, uid and gid");
	EXPECT(
	    load("facts:\n  - {probe: user, arg: a, answer: {name: a, uid: 1, gid: 1, age: 3}}\n"),
	    "f.yaml:2:61: unknown key 'age' (the keys are name, uid, gid, home, shell and groups)");
	EXPECT(load("facts:\n  - {probe: group, arg: a, answer: {gid: 1}}\n"),
	       "f.yaml:2:36: a group needs name and gid");
	EXPECT(load("facts:\n  - {probe: group, arg: a, answer: [a]}\n"),
	       "f.yaml:2:36: a group is a mapping, not a list");
	EXPECT(load("facts:\n  - {probe: env, arg: X, answer: x, reason: why}\n"),
	       "f.yaml:2:45: a reason goes with an answer of unknown, skipped or absent");
	EXPECT(load("facts:\n  - {probe: env, arg: X, answer: \"a\\0b\"}\n"),
	       "f.yaml:2:34: a NUL character in a string");
	EXPECT(load("facts:\n  - {probe: env, arg: X, answer: absent}\n"
	            "  - {probe: env, arg: X, answer: x}\n"),
	       "f.yaml:3:5: the same question is answered at line 2");
	EXPECT(load("facts:\n  - {probe: sudo, answer: true}\n  - {probe: sudo, answer: false}\n"),
	       "f.yaml:3:5: the same question is answered at line 2");
}

/* Every int a fact gives is in the kernel's range for it, the edges
 * included; one past an edge is refused with its line and column. */
static void test_int_ranges(void **state)
{
	(void)state;
	static const char *const ok[] = {
	    "facts:\n  - {probe: user, arg: a, answer: {name: a, uid: 4294967294, gid: 0}}\n",
	    "facts:\n  - {probe: group, arg: a, answer: {name: a, gid: 4294967294}}\n",
	    "facts:\n  - {probe: user_by_uid, arg: 0, answer: absent}\n",
	    "facts:\n  - {probe: user_by_uid, arg: 4294967294, answer: absent}\n",
	    "facts:\n  - {role: agent, probe: procs_visible, arg: 4294967294, answer: true}\n",
	    "facts:\n  - {probe: owner, arg: /, answer: 4294967294}\n",
	    "facts:\n  - {probe: group_owner, arg: /, answer: 0}\n",
	    "facts:\n  - {probe: mode, arg: /, answer: 0o7777}\n",
	    "facts:\n  - {probe: mode, arg: /, answer: 0}\n",
	    "facts:\n  - {probe: links, arg: /, answer: 4294967295}\n",
	    "facts:\n  - {probe: owner, arg: /, answer: unknown}\n",
	};
	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
		EXPECT(load(ok[i]), "(accepted)");
	EXPECT(load("facts:\n  - {probe: user, arg: a, answer: {name: a, uid: 4294967296, gid: 1}}\n"),
	       "f.yaml:2:50: uid 4294967296 is out of range: an id is 0 to 4294967294");
	EXPECT(load("facts:\n  - {probe: user, arg: a, answer: {name: a, uid: -1, gid: 1}}\n"),
	       "f.yaml:2:50: uid -1 is out of range: an id is 0 to 4294967294");
	EXPECT(load("facts:\n  - {probe: user, arg: a, answer: {name: a, uid: 1, gid: 4294967295}}\n"),
	       "f.yaml:2:58: gid 4294967295 is out of range: an id is 0 to 4294967294");
	EXPECT(load("facts:\n  - {probe: group, arg: a, answer: {name: a, gid: 0x100000000}}\n"),
	       "f.yaml:2:51: gid 0x100000000 is out of range: an id is 0 to 4294967294");
	EXPECT(load("facts:\n  - {probe: user_by_uid, arg: 4294967295, answer: absent}\n"),
	       "f.yaml:2:31: the argument 4294967295 is out of range: an id is 0 to 4294967294");
	EXPECT(load("facts:\n  - {role: agent, probe: procs_visible, arg: -5, answer: true}\n"),
	       "f.yaml:2:46: the argument -5 is out of range: an id is 0 to 4294967294");
	EXPECT(load("facts:\n  - {probe: users_with_uid, arg: 4294967295, answer: [root]}\n"),
	       "f.yaml:2:34: the argument 4294967295 is out of range: an id is 0 to 4294967294");
	EXPECT(load("facts:\n  - {probe: owner, arg: /, answer: -1}\n"),
	       "f.yaml:2:36: the answer -1 is out of range: an id is 0 to 4294967294");
	EXPECT(load("facts:\n  - {probe: group_owner, arg: /, answer: 4294967296}\n"),
	       "f.yaml:2:42: the answer 4294967296 is out of range: an id is 0 to 4294967294");
	EXPECT(load("facts:\n  - {probe: mode, arg: /, answer: 0o10000}\n"),
	       "f.yaml:2:35: the answer 0o10000 is out of range: a mode is 0 to 0o7777");
	EXPECT(load("facts:\n  - {probe: mode, arg: /, answer: -1}\n"),
	       "f.yaml:2:35: the answer -1 is out of range: a mode is 0 to 0o7777");
	EXPECT(load("facts:\n  - {probe: links, arg: /, answer: 4294967296}\n"),
	       "f.yaml:2:36: the answer 4294967296 is out of range: a link count is 0 to 4294967295");
	EXPECT(load("facts:\n  - {probe: links, arg: /, answer: -1}\n"),
	       "f.yaml:2:36: the answer -1 is out of range: a link count is 0 to 4294967295");
	/* every probe with an int argument or answer has its range: a probe added
	 * without one would have every fact of it refused */
	for (int p = 0; p < HP_PROBE_COUNT; p++) {
		if (hp_probes[p].arg == HP_T_INT)
			assert_true(hp_probe_facts_int_has_range((hp_probe_id)p, true));
		if (hp_probes[p].result == HP_T_INT)
			assert_true(hp_probe_facts_int_has_range((hp_probe_id)p, false));
		if (hp_probes[p].arg != HP_T_INT)
			assert_false(hp_probe_facts_int_has_range((hp_probe_id)p, true));
	}
}

static void test_limits(void **state)
{
	(void)state;
	hp_buf b = {0};
	hp_buf_puts(&b, "facts:\n  - {probe: env, arg: X, answer: \"");
	for (int i = 0; i < 65537; i++)
		hp_buf_putc(&b, 'x');
	hp_buf_puts(&b, "\"}\n");
	EXPECT(load(b.data), "f.yaml:2:34: the answer is 65537 bytes, more than 65536");
	hp_buf_free(&b);
	hp_buf_puts(&b, "facts:\n  - {probe: setuid_root, arg: /, answer: [");
	for (int i = 0; i < 4097; i++)
		hp_buf_puts(&b, i ? ",a" : "a");
	hp_buf_puts(&b, "]}\n");
	EXPECT(load(b.data), "f.yaml:2:42: the answer has 4097 items, more than 4096");
	hp_buf_free(&b);
	hp_err err = {{0}};
	hp_facts *f = hp_probe_facts_new();
	assert_false(hp_probe_facts_load_file(f, "/", &err));
	EXPECT(err.msg, "/: not a regular file");
	assert_false(hp_probe_facts_load_file(f, "/nonexistent/f.yaml", &err));
	EXPECT(err.msg, "/nonexistent/f.yaml: No such file or directory");
	hp_probe_facts_free(f);
}

int main(int argc, char **argv)
{
	(void)argv;
	expect_printing = argc > 1;
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_answers),
	    cmocka_unit_test(test_structure_errors),
	    cmocka_unit_test(test_fact_errors),
	    cmocka_unit_test(test_int_ranges),
	    cmocka_unit_test(test_limits),
	    cmocka_unit_test(test_containers),
	    cmocka_unit_test(test_containers_role_less),
	    cmocka_unit_test(test_documents_not_from_facts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
