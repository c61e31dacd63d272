/* test_document.c: the document reader and its queries (document.h,
 * docs/documents.md): YAML 1.1 typing as Kubernetes reads it, every
 * refusal with its exact message, paths, absence, wrong types, evidence,
 * pod templates of workloads, and the docset backend in front of facts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/bytecode.h"
#include "probe/docset.h"
#include "probe/document.h"
#include "probe/facts.h"

static char text[2048];

static hp_doc *load(const char *src)
{
	hp_err err;
	hp_doc *d = hp_probe_doc_load("pod", "pod.yaml", src, strlen(src), &err);
	if (!d)
		fail_msg("did not load: %s", err.msg);
	return d;
}

static const char *refused(const char *src)
{
	static hp_err err;
	hp_doc *d = hp_probe_doc_load("pod", "pod.yaml", src, strlen(src), &err);
	if (d) {
		hp_probe_doc_free(d);
		return "(loaded)";
	}
	return err.msg;
}

/* The answer to a query as text, then " @ " and its evidence when there is some. */
static const char *q(const hp_doc *d, hp_doc_ask ask, const char *path)
{
	hp_pool pool;
	hp_pool_init(&pool, 1 << 20);
	hp_buf b = {0}, where = {0};
	hp_value v = hp_probe_doc_query(d, ask, path, &pool, &where);
	hp_value_format(&b, &v);
	if (where.len)
		hp_buf_printf(&b, " @ %s", where.data);
	snprintf(text, sizeof text, "%s", b.data);
	hp_buf_free(&b);
	hp_buf_free(&where);
	hp_pool_free(&pool);
	return text;
}

static const char pod[] = "apiVersion: v1\n"
                          "kind: Pod\n"
                          "spec:\n"
                          "  hostPID: no\n"
                          "  shareProcessNamespace: False\n"
                          "  containers:\n"
                          "    - name: sandbox\n"
                          "      securityContext: {runAsUser: 1000, privileged: \"true\"}\n"
                          "    - name: hangar-driver\n"
                          "      securityContext:\n"
                          "        runAsUser: 0x3e9\n"
                          "        allowPrivilegeEscalation: off\n"
                          "        capabilities: {drop: [ALL], add: ~}\n"
                          "      volumeMounts:\n"
                          "        - {name: hangar-ctl, mountPath: /var/lib/hangar-ctl}\n"
                          "  volumes:\n"
                          "    - name: hangar-ctl\n"
                          "      emptyDir: {medium: Memory, sizeLimit: 64Mi}\n";

static void test_yaml11_scalars(void **state)
{
	(void)state;
	hp_doc *d = load(pod);
	assert_string_equal(hp_probe_doc_kind(d), "Pod");
	assert_string_equal(q(d, HP_DOC_BOOL, "spec.hostPID"), "false @ pod.yaml:4:12: spec.hostPID");
	assert_string_equal(q(d, HP_DOC_BOOL, "spec.shareProcessNamespace"),
	                    "false @ pod.yaml:5:26: spec.shareProcessNamespace");
	assert_string_equal(q(d, HP_DOC_INT, "spec.containers[1].securityContext.runAsUser"),
	                    "1001 @ pod.yaml:11:20: spec.containers[1].securityContext.runAsUser");
	assert_string_equal(
	    q(d, HP_DOC_BOOL,
	      "spec.containers[name=\"hangar-driver\"].securityContext.allowPrivilegeEscalation"),
	    "false @ pod.yaml:12:35: spec.containers[1].securityContext.allowPrivilegeEscalation");
	/* a quoted "true" is a string: asked as a bool it is unknown, never false */
	assert_string_equal(q(d, HP_DOC_BOOL, "spec.containers[0].securityContext.privileged"),
	                    "unknown (pod.yaml:8:54: spec.containers[0].securityContext.privileged "
	                    "is a string, not a bool)");
	hp_probe_doc_free(d);

	d = load("a: 0755\nb: 1_000\nc: -0b11\nd: 1.5\ne: Yes\nf: y\ng: ON\nh: 99999999999999999999\n"
	         "i: '0755'\nj: .inf\n");
	assert_string_equal(q(d, HP_DOC_INT, "a"), "493 @ pod.yaml:1:4: a");
	assert_string_equal(q(d, HP_DOC_INT, "b"), "1000 @ pod.yaml:2:4: b");
	assert_string_equal(q(d, HP_DOC_INT, "c"), "-3 @ pod.yaml:3:4: c");
	assert_string_equal(q(d, HP_DOC_INT, "d"), "unknown (pod.yaml:4:4: d is a float, not an int)");
	assert_string_equal(q(d, HP_DOC_BOOL, "e"), "true @ pod.yaml:5:4: e");
	assert_string_equal(q(d, HP_DOC_BOOL, "f"), "true @ pod.yaml:6:4: f");
	assert_string_equal(q(d, HP_DOC_BOOL, "g"), "true @ pod.yaml:7:4: g");
	assert_string_equal(q(d, HP_DOC_INT, "h"), "unknown (pod.yaml:8:4: h is a float, not an int)");
	assert_string_equal(q(d, HP_DOC_STR, "i"), "\"0755\" @ pod.yaml:9:4: i");
	assert_string_equal(q(d, HP_DOC_INT, "j"), "unknown (pod.yaml:10:4: j is a float, not an int)");
	hp_probe_doc_free(d);
}

static void test_json(void **state)
{
	(void)state;
	hp_doc *d = load("{\"kind\":\"Pod\",\"spec\":{\"hostPID\":true,\"containers\":"
	                 "[{\"name\":\"a\",\"ports\":[{\"hostPort\":8080}]}]}}");
	assert_string_equal(q(d, HP_DOC_BOOL, "@pod.spec.hostPID"),
	                    "true @ pod.yaml:1:33: spec.hostPID");
	assert_string_equal(q(d, HP_DOC_COUNT, "@pod.spec.containers[*].ports[*].hostPort"),
	                    "1 @ pod.yaml:1:85: spec.containers[0].ports[0].hostPort");
	hp_probe_doc_free(d);
}

static void test_absent_and_null(void **state)
{
	(void)state;
	hp_doc *d = load(pod);
	assert_string_equal(
	    q(d, HP_DOC_BOOL, "spec.containers[name=\"sandbox\"].securityContext.allowPrivilegeEscalation"),
	    "absent @ pod.yaml:8:24: spec.containers[0].securityContext.allowPrivilegeEscalation");
	/* null is unset, as Kubernetes reads it */
	assert_string_equal(q(d, HP_DOC_STRS, "spec.containers[1].securityContext.capabilities.add"),
	                    "absent @ pod.yaml:13:23: spec.containers[1].securityContext.capabilities.add");
	assert_string_equal(q(d, HP_DOC_STRS, "spec.containers[1].securityContext.capabilities.drop"),
	                    "{ \"ALL\" } @ pod.yaml:13:30: spec.containers[1].securityContext.capabilities.drop");
	assert_string_equal(q(d, HP_DOC_EXISTS, "spec.hostNetwork"), "false @ pod.yaml:4:3: spec.hostNetwork");
	assert_string_equal(q(d, HP_DOC_COUNT, "spec.volumes[*].hostPath"), "0 @ pod.yaml:17:7: spec.volumes[0].hostPath");
	assert_string_equal(q(d, HP_DOC_STR, "spec.containers[name=\"nope\"].image"),
	                    "absent @ pod.yaml:7:5: spec.containers[name=\"nope\"].image");
	hp_probe_doc_free(d);
}

static void test_selections(void **state)
{
	(void)state;
	hp_doc *d = load(pod);
	assert_string_equal(q(d, HP_DOC_STRS, "spec.containers[*].name"),
	                    "{ \"sandbox\", \"hangar-driver\" } @ pod.yaml:7:13: spec.containers[0].name");
	assert_string_equal(q(d, HP_DOC_COUNT, "spec.containers[*].volumeMounts[name=\"hangar-ctl\"]"),
	                    "1 @ pod.yaml:15:11: spec.containers[1].volumeMounts[0]");
	assert_string_equal(q(d, HP_DOC_STR, "spec.containers[*].name"),
	                    "unknown (pod.yaml:7:13: spec.containers[0].name selects 2 values, not one)");
	assert_string_equal(q(d, HP_DOC_COUNT, "spec.containers[*].securityContext[runAsUser=1000]"),
	                    "1 @ pod.yaml:8:36: spec.containers[0].securityContext.runAsUser");
	/* a filter on a value of another type is unknown: a quoted "true" is not missed */
	assert_string_equal(q(d, HP_DOC_COUNT, "spec.containers[*].securityContext[privileged=true]"),
	                    "unknown (pod.yaml:8:54: spec.containers[0].securityContext.privileged "
	                    "is a string, not a bool)");
	assert_string_equal(q(d, HP_DOC_STR, "spec.containers.name"),
	                    "unknown (pod.yaml:7:5: spec.containers is a list, not a mapping)");
	assert_string_equal(q(d, HP_DOC_STR, "spec..x"),
	                    "unknown (the query 'spec..x' is not a path (at '..x'))");
	assert_string_equal(q(d, HP_DOC_STR, "spec[name=x y]"),
	                    "unknown (the query 'spec[name=x y]' is not a path (at '[name=x y]'))");
	hp_probe_doc_free(d);
}

static void test_pod_templates(void **state)
{
	(void)state;
	static const char *const docs[] = {
	    "kind: Deployment\nspec:\n  template:\n    spec:\n      hostPID: true\n",
	    "kind: StatefulSet\nspec:\n  template:\n    spec:\n      hostPID: true\n",
	    "kind: DaemonSet\nspec:\n  template:\n    spec:\n      hostPID: true\n",
	    "kind: Job\nspec:\n  template:\n    spec:\n      hostPID: true\n",
	};
	for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
		hp_doc *d = load(docs[i]);
		assert_string_equal(q(d, HP_DOC_BOOL, "@pod.spec.hostPID"),
		                    "true @ pod.yaml:5:16: spec.template.spec.hostPID");
		hp_probe_doc_free(d);
	}
	hp_doc *d = load("kind: CronJob\nspec:\n  jobTemplate:\n    spec:\n      template:\n"
	                 "        spec: {hostPID: true}\n");
	assert_string_equal(q(d, HP_DOC_BOOL, "@pod.spec.hostPID"),
	                    "true @ pod.yaml:6:25: spec.jobTemplate.spec.template.spec.hostPID");
	hp_probe_doc_free(d);
	d = load("kind: Deployment\nspec: {}\n");
	assert_string_equal(q(d, HP_DOC_BOOL, "@pod.spec.hostPID"), "absent @ pod.yaml:2:7: spec");
	hp_probe_doc_free(d);
	d = load("kind: Service\nspec: {}\n");
	assert_string_equal(q(d, HP_DOC_BOOL, "@pod.spec.hostPID"),
	                    "unknown (pod.yaml:1:1: (the document) is a Service: it has no pod)");
	hp_probe_doc_free(d);
	d = load("spec: {}\n");
	assert_string_equal(q(d, HP_DOC_BOOL, "@pod.spec.hostPID"),
	                    "unknown (pod.yaml:1:1: (the document) has no kind: it is not a Pod or a "
	                    "workload)");
	hp_probe_doc_free(d);
}

static void test_refusals(void **state)
{
	(void)state;
	assert_string_equal(refused("a: &x 1\nb: *x\n"), "pod.yaml:1:4: anchors are not allowed");
	assert_string_equal(refused("a: *x\n"),
	                    "pod.yaml:1:4: aliases are not allowed (a file is read without "
	                    "expansion)");
	assert_string_equal(refused("a: !!str 1\n"), "pod.yaml:1:4: tags are not allowed ('tag:yaml.org,2002:str')");
	assert_string_equal(refused("a: 1\nb: 2\na: 3\n"),
	                    "pod.yaml:3:1: key 'a' given twice (first at line 1, column 1)");
	/* the same key once Kubernetes has turned YAML into JSON */
	assert_string_equal(refused("1: a\n\"1\": b\n"),
	                    "pod.yaml:2:1: key '1' given twice (first at line 1, column 1)");
	assert_string_equal(refused("yes: a\ntrue: b\n"),
	                    "pod.yaml:2:1: key 'true' given twice (first at line 1, column 1)");
	assert_string_equal(refused("{\"a\": 1, \"a\": 2}"),
	                    "pod.yaml:1:10: key 'a' given twice (first at line 1, column 2)");
	assert_string_equal(refused("<<: {a: 1}\n"), "pod.yaml:1:1: merge keys ('<<') are not allowed");
	assert_string_equal(refused("? [a]\n: 1\n"), "pod.yaml:1:3: a key must be a scalar, not a list");
	assert_string_equal(refused("a: 1\n---\nb: 2\n"),
	                    "pod.yaml:2:1: more than one YAML document in the file");
	assert_string_equal(refused(""), "pod.yaml:1:1: the file holds no document");
	assert_string_equal(refused("a: [1, 2\n"),
	                    "pod.yaml:2:1: did not find expected ',' or ']' while parsing a flow sequence");
	char *deep = malloc(20001 + 3);
	strcpy(deep, "a: ");
	memset(deep + 3, '[', 10000);
	memset(deep + 10003, ']', 10000);
	deep[20003] = '\0';
	assert_string_equal(refused(deep), "pod.yaml:1:67: collections nested more than 64 deep");
	free(deep);
	hp_err err;
	assert_null(hp_probe_doc_load("a b", "f", "a: 1", 4, &err));
	assert_string_equal(err.msg, "document name 'a b' is not 1 to 64 letters, digits, '_' or '-'");
}

static void test_docset_backend(void **state)
{
	(void)state;
	hp_docset *s = hp_probe_docset_new();
	hp_err err;
	assert_false(hp_probe_docset_add(s, "pod", &err));
	assert_string_equal(err.msg, "--document takes NAME=FILE, not 'pod'");
	assert_false(hp_probe_docset_add(s, "pod=/nonexistent/pod.yaml", &err));
	hp_facts *f = hp_probe_facts_new();
	static const char facts[] = "version: 1\nfacts:\n"
	                            "  - {probe: doc_bool, arg: \"other:spec.hostPID\", answer: true,\n"
	                            "     where: \"other.yaml:3:12: spec.hostPID\"}\n"
	                            "  - {probe: env, arg: X, answer: \"1\"}\n";
	assert_true(hp_probe_facts_load(f, "f.yaml", facts, sizeof facts - 1, &err));
	/* as hangar-policy test's facts may stand for a document (check's
	 * never do: test_facts.c) */
	hp_probe_facts_allow_documents(f);
	hp_backend *b = hp_probe_docset_backend(s, hp_probe_facts_backend(f));
	hp_pool pool;
	hp_pool_init(&pool, 1 << 20);
	hp_value arg = hp_v_str("other:spec.hostPID", 18);
	hp_value v = hp_backend_ask(b, HP_ROLE_ROOT, HP_PROBE_DOC_BOOL, &arg, &pool);
	assert_int_equal(v.state, HP_VAL_KNOWN);
	assert_true(v.u.b);
	assert_string_equal(hp_backend_where(b, HP_ROLE_ROOT, HP_PROBE_DOC_BOOL, &arg, &pool),
	                    "other.yaml:3:12: spec.hostPID");
	arg = hp_v_str("X", 1);
	v = hp_backend_ask(b, HP_ROLE_ROOT, HP_PROBE_ENV, &arg, &pool);
	assert_string_equal(v.u.s.p, "1");
	/* documents alone: every other probe is skipped, but the check's own
	 * environment is known */
	hp_docset *alone = hp_probe_docset_new();
	b = hp_probe_docset_backend(alone, NULL);
	hp_value path = hp_v_str("/etc", 4);
	v = hp_backend_ask(b, HP_ROLE_AGENT, HP_PROBE_WRITABLE, &path, &pool);
	assert_int_equal(v.state, HP_VAL_SKIPPED);
	setenv("HP_TEST_DOC_ENV", "x", 1);
	hp_value name = hp_v_str("HP_TEST_DOC_ENV", 15);
	v = hp_backend_ask(b, HP_ROLE_ROOT, HP_PROBE_ENV, &name, &pool);
	assert_string_equal(v.u.s.p, "x");
	arg = hp_v_str("pod:spec", 8);
	v = hp_backend_ask(b, HP_ROLE_ROOT, HP_PROBE_DOC_STR, &arg, &pool);
	assert_int_equal(v.state, HP_VAL_UNKNOWN);
	assert_string_equal(v.u.reason, "no such document was given (--document NAME=FILE)");
	hp_pool_free(&pool);
	hp_probe_docset_free(alone);
	hp_probe_docset_free(s);
	hp_probe_facts_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_yaml11_scalars), cmocka_unit_test(test_json),
	    cmocka_unit_test(test_absent_and_null), cmocka_unit_test(test_selections),
	    cmocka_unit_test(test_pod_templates),   cmocka_unit_test(test_refusals),
	    cmocka_unit_test(test_docset_backend),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
