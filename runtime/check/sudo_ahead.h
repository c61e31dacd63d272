/* sudo_ahead.h: a role's sudo probe, asked ahead of the role's child. sudo
 * takes the longest of any probe (it runs twice per sudo binary found), so
 * a check starts it, for each role that asks it, in a child of its own
 * that stays root and writes the answer to a pipe; the role's child reads
 * the answer when its code asks (hp_sys_role.sudo_pending), its other
 * probes done meanwhile. The job and everything it started are stopped
 * with hp_sudo_ahead_stop, whether or not the answer was read. */
#ifndef HP_CHECK_SUDO_AHEAD_H
#define HP_CHECK_SUDO_AHEAD_H

#include <stdbool.h>
#include <sys/types.h>

#include "os/identity.h"
#include "os/safe_path.h"

typedef struct {
	pid_t pid;     /* 0: not started */
	int pidfd, fd; /* fd: the answer's read end: '0' + hp_tri, then why */
} hp_sudo_ahead;

/* What the job asks sudo as, and in what time. */
typedef struct {
	const hp_root *root;
	const hp_identity *id; /* the role's: sudo runs as its user, plainly */
	bool as_root;          /* this check is root: the job switches to id */
	int left_ms;           /* the check's time left */
	unsigned sudo_ms;      /* each run of sudo at most */
} hp_sudo_ask;

/* A job not started: nothing to stop. */
void hp_sudo_ahead_init(hp_sudo_ahead *j);
/* Start the job; false (j left not started) when it cannot be. */
bool hp_sudo_ahead_start(hp_sudo_ahead *j, const hp_sudo_ask *a);
/* Close the answer's pipe, kill and reap the job and what it started. */
void hp_sudo_ahead_stop(hp_sudo_ahead *j);

#endif
