/* session.h: one whole check, from a verified program to per-rule results
 * (docs/runtime.md, "The session"). The check command (cmd_check.c) fills
 * the options from its flags, runs the session, and hands the results to
 * the decisions and the report; nothing here decides or prints.
 *
 * A session:
 *   1. opens the backend: the live sandbox ("/"), an image root (--root),
 *      or facts the caller loaded (--facts);
 *   2. reads, as root, the etc files the program's probes need (live and
 *      rootfs), once for the whole run;
 *   3. phase one (vm.h): params, identities and provider conditions, in
 *      this process, GLOBAL probes only;
 *   4. for each role the program declares (role_ident.h gives its identity):
 *        live    a child that becomes the role's identity (identity.h:
 *                groups from etc/group, the capabilities the role keeps,
 *                no_new_privs as the policy says, non-dumpable) and runs
 *                the role's checks, sending its result back over a pipe
 *                (child.h, result.h); as root the roles' children run
 *                beside one another, the agent's first, each counting
 *                processes as if they had run in turn; canaries of the
 *                roles a child probes are started before it, as those
 *                roles, and killed and reaped after it; the live sudo
 *                probe, as a plain process of the role, runs in a job of
 *                its own started right after the role's child
 *                (sudo_ahead.h), which collects the answer when it asks;
 *                a non-root role that asks global probes about files gets
 *                root's answers from this process, the root helper
 *                (sysbackend.h), while it waits for that child;
 *        rootfs  the same child when this process is root (the kernel is
 *                asked as the role, and checked against the computed
 *                answer), else in this process with computed answers;
 *        facts   in this process;
 *      without root (live), only the role whose identity this process
 *      already has runs; a role not selected with --role does not run;
 *   5. hp_combine: one result per rule;
 *   6. --record: every fact observed written as a facts file, atomically.
 *
 * Failures of a role (its identity unknown, a switch that does not
 * verify, a child that dies, overruns its deadline or sends anything
 * malformed) make that role's assertions errors, with the reason; a role
 * that deliberately does not run (no root, --role) makes them skipped,
 * and a note says why. Nothing is left running afterwards, whatever
 * happened, even when the check is interrupted by a signal (cleanup.h);
 * a check that overruns its deadline by 2 s in its own process ends with
 * status 4.
 */
#ifndef HP_SESSION_H
#define HP_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/docset.h"
#include "vm/backend.h"
#include "model/bytecode.h"
#include "check/combine.h"
#include "check/eval.h"
#include "vm/result.h"
#include "lib/strv.h"
#include "vm/vm.h"
#include "lib/xalloc.h"

typedef enum { HP_SESSION_LIVE, HP_SESSION_ROOTFS, HP_SESSION_FACTS } hp_session_source;

#define HP_SESSION_DEFAULT_MS 60000u       /* the whole check */
#define HP_SESSION_SUDO_MS 5000u           /* each run of sudo */
#define HP_SESSION_MAX_RESULT (256u << 20) /* bytes a role's child may send */

typedef struct {
	hp_session_source source;
	const char *root_dir; /* HP_SESSION_ROOTFS: the image root */
	hp_backend *facts;    /* HP_SESSION_FACTS: loaded by the caller, not freed here */
	/* --document: answers the doc_* probes in front of the backend (NULL:
	 * none); the caller's, not freed here */
	hp_docset *docs;
	const hp_param_override *params; /* --param NAME=VALUE */
	size_t nparams;
	/* --role: a bit per role (1u << HP_ROLE_x) that may run; 0: every
	 * role that can */
	unsigned roles;
	hp_limits limits;     /* each VM run: phase one and each role */
	unsigned deadline_ms; /* the whole check; every child's deadline fits in it */
	unsigned sudo_ms;     /* each run of sudo (live) */
	const char *record;   /* --record F, or NULL */
	/* --container NAME (live, not root): the selected role runs as this
	 * process is, the container's own user, and the recording says which
	 * container it was made in; NULL otherwise */
	const char *container;
	unsigned root_flags;  /* extra hp_root flags (tests: HP_ROOT_WALK) */
} hp_session_opts;

/* Defaults: live, every role, hp_limits_default, HP_SESSION_DEFAULT_MS,
 * HP_SESSION_SUDO_MS, no record. */
void hp_session_opts_default(hp_session_opts *o);

typedef enum {
	HP_SESSION_OK,     /* the check ran: results are in the session */
	HP_SESSION_USAGE,  /* bad input: a --param, a --role the policy lacks */
	HP_SESSION_FAILED, /* the check could not run, or --record could not be written */
} hp_session_status;

typedef struct {
	/* phase one, every role's result and one result per rule (eval.h):
	 * eval.roles[r] is NOT_RUN with a reason when role r did not run, an
	 * empty complete run when the program does not declare it. The
	 * rule results point into it: never copy a session. */
	hp_eval eval;
	const char *backend;     /* "live", "rootfs" or "facts": shown in the report */
	bool offline;            /* an image root was checked (--root) */
	bool ran[HP_ROLE_COUNT]; /* role r's checks ran (they may have stopped) */
	unsigned roles_run;      /* how many declared roles ran */
	/* assertions skipped because they need a live sandbox (offline runs) */
	size_t live_needed;
	hp_strv notes;  /* roles that did not run and why: warnings for the report */
	int64_t millis; /* wall time of the run */
} hp_session;

/* Run the check. On HP_SESSION_OK every field is filled; when only
 * --record failed the status is HP_SESSION_FAILED with err saying so, and
 * the results are there all the same (eval.rules is not NULL). Otherwise
 * err says why. Free the session with hp_session_free in every case. */
hp_session_status hp_session_run(const hp_bc *bc, const hp_session_opts *o, hp_session *s,
                                 hp_err *err);
void hp_session_free(hp_session *s);

/* The role names given to --role, as a mask: "agent" -> 1u << HP_ROLE_AGENT.
 * false with err for a name that is not a role. */
bool hp_session_role_bit(const char *name, unsigned *mask, hp_err *err);

#endif
