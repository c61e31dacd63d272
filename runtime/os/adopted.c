/* adopted.c: announce a run's pidfd; kill and reap the runs that fell to
 * this process (adopted.h). */
#include "os/adopted.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/child.h"
#include "os/sysx.h"

/* waitid's idtype for a pidfd (Linux 5.4); the kernel's number, so that
 * this builds against a libc that does not name it yet */
#define HP_P_PIDFD ((idtype_t)3)

enum {
	FDS_PER_MSG = 4,       /* a run sends one; room for a malformed message */
	MAX_ANNOUNCED = 1024,  /* messages read at most (a job sends two per sudo found) */
	ADOPTED_WAIT_MS = 500, /* for one killed process to exit */
};

bool hp_os_announce_works(void)
{
	int fd = hp_os_sys_pidfd_open(getpid(), 0);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

int hp_os_announce_self(int sock)
{
	int fd = hp_os_sys_pidfd_open(getpid(), 0);
	if (fd < 0)
		return -1;
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	memset(&u, 0, sizeof u);
	char byte = 'p';
	struct iovec iov = {&byte, 1};
	struct msghdr m = {
	    .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf};
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	/* never blocks: a reader that does not read makes the run fail, it
	 * does not hold it */
	ssize_t n;
	do
		n = sendmsg(sock, &m, MSG_DONTWAIT | MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	int e = errno;
	close(fd);
	errno = e;
	return n == 1 ? 0 : -1;
}

/* Whether the child behind pidfd has exited (not reaped: WNOWAIT), *pid
 * set then. -1 when it is not a child of this process that is unreaped. */
static int exited(int pidfd, pid_t *pid)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	if (waitid(HP_P_PIDFD, (id_t)pidfd, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return -1;
	*pid = si.si_pid;
	return si.si_pid > 0;
}

bool hp_os_reap_adopted(int pidfd)
{
	pid_t pid = 0;
	/* -1: ECHILD (not this process's child, or reaped already) or
	 * EINVAL (a kernel that cannot wait on a pidfd). A child not reaped
	 * here keeps its pid, and the id of the group it leads, until it is. */
	int e = exited(pidfd, &pid);
	if (e < 0)
		return false;
	if (e == 0) {
		/* refused (a seccomp profile): left alone, not waited for */
		if (hp_os_sys_pidfd_send_signal(pidfd, SIGKILL) < 0 && errno != ESRCH)
			return false;
		/* a process in uninterruptible sleep does not die at once: the
		 * check waits for it a while, never without end */
		int64_t end = hp_os_now_ms() + ADOPTED_WAIT_MS;
		for (int64_t left;
		     (e = exited(pidfd, &pid)) == 0 && (left = end - hp_os_now_ms()) > 0;) {
			struct pollfd p = {pidfd, POLLIN, 0};
			(void)poll(&p, 1, (int)left);
		}
		if (e <= 0)
			return false;
	}
	/* what it started in its session; then it (exited: reaped at once),
	 * then what its group left */
	hp_os_kill_reap(pid, pidfd);
	return true;
}

int hp_os_reap_announced(int sock)
{
	int n = 0;
	for (int i = 0; i < MAX_ANNOUNCED; i++) {
		char byte;
		union {
			struct cmsghdr h;
			char buf[CMSG_SPACE(sizeof(int) * FDS_PER_MSG)];
		} u;
		struct iovec iov = {&byte, 1};
		struct msghdr m = {.msg_iov = &iov,
		                   .msg_iovlen = 1,
		                   .msg_control = u.buf,
		                   .msg_controllen = sizeof u.buf};
		ssize_t r = recvmsg(sock, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
			    c->cmsg_len < CMSG_LEN(0))
				continue;
			size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			for (size_t j = 0; j < k; j++) {
				int fd;
				memcpy(&fd, CMSG_DATA(c) + j * sizeof(int), sizeof fd);
				n += hp_os_reap_adopted(fd);
				close(fd);
			}
		}
	}
	return n;
}
