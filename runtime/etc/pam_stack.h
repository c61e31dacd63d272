/* pam_stack.h: a PAM auth stack as pam.c reads it and pam_run.c runs it,
 * shared by those two and nothing else: libpam's return codes and actions,
 * and one handler per line. */
#ifndef HP_ETC_PAM_STACK_H
#define HP_ETC_PAM_STACK_H

#include <stdbool.h>
#include <stdint.h>

#include "etc/pam.h"

/* libpam's return codes (security/_pam_types.h) and actions (pam_private.h) */
enum {
	R_SUCCESS = 0,
	R_SERVICE_ERR = 3,
	R_PERM_DENIED = 6,
	R_AUTH_ERR = 7,
	R_USER_UNKNOWN = 10,
	R_NEW_AUTHTOK_REQD = 12,
	R_IGNORE = 25,
	R_MODULE_UNKNOWN = 28,
	R_INCOMPLETE = 31,
	NRET = 32
};
enum { A_IGNORE = 0, A_OK = -1, A_DONE = -2, A_BAD = -3, A_DIE = -4, A_RESET = -5, A_UNDEF = -6 };
enum { IMPR_UNDEF = 0, IMPR_POS = 1, IMPR_NEG = 2 };

/* what libpam returns for a stack it cannot run (PAM_MUST_FAIL_CODE) */
#define MUST_FAIL R_PERM_DENIED
#define BIT(r) (1u << (r))

typedef struct {
	int level;
	bool marker; /* a substack line: skipped when run */
	int actions[NRET];
	uint32_t sure;  /* codes the module gives, as far as this file knows */
	uint32_t guess; /* codes it may give: the module is not known exactly */
	char where[160]; /* file:line */
	char what[256];  /* the module, and what makes it succeed */
} pam_handler;

/* The stack's n handlers run for service: true when some way through it
 * succeeds without the password (why: the line that lets one in), unknown
 * when one may (a module not known exactly) or the ways through it pass
 * HP_PAM_MAX_STATES, false when none does. */
hp_tri hp_etc_pam_stack_run(const pam_handler *h, size_t n, const char *service, hp_err *why);

#endif
