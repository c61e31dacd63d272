/* fuzz_document.c: the document reader on any text, and a document that
 * loads asked the queries the shipped Kubernetes policy asks (and a few
 * that go wrong on purpose). Nothing may crash, leak, recurse on the
 * input's depth or read out of bounds; a malformed file is an error with
 * a position. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/document.h"

static const char *const queries[] = {
    "@pod.spec.containers[name=\"hangar-driver\"].securityContext.allowPrivilegeEscalation",
    "@pod.spec.containers[name=\"hangar-driver\"].securityContext.runAsUser",
    "@pod.spec.containers[*].securityContext.capabilities.add",
    "@pod.spec.containers[name=\"hangar-driver\"].securityContext.capabilities.drop",
    "@pod.spec.containers[*].volumeMounts[name=\"hangar-ctl\"]",
    "@pod.spec.containers[*].securityContext[privileged=true]",
    "@pod.spec.volumes[name=\"hangar-ctl\"].emptyDir.medium",
    "@pod.spec.containers[*].ports[*].hostPort",
    "@pod.spec.containers[0].image",
    "@pod.spec.hostPID",
    "spec.template.spec.containers[1][*][0]",
    "kind",
    "[*][*][*]",
    "a[x=1][y=\"z\\\"\"].b",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	hp_err err;
	hp_doc *d = hp_probe_doc_load("pod", "fuzz.yaml", text, size, &err);
	if (d) {
		hp_pool pool;
		hp_pool_init(&pool, 1u << 22);
		hp_buf out = {0};
		for (size_t i = 0; i < sizeof queries / sizeof *queries; i++)
			for (int ask = HP_DOC_BOOL; ask <= HP_DOC_STRS; ask++) {
				hp_value v = hp_probe_doc_query(d, (hp_doc_ask)ask, queries[i], &pool, &out);
				hp_value_format(&out, &v);
			}
		hp_buf_free(&out);
		hp_pool_free(&pool);
		hp_probe_doc_free(d);
	}
	free(text);
	return 0;
}
