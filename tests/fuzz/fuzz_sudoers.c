/* fuzz_sudoers.c: the sudoers loader, parser and evaluator never read out
 * of bounds, never loop, and always answer with a reason. The input is cut
 * at NUL bytes into several files (NUL never belongs in a sudoers file):
 * /etc/sudoers, two drop-ins, a relative include target, sudo.conf and a
 * drop-in name sudo skips; every include goes through the in-memory file
 * callbacks. The answers are checked for a few users, twice each. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "etc/sudoers/sudoers.h"
#include "etc/sudoers/sudoers_memfs.h"

static const char *const paths[] = {"/etc/sudoers",        "/etc/sudoers.d/10-a",
                                    "/etc/sudoers.local",  "/etc/sudo.conf",
                                    "/etc/sudoers.d/20-b", "/etc/sudoers.d/skipped.conf"};
enum { NPATHS = sizeof paths / sizeof *paths };

static const char passwd[] = "root:x:0:0:root:/root:/bin/bash\n"
                             "agent:x:1000:1000::/home/agent:/bin/bash\n"
                             "bob:x:1001:1001::/home/bob:/bin/bash\n"
                             "twin:x:1000:27::/home/twin:/bin/sh\n";
static const char group[] = "root:x:0:\nsudo:x:27:bob\nadmin:x:27:\nagent:x:1000:\n"
                            "docker:x:999:agent,twin\nWheel:x:10:agent\n";

static void check(const hp_sudoers *s, const hp_userdb *db)
{
	static const char *const users[] = {"root", "agent", "bob", "twin", "nobody"};
	for (size_t i = 0; i < sizeof users / sizeof *users; i++) {
		hp_sudo_verdict a, b;
		hp_tri r = hp_sudoers_grants_user(s, db, users[i], &a);
		hp_tri r2 = hp_sudoers_grants_user(s, db, users[i], &b);
		if (r > HP_UNKNOWN || r != r2 || strcmp(a.why, b.why) != 0 || !a.why[0] ||
		    !memchr(a.why, '\0', sizeof a.why))
			abort();
		if (r == HP_FALSE && hp_sudoers_nproblems(s))
			abort();
	}
	for (size_t i = 0; i < hp_sudoers_nproblems(s) && i < HP_SUDOERS_MAX_PROBLEMS; i++)
		if (!hp_sudoers_problem(s, i) || !hp_sudoers_problem(s, i)[0])
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hp_memfile files[NPATHS];
	size_t n = 0;
	const char *p = (const char *)data, *end = p + size;
	while (n < NPATHS) {
		const char *z = memchr(p, '\0', (size_t)(end - p));
		files[n] = (hp_memfile){paths[n], p, z ? (size_t)(z - p) : (size_t)(end - p)};
		n++;
		if (!z)
			break;
		p = z + 1;
	}
	hp_memfs fs = {files, n};
	hp_sudo_files cb = hp_sudoers_memfs_callbacks(&fs);
	hp_err err;
	hp_userdb *db = hp_etc_userdb_parse(passwd, sizeof passwd - 1, "etc/passwd", group,
	                                sizeof group - 1, "etc/group", &err);
	if (!db)
		abort();
	hp_sudoers *s = hp_sudoers_load_system(&cb, NULL);
	check(s, db);
	hp_sudoers_free(s);
	s = hp_sudoers_load("/etc/sudoers", &cb);
	check(s, db);
	hp_sudoers_free(s);
	hp_etc_userdb_free(db);
	return 0;
}
