/* value.h: the run-time values of the policy language, shared by the VM,
 * every probe backend and the results a role's run sends back.
 *
 * A value is in one of four states:
 *   KNOWN    a value of one of the types of types.def;
 *   ABSENT   known not to exist (no such user, file or variable);
 *   UNKNOWN  it could not be asked or not trusted (an error, a timeout, a
 *            bound hit), with a reason; unknown is never a pass;
 *   SKIPPED  deliberately not asked (a live probe offline, a role that did
 *            not run), with a reason.
 *
 * Strings are NUL-terminated and carry their length; lists are lists of
 * strings; caps are sets of Linux capabilities as a bit mask (bit n is
 * capability number n, as the kernel numbers them). Values never own their
 * memory: it belongs to an pool (pool.h) or to a backend's storage that
 * outlives the run.
 */
#ifndef HP_VALUE_H
#define HP_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/pool.h"
#include "lib/buf.h"
#include "model/domain.h"
#include "lib/xalloc.h"

/* Limits on the size of a value, wherever it comes from (an operator, a
 * backend, a facts file, a role's result): past them a value is UNKNOWN. */
#define HP_VALUE_MAX_STRING 65536u /* bytes in a string */
#define HP_VALUE_MAX_LIST 4096u    /* strings in a list */

typedef enum { HP_VAL_KNOWN, HP_VAL_ABSENT, HP_VAL_UNKNOWN, HP_VAL_SKIPPED } hp_vstate;
#define HP_VAL_STATE_COUNT 4
extern const char *const hp_vstate_names[HP_VAL_STATE_COUNT];

typedef struct {
	const char *p; /* NUL-terminated */
	uint32_t len;
} hp_str;

typedef struct {
	const hp_str *items;
	uint32_t n;
} hp_list;

typedef enum {
#define HP_FIELD(record, id, name, type) HP_RF_##id,
#include "model/fields.def"
	HP_RF_COUNT
} hp_rfield;

typedef struct {
	hp_type record; /* HP_T_USER or HP_T_GROUP */
	const char *name;
	hp_type type;
} hp_rfield_info;
extern const hp_rfield_info hp_rfields[HP_RF_COUNT];
/* The field of a record type with this name, or -1. */
int hp_rfield_lookup(hp_type record, const char *name);

typedef struct {
	hp_str name;
	int64_t uid, gid;
	hp_str home, shell;
	hp_list groups;
} hp_user;

typedef struct {
	hp_str name;
	int64_t gid;
	hp_list members;
} hp_group;

typedef struct {
	uint8_t state; /* hp_vstate */
	uint8_t type;  /* hp_type; for KNOWN the value's type, else the type expected */
	union {
		bool b;
		int64_t i;
		uint64_t caps;
		uint8_t role; /* hp_role */
		hp_str s;
		hp_list l;
		const hp_user *user;
		const hp_group *group;
		const char *reason; /* UNKNOWN and SKIPPED (never NULL); ABSENT: NULL or why */
	} u;
} hp_value;

static inline hp_value hp_v_none(void)
{
	hp_value v = {.state = HP_VAL_KNOWN, .type = HP_T_NONE};
	return v;
}
static inline hp_value hp_v_bool(bool b)
{
	hp_value v = {.state = HP_VAL_KNOWN, .type = HP_T_BOOL, .u.b = b};
	return v;
}
static inline hp_value hp_v_int(int64_t i)
{
	hp_value v = {.state = HP_VAL_KNOWN, .type = HP_T_INT, .u.i = i};
	return v;
}
/* p must be NUL-terminated at p[len]. */
static inline hp_value hp_v_str(const char *p, uint32_t len)
{
	hp_value v = {.state = HP_VAL_KNOWN, .type = HP_T_STR, .u.s = {p, len}};
	return v;
}
static inline hp_value hp_v_list(const hp_str *items, uint32_t n)
{
	hp_value v = {.state = HP_VAL_KNOWN, .type = HP_T_LIST, .u.l = {items, n}};
	return v;
}
static inline hp_value hp_v_caps(uint64_t caps)
{
	hp_value v = {.state = HP_VAL_KNOWN, .type = HP_T_CAPS, .u.caps = caps};
	return v;
}
static inline hp_value hp_v_role(hp_role r)
{
	hp_value v = {.state = HP_VAL_KNOWN, .type = HP_T_ROLE, .u.role = (uint8_t)r};
	return v;
}
static inline hp_value hp_v_user(const hp_user *u)
{
	hp_value v = {.state = HP_VAL_KNOWN, .type = HP_T_USER, .u.user = u};
	return v;
}
static inline hp_value hp_v_group(const hp_group *g)
{
	hp_value v = {.state = HP_VAL_KNOWN, .type = HP_T_GROUP, .u.group = g};
	return v;
}
/* reason may be NULL for absent ("no such user" is implied by the probe). */
static inline hp_value hp_v_absent(hp_type t, const char *reason)
{
	hp_value v = {.state = HP_VAL_ABSENT, .type = (uint8_t)t, .u.reason = reason};
	return v;
}
/* reason must outlive the value: a literal, or pool memory. */
static inline hp_value hp_v_unknown(hp_type t, const char *reason)
{
	hp_value v = {.state = HP_VAL_UNKNOWN, .type = (uint8_t)t, .u.reason = reason};
	return v;
}
static inline hp_value hp_v_skipped(hp_type t, const char *reason)
{
	hp_value v = {.state = HP_VAL_SKIPPED, .type = (uint8_t)t, .u.reason = reason};
	return v;
}

/* Equality of two KNOWN values of the same type (lists in order, caps as
 * sets, records field by field). */
bool hp_value_equal(const hp_value *a, const hp_value *b);

/* A deep copy into pool; false past the pool's limit. */
bool hp_value_copy(hp_pool *a, const hp_value *v, hp_value *out);

/* Human-readable text, as evidence shows it: true, 42, "s", { "a", "b" },
 * { setuid, kill }, agent, user hangar (uid 1001, gid 1001, ...), absent,
 * unknown (REASON), skipped (REASON). */
void hp_value_format(hp_buf *b, const hp_value *v);

/* Capability names without the cap_ prefix, in number order: { setuid, kill }. */
void hp_caps_format(hp_buf *b, uint64_t caps);
/* The same names joined by ", " with nothing around them (setuid, kill);
 * a capability libcap cannot name is written as its number. */
void hp_caps_names(hp_buf *b, uint64_t caps);

/* A hash of one question to a backend: the probe, the role asked as, and
 * the argument (a string, an int or a role; other types add nothing). The
 * VM's answer cache and the facts table key on it. */
uint64_t hp_question_hash(unsigned probe, unsigned role, const hp_value *arg);
/* The number of a capability named without cap_ ("setuid"), or -1. */
int hp_cap_from_name(const char *name);
/* An int as the language writes it: decimal, 0o octal or 0x hex, with an
 * optional '-'; nothing else around it. */
bool hp_parse_int(const char *s, int64_t *out);

/* The binary form of a value, used in a role's result (result.h) and
 * documented in docs/bytecode.md ("Encoded values"). */
void hp_value_encode(hp_buf *b, const hp_value *v);
/* Decode one value at data[*off], advancing *off. Every length is checked
 * before use, strings and lists are bounded by the limits above, and the
 * result's memory comes from pool. false with err set on malformed input. */
bool hp_value_decode(const uint8_t *data, size_t len, size_t *off, hp_pool *pool, hp_value *out,
                     hp_err *err);

#endif
