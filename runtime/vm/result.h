/* result.h: what one run of a role's checks produces, as plain arrays and
 * one byte blob, so that the child process that ran the role (with that
 * role's identity) can send it to its parent over a pipe unchanged:
 * hp_role_result_encode gives the bytes, hp_role_result_decode checks
 * every count and offset before it trusts them. docs/bytecode.md
 * ("Role results") describes the encoding.
 *
 * Offsets named `data offset` point into data[]: a NUL-terminated string,
 * or an encoded value (value.h, hp_value_encode). HP_RES_NONE means none.
 * Indices (assertion, string) refer to the program the role ran (hp_bc).
 */
#ifndef HP_RESULT_H
#define HP_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/buf.h"
#include "model/bytecode.h"
#include "lib/pool.h"
#include "model/value.h"
#include "lib/xalloc.h"

#define HP_RES_NONE 0xffffffffu

/* One execution of an assertion (one per loop iteration inside loops). */
typedef enum {
	HP_OUT_HOLDS,   /* a known bool, and the assertion holds */
	HP_OUT_FAILS,   /* a known bool, and it does not */
	HP_OUT_UNKNOWN, /* the value was UNKNOWN: the rule is an error */
	HP_OUT_ABSENT,  /* the value was ABSENT: the rule is an error */
	HP_OUT_SKIPPED, /* the value was SKIPPED: the rule is skipped */
	HP_OUT_COUNT
} hp_outcome_kind;
extern const char *const hp_outcome_names[HP_OUT_COUNT];

typedef struct {
	uint32_t assertion; /* index in the program's assertion table */
	uint32_t kind;      /* hp_outcome_kind */
	uint32_t value;     /* data offset of the encoded non-value (UNKNOWN...), else NONE */
	uint32_t obs_first, obs_count;   /* its observations: obs[first .. first+count) */
	uint32_t bind_first, bind_count; /* loop variables: binds[first .. first+count) */
} hp_outcome;

/* A loop variable's value when an assertion ran. */
typedef struct {
	uint32_t name;  /* a string of the program (the variable's name) */
	uint32_t value; /* data offset of the item, NUL-terminated */
} hp_binding;

/* A question asked of the backend and its answer: what --record writes. */
typedef struct {
	uint32_t probe;  /* hp_probe_id */
	uint32_t role;   /* hp_role it was asked as (HP_ROLE_ROOT for GLOBAL probes) */
	uint32_t arg;    /* data offset of the encoded argument (type none: no argument) */
	uint32_t answer; /* data offset of the encoded answer */
	uint32_t where;  /* data offset of where the answer is from (a document's
	                    "pod.yaml:23:11: spec.hostPID"), or HP_RES_NONE */
} hp_fact;

typedef enum {
	HP_RUN_COMPLETE, /* ran to its end */
	HP_RUN_STOPPED,  /* stopped by a limit (or an internal check): see reason */
	HP_RUN_NOT_RUN,  /* the role did not run (no root, no such user...): see reason */
	HP_RUN_COUNT
} hp_run_status;
extern const char *const hp_run_status_names[HP_RUN_COUNT];

typedef struct {
	uint32_t role;    /* hp_role */
	uint32_t status;  /* hp_run_status */
	uint32_t reason;  /* data offset of a string: why it stopped or did not run */
	uint32_t stop_pc; /* STOPPED: the instruction, else HP_RES_NONE */
	uint64_t steps, probes;
	hp_outcome *outcomes;
	uint32_t noutcomes;
	uint32_t *obs; /* fact indices */
	uint32_t nobs;
	hp_binding *binds;
	uint32_t nbinds;
	hp_fact *facts;
	uint32_t nfacts;
	hp_buf data;
	/* capacities while building */
	size_t cap_outcomes, cap_obs, cap_binds, cap_facts;
} hp_role_result;

void hp_role_result_init(hp_role_result *r, hp_role role);
void hp_role_result_free(hp_role_result *r);
/* A role that did not run, with why ("not running as root"). */
void hp_role_result_not_run(hp_role_result *r, hp_role role, const char *reason);

/* A string at a data offset (NULL for HP_RES_NONE or a bad offset). */
const char *hp_role_result_str(const hp_role_result *r, uint32_t off);
/* Decode the value at a data offset into pool; false if malformed. */
bool hp_role_result_value(const hp_role_result *r, uint32_t off, hp_pool *pool, hp_value *v);

/* The bytes that carry a result over a pipe, and back. Decoding checks the
 * magic, every count against the bytes present, every offset and index
 * against the program (bc) and the blob, and every encoded value, before
 * anything is used. */
void hp_role_result_encode(const hp_role_result *r, hp_buf *out);
bool hp_role_result_decode(const hp_bc *bc, const uint8_t *bytes, size_t len, hp_role_result *r,
                           hp_err *err);

/* Evidence for one outcome, on one line: the assertion's text, where it is,
 * what was observed, the loop variables:
 *   forbid writable(dir) at p.hpol:12:9 as agent: writable("/usr/bin") is true (dir = "/usr/bin")
 */
void hp_outcome_format(hp_buf *b, const hp_bc *bc, const hp_role_result *r, const hp_outcome *o);

#endif
