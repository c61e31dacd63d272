/* setuid_scan.h: the setuid_root probe: which executables in a directory
 * can raise privilege when the agent runs them (docs/runtime.md, F.47):
 * regular files with an execute bit that are setuid root, setgid root
 * (group 0), or carry a security.capability extended attribute (file
 * capabilities). A symlink in the directory counts when, resolved inside the
 * root, it leads to such a file: running it through PATH runs the target.
 *
 * The directory is resolved inside the root (safe_path.h), read with
 * getdents through a descriptor, and each entry looked at with statx on
 * that descriptor, never by a re-joined path string. At most max_entries
 * entries are looked at: past that the answer is unknown, as is any entry
 * that cannot be decided (its xattrs unreadable, a symlink loop), because a
 * partial list could hide the one that matters.
 *
 * Answers: HP_TRUE with the list (sorted by name, possibly empty);
 * HP_FALSE when the directory does not exist; HP_UNKNOWN otherwise.
 */
#ifndef HP_SETUID_SCAN_H
#define HP_SETUID_SCAN_H

#include <stddef.h>
#include <sys/types.h>

#include "os/safe_path.h"
#include "lib/tri.h"
#include "lib/xalloc.h"

enum { HP_SETUID_SCAN_MAX_DEFAULT = 65536 };

/* HP_SUID and HP_SGID: setuid or setgid to any user or group (setuid_image
 * records those too: a setuid program of the driver's user is a way to the
 * driver as much as one of root's is a way to root); the _ROOT bits say
 * the identity is root's. */
enum {
	HP_SUID_ROOT = 1u,
	HP_SGID_ROOT = 2u,
	HP_FILE_CAPS = 4u,
	HP_SUID = 8u,
	HP_SGID = 16u,
	HP_RAISES_ROOT = HP_SUID_ROOT | HP_SGID_ROOT | HP_FILE_CAPS,
};

typedef struct {
	char *name;    /* the entry's name in the directory */
	unsigned why;  /* HP_SUID_ROOT | HP_SGID_ROOT | HP_FILE_CAPS | HP_SUID | HP_SGID */
	unsigned mode; /* of the file (the target, for a symlink) */
	int via_symlink;
	uid_t uid; /* the file's owner and group: who it runs as when set-id */
	gid_t gid;
} hp_suid_entry;

typedef struct {
	hp_suid_entry *v;
	size_t n;
} hp_suid_list;

hp_tri hp_os_setuid_scan(const hp_root *r, const char *dir, size_t max_entries, hp_suid_list *out,
                      hp_err *why);
void hp_os_suid_list_free(hp_suid_list *l);

#endif
