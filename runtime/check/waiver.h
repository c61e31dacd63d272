/* waiver.h: waivers, an operator's acceptance of a known failure without
 * editing the rule (docs/waivers.md). A waiver file names, for each
 * waiver, a rule, optionally a provider and an argument (a loop item such
 * as one PATH directory, or a probe's argument), a justification and an
 * expiry date. A failed rule whose every failing assertion is matched by
 * a waiver is reported as `waived`: it no longer keeps a mode from
 * splitting, but the decision says it rests on the waiver. An unknown is
 * never waived, and an expired waiver is an error when it is loaded.
 *
 * "Today" is the UTC date of the clock, or HANGAR_POLICY_TODAY
 * (YYYY-MM-DD), which exists for tests. */
#ifndef HP_WAIVER_H
#define HP_WAIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check/eval.h"
#include "lib/strv.h"
#include "lib/xalloc.h"
#include "model/bytecode.h"

/* lint warns this many days before a waiver expires */
#define HP_WAIVER_WARN_DAYS 30

typedef struct {
	char *rule;
	int provider; /* hp_provider, or -1: every provider */
	char *arg;    /* NULL: any argument */
	char *justification;
	char expires[11]; /* YYYY-MM-DD */
	int64_t expires_day; /* days since 1970-01-01 */
	char *where;      /* file:line:col of the waiver */
} hp_waiver;

typedef struct {
	hp_waiver *v;
	size_t n;
} hp_waivers;

/* A date YYYY-MM-DD as days since 1970-01-01; false when it is not a real
 * date. */
bool hp_date_parse(const char *s, int64_t *day);
/* Today: HANGAR_POLICY_TODAY when set (false with err when malformed),
 * else the clock's UTC date. */
bool hp_today(int64_t *day, hp_err *err);

/* Add the waivers of a file. An expired waiver (its date before today) is
 * an error, like any malformed one: "FILE:LINE:COL: message". */
bool hp_waivers_load_file(hp_waivers *w, const char *path, int64_t today, hp_err *err);
bool hp_waivers_load(hp_waivers *w, const char *name, const char *text, size_t len,
                     int64_t today, hp_err *err);
/* Every waiver names a rule of the program; false with err otherwise. */
bool hp_waivers_check(const hp_waivers *w, const hp_bc *bc, hp_err *err);
void hp_waivers_free(hp_waivers *w);

/* Apply the waivers to the rule outcomes of a run for provider p: a FAIL
 * whose every failing assertion a waiver matches becomes WAIVED, with
 * outs[i].waiver saying which waiver and why. A matching waiver of a
 * rule that is an error or skipped is refused, with a note in notes.
 * Strings live in keep. */
void hp_waivers_apply(const hp_waivers *w, const hp_eval *ev, hp_provider p,
                      hp_rule_outcome *outs, hp_strv *keep, hp_strv *notes);

#endif
