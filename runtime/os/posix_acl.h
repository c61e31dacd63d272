/* posix_acl.h: the kernel's binary form of a POSIX ACL (the
 * system.posix_acl_access extended attribute, and a directory's
 * system.posix_acl_default, which has the same form), parsed without
 * libacl, the permission check the kernel does with an access ACL
 * (fs/posix_acl.c posix_acl_permission), and what a default ACL gives the
 * files created later in its directory. Used when access has to be
 * computed offline (access.h) instead of asked of the kernel, and for a
 * directory's future contents, which no kernel call answers.
 *
 * Layout, little-endian: a 4-byte version (2), then 8-byte entries
 * { u16 tag, u16 perm, u32 id }. Tags: USER_OBJ 1, USER 2, GROUP_OBJ 4,
 * GROUP 8, MASK 16, OTHER 32. A valid ACL has exactly one USER_OBJ,
 * GROUP_OBJ and OTHER, at most one MASK, which is required when a named
 * USER or GROUP entry exists, and no two named entries for the same id.
 */
#ifndef HP_POSIX_ACL_H
#define HP_POSIX_ACL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/tri.h"
#include "lib/xalloc.h"

enum { HP_ACL_MAX_ENTRIES = 4096 };

enum {
	HP_ACL_USER_OBJ = 0x01,
	HP_ACL_USER = 0x02,
	HP_ACL_GROUP_OBJ = 0x04,
	HP_ACL_GROUP = 0x08,
	HP_ACL_MASK = 0x10,
	HP_ACL_OTHER = 0x20,
};

typedef struct {
	uint16_t tag;
	uint16_t perm; /* rwx as 4, 2, 1 */
	uint32_t id;
} hp_acl_entry;

typedef struct {
	hp_acl_entry *e;
	size_t n;
} hp_acl;

/* Parse the attribute value. HP_TRUE, or HP_UNKNOWN with why set
 * ("ACL: entry 3: unknown tag 0x40"). acl is freed with hp_os_acl_free. */
hp_tri hp_os_acl_parse(const void *buf, size_t len, hp_acl *acl, hp_err *why);
void hp_os_acl_free(hp_acl *acl);

/* Whether a process with fsuid uid, groups (its fsgid and supplementary
 * groups) is granted every bit of want (4 read, 2 write, 1 exec) by acl
 * on a file owned by owner/group. Caps are not considered here. */
int hp_os_acl_grants(const hp_acl *acl, uid_t owner, gid_t group, uid_t uid, const gid_t *groups,
                  size_t ngroups, unsigned want);

/* Whether a file created later in a directory whose default ACL is dacl
 * (parsed by hp_os_acl_parse) could grant every bit of want to a process
 * with fsuid uid and groups that does not create it (what it creates is
 * its own anyway): the new file gets dacl as its access ACL, its entries
 * limited only by the creation mode, which the creator chooses, so the
 * widest is assumed. Its owner is the creator, never uid; its group is
 * *setgid_group when the directory is setgid, else the creator's, which
 * may or may not be one of groups (setgid_group NULL: both are tried). */
int hp_os_acl_default_grants(const hp_acl *dacl, const gid_t *setgid_group, uid_t uid,
                             const gid_t *groups, size_t ngroups, unsigned want);

#endif
