/* fuzz_pam.c: reading and running a PAM auth stack never reads out of
 * bounds, ends within its bounds, and answers with a reason. The input is
 * etc/pam.d/su; up to three more files follow it, each after a line
 * "==> NAME" (NAME a file of etc/pam.d), so includes reach fuzzed text. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "etc/pam.h"

typedef struct {
	char name[4][64];
	const char *text[4];
	size_t len[4];
	size_t n;
} fuzz_root;

static hp_tri fz_read(void *ctx, const char *path, size_t max, char **buf, size_t *len,
                      hp_err *err)
{
	fuzz_root *r = ctx;
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->name[i], path) == 0) {
			if (r->len[i] > max) {
				hp_err_set(err, "%s: too big", path);
				return HP_UNKNOWN;
			}
			*buf = malloc(r->len[i] + 1);
			memcpy(*buf, r->text[i], r->len[i]);
			(*buf)[r->len[i]] = '\0';
			*len = r->len[i];
			return HP_TRUE;
		}
	return HP_FALSE;
}

static hp_tri fz_isdir(void *ctx, const char *path, hp_err *err)
{
	(void)ctx;
	(void)err;
	return strcmp(path, "etc/pam.d") == 0 ? HP_TRUE : HP_FALSE;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char passwd[] = "root:x:0:0:root:/root:/bin/sh\n"
	                             "agent:x:1000:1000::/home/agent:/bin/sh\n";
	static const char group[] = "root:x:0:\nwheel:x:10:agent\nagent:x:1000:\n";
	hp_err err;
	hp_userdb *db = hp_etc_userdb_parse(passwd, sizeof passwd - 1, "etc/passwd", group,
	                                    sizeof group - 1, "etc/group", &err);
	if (!db)
		abort();
	char *copy = malloc(size + 1);
	if (size)
		memcpy(copy, data, size);
	copy[size] = '\0';
	fuzz_root r;
	memset(&r, 0, sizeof r);
	strcpy(r.name[0], "etc/pam.d/su");
	r.text[0] = copy;
	r.n = 1;
	/* split at "\n==> NAME\n" */
	char *p = copy;
	while (r.n < 4) {
		char *m = memmem(p, size - (size_t)(p - copy), "\n==> ", 5);
		if (!m)
			break;
		char *nl = memchr(m + 5, '\n', size - (size_t)(m + 5 - copy));
		if (!nl || nl - (m + 5) > 40)
			break;
		r.len[r.n - 1] = (size_t)(m + 1 - r.text[r.n - 1]);
		snprintf(r.name[r.n], sizeof r.name[r.n], "etc/pam.d/%.*s", (int)(nl - (m + 5)), m + 5);
		r.text[r.n] = nl + 1;
		r.n++;
		p = nl + 1;
	}
	r.len[r.n - 1] = size - (size_t)(r.text[r.n - 1] - copy);
	hp_pam_files files = {&r, fz_read, fz_isdir};
	static const hp_pw_state states[] = {HP_PW_LOCKED, HP_PW_EMPTY, HP_PW_UNKNOWN};
	for (size_t i = 0; i < 3; i++) {
		hp_pam_who who = {db, "root", states[i], "unknown here", 1000};
		memset(&err, 0, sizeof err);
		hp_tri t = hp_etc_pam_passwordless(&files, "su", &who, &err);
		if (t != HP_TRUE && t != HP_FALSE && t != HP_UNKNOWN)
			abort();
		if (!err.msg[0])
			abort(); /* every answer says why */
	}
	free(copy);
	hp_etc_userdb_free(db);
	return 0;
}
