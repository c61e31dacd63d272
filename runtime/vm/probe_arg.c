/* probe_arg.c: probe arguments that no backend is asked about (probe_arg.h). */
#include "vm/probe_arg.h"

#include <stdio.h>
#include <string.h>

#include "lib/textesc.h"

hp_probe_arg_kind hp_probe_arg_kind_of(hp_probe_id p)
{
	switch (p) {
	case HP_PROBE_EXISTS:
	case HP_PROBE_TYPE:
	case HP_PROBE_OWNER:
	case HP_PROBE_GROUP_OWNER:
	case HP_PROBE_MODE:
	case HP_PROBE_LINKS:
	case HP_PROBE_READABLE:
	case HP_PROBE_WRITABLE:
	case HP_PROBE_EXECUTABLE:
	case HP_PROBE_WRITABLE_ANCESTOR:
	case HP_PROBE_SETUID_ROOT:
	case HP_PROBE_WRITABLE_ENTRIES:
	case HP_PROBE_MOUNT_POINT:
	case HP_PROBE_READ_ONLY:
	case HP_PROBE_FS_TYPE:
	case HP_PROBE_TREE_WRITABLE:
		return HP_ARG_PATH;
	case HP_PROBE_COMMAND_FILES:
		return HP_ARG_COMMAND;
	case HP_PROBE_DOC_BOOL:
	case HP_PROBE_DOC_INT:
	case HP_PROBE_DOC_STR:
	case HP_PROBE_DOC_EXISTS:
	case HP_PROBE_DOC_COUNT:
	case HP_PROBE_DOC_STRS:
	case HP_PROBE_PROCESS_UID:
	case HP_PROBE_ENVD_TOKENLESS:
	case HP_PROBE_USERS_WITH_UID:
	case HP_PROBE_SETUID_IMAGE:
	case HP_PROBE_SETID_IMAGE:
	case HP_PROBE_LOADER_DIRS:
	case HP_PROBE_TREE_WRITABLE_BY:
	case HP_PROBE_USER:
	case HP_PROBE_USER_BY_UID:
	case HP_PROBE_GROUP:
	case HP_PROBE_PASSWORD_EMPTY:
	case HP_PROBE_PASSWORD_LOCKED:
	case HP_PROBE_USERS_UNLOCKED:
	case HP_PROBE_GROUPS_WITH_GID:
	case HP_PROBE_GROUP_PASSWORD_SET:
	case HP_PROBE_GROUP_ADMINS:
	case HP_PROBE_GSHADOW_MEMBERS:
	case HP_PROBE_PAM_PASSWORDLESS:
	case HP_PROBE_ENV:
	case HP_PROBE_SUDO:
	case HP_PROBE_SUDOERS_GRANTS:
	case HP_PROBE_CAPS_EFFECTIVE:
	case HP_PROBE_CAPS_PERMITTED:
	case HP_PROBE_CAPS_INHERITABLE:
	case HP_PROBE_CAPS_AMBIENT:
	case HP_PROBE_CAPS_BOUNDING:
	case HP_PROBE_NO_NEW_PRIVS:
	case HP_PROBE_SIGNAL:
	case HP_PROBE_PTRACE:
	case HP_PROBE_PROC_MEM:
	case HP_PROBE_PROCS_VISIBLE:
	case HP_PROBE_COUNT:
		return HP_ARG_PLAIN;
	}
	return HP_ARG_PLAIN;
}

/* "'S'" followed by what is wrong with it, in the pool */
static const char *say(hp_pool *pool, const char *s, size_t len, const char *what)
{
	hp_esc_buf eb;
	char buf[768];
	snprintf(buf, sizeof buf, "'%s'%s", hp_esc(&eb, s, len), what);
	const char *r = hp_pool_strndup(pool, buf, strlen(buf));
	return r ? r : "memory limit";
}

const char *hp_path_arg_problem(const char *s, size_t len, hp_pool *pool)
{
	if (len == 0)
		return "an empty path: as a PATH entry it is the working directory, which the agent "
		       "may choose";
	if (memchr(s, '\0', len))
		return say(pool, s, len, " holds a NUL byte: no file has that name");
	if (s[0] != '/')
		return say(pool, s, len,
		           " is not an absolute path: it is resolved against the working "
		           "directory of whoever uses it, which the agent may choose");
	return NULL;
}

/* NAME:DIR:DIR...: NAME is a command name (no '/') or an absolute path;
 * every DIR is an absolute path. */
static const char *command_problem(const char *s, size_t len, hp_pool *pool)
{
	if (len == 0)
		return "an empty command: there is nothing to look up on the PATH";
	if (memchr(s, '\0', len))
		return say(pool, s, len, " holds a NUL byte");
	const char *colon = memchr(s, ':', len);
	size_t nlen = colon ? (size_t)(colon - s) : len;
	if (nlen == 0)
		return say(pool, s, len, ": no command name before the first ':'");
	if (memchr(s, '/', nlen) && s[0] != '/')
		return say(pool, s, nlen,
		           ": the command is a relative path, resolved against the working "
		           "directory, which the agent may choose");
	if (!colon)
		return s[0] == '/' ? NULL
		                   : say(pool, s, len, ": no PATH after the command name (NAME:DIR:DIR...)");
	const char *p = colon + 1, *end = s + len;
	for (;;) {
		const char *q = memchr(p, ':', (size_t)(end - p));
		size_t n = q ? (size_t)(q - p) : (size_t)(end - p);
		const char *why = hp_path_arg_problem(p, n, pool);
		if (why) {
			char buf[768];
			snprintf(buf, sizeof buf, "a directory of the PATH: %s", why);
			const char *r = hp_pool_strndup(pool, buf, strlen(buf));
			return r ? r : "memory limit";
		}
		if (!q)
			return NULL;
		p = q + 1;
	}
}

bool hp_probe_arg_refused(hp_probe_id p, const hp_value *arg, hp_pool *pool, hp_value *out)
{
	if ((unsigned)p >= HP_PROBE_COUNT || arg->state != HP_VAL_KNOWN || arg->type != HP_T_STR)
		return false;
	hp_probe_arg_kind k = hp_probe_arg_kind_of(p);
	const char *why = NULL;
	if (k == HP_ARG_PATH)
		why = hp_path_arg_problem(arg->u.s.p, arg->u.s.len, pool);
	else if (k == HP_ARG_COMMAND)
		why = command_problem(arg->u.s.p, arg->u.s.len, pool);
	if (!why)
		return false;
	*out = hp_v_unknown(hp_probes[p].result, why);
	return true;
}
