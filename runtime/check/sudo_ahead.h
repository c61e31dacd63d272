/* sudo_ahead.h: a role's sudo probe, asked beside the role's child. sudo
 * takes the longest of any probe (it runs twice per sudo binary found), so
 * a check starts it, for each role that asks it, in a job of its own: one
 * process, the role's user the plain way (sudo_live.h), the first of a pid
 * namespace of its own where the kernel allows one, that writes the answer
 * to a pipe; the role's child reads the answer when its code asks
 * (hp_sys_role.sudo_pending), its other probes done meanwhile. The pipe
 * can be made before the role's child is forked and the job started after
 * it (hp_sudo_ahead_open, then hp_sudo_ahead_start), so that the role's
 * child, the longest run, starts first. The job and everything it started
 * are stopped with hp_sudo_ahead_stop, whether or not the answer was
 * read: with the job's pid namespace where there is one, and where there
 * is none, each run of sudo the job did not reap (it was killed first) is
 * found by the pidfd the run sent before its exec (adopted.h). */
#ifndef HP_CHECK_SUDO_AHEAD_H
#define HP_CHECK_SUDO_AHEAD_H

#include <stdbool.h>
#include <sys/types.h>

#include "os/identity.h"
#include "os/safe_path.h"

typedef struct {
	pid_t pid;     /* the job; 0: not started */
	int pidfd;
	int fd;        /* the answer's read end: '0' + hp_tri, then why */
	int write_fd;  /* its write end, until the job has it */
	int done_fd;   /* the job's own result pipe (child.h), kept until it is stopped */
	int runs_fd;   /* where the job's runs of sudo announce themselves (adopted.h) */
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
/* Make the answer's pipe (j->fd to hand to the role's child); false when
 * it cannot be made. */
bool hp_sudo_ahead_open(hp_sudo_ahead *j);
/* Start the job, j initialized (hp_sudo_ahead_init) or its pipe open
 * (hp_sudo_ahead_open; it is opened here otherwise); false when it cannot
 * be started: then the pipe, if open, is left with no writer, and whoever
 * reads it finds no answer. */
bool hp_sudo_ahead_start(hp_sudo_ahead *j, const hp_sudo_ask *a);
/* Close the answer's pipe, kill and reap the job and what it started. */
void hp_sudo_ahead_stop(hp_sudo_ahead *j);

#endif
