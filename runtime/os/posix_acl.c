/* posix_acl.c: parse system.posix_acl_access and system.posix_acl_default
 * (one format) and evaluate them. */
#include "os/posix_acl.h"

#include <stdlib.h>
#include <string.h>

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

hp_tri hp_os_acl_parse(const void *buf, size_t len, hp_acl *acl, hp_err *why)
{
	const unsigned char *p = buf;
	acl->e = NULL;
	acl->n = 0;
	if (len < 4 || (len - 4) % 8 != 0) {
		hp_err_set(why, "ACL: size %zu is not 4 + 8 * entries", len);
		return HP_UNKNOWN;
	}
	if (le32(p) != 2) {
		hp_err_set(why, "ACL: version %u, expected 2", le32(p));
		return HP_UNKNOWN;
	}
	size_t n = (len - 4) / 8;
	if (n > HP_ACL_MAX_ENTRIES) {
		hp_err_set(why, "ACL: more than %d entries", HP_ACL_MAX_ENTRIES);
		return HP_UNKNOWN;
	}
	hp_acl_entry *e = hp_xcalloc(n ? n : 1, sizeof *e);
	unsigned seen = 0;
	int named = 0;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *q = p + 4 + 8 * i;
		e[i].tag = le16(q);
		e[i].perm = le16(q + 2);
		e[i].id = le32(q + 4);
		if (e[i].perm & ~7u) {
			hp_err_set(why, "ACL: entry %zu: permission bits 0x%x", i + 1, e[i].perm);
			goto bad;
		}
		switch (e[i].tag) {
		case HP_ACL_USER_OBJ:
		case HP_ACL_GROUP_OBJ:
		case HP_ACL_MASK:
		case HP_ACL_OTHER:
			if (seen & e[i].tag) {
				hp_err_set(why, "ACL: entry %zu: tag 0x%x twice", i + 1, e[i].tag);
				goto bad;
			}
			seen |= e[i].tag;
			break;
		case HP_ACL_USER:
		case HP_ACL_GROUP:
			named = 1;
			for (size_t j = 0; j < i; j++)
				if (e[j].tag == e[i].tag && e[j].id == e[i].id) {
					hp_err_set(why, "ACL: entry %zu: id %u named twice", i + 1,
					           e[i].id);
					goto bad;
				}
			break;
		default:
			hp_err_set(why, "ACL: entry %zu: unknown tag 0x%x", i + 1, e[i].tag);
			goto bad;
		}
	}
	unsigned need = HP_ACL_USER_OBJ | HP_ACL_GROUP_OBJ | HP_ACL_OTHER;
	if ((seen & need) != need) {
		hp_err_set(why, "ACL: missing a user, group or other entry");
		goto bad;
	}
	if (named && !(seen & HP_ACL_MASK)) {
		hp_err_set(why, "ACL: named entries without a mask");
		goto bad;
	}
	acl->e = e;
	acl->n = n;
	return HP_TRUE;
bad:
	free(e);
	return HP_UNKNOWN;
}

void hp_os_acl_free(hp_acl *acl)
{
	free(acl->e);
	acl->e = NULL;
	acl->n = 0;
}

static int in_groups(gid_t g, const gid_t *groups, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (groups[i] == g)
			return 1;
	return 0;
}

/* The kernel's order after the owner entry: named user, groups (any
 * matching entry that grants wins; a match that grants nothing denies),
 * other. in_owning_group: whether the process is in the file's group. */
static int grants_not_owner(const hp_acl *acl, int in_owning_group, uid_t uid,
                            const gid_t *groups, size_t ngroups, unsigned want)
{
	unsigned mask = 7;
	for (size_t i = 0; i < acl->n; i++)
		if (acl->e[i].tag == HP_ACL_MASK)
			mask = acl->e[i].perm;
	for (size_t i = 0; i < acl->n; i++)
		if (acl->e[i].tag == HP_ACL_USER && acl->e[i].id == uid)
			return (acl->e[i].perm & mask & want) == want;
	int matched = 0;
	for (size_t i = 0; i < acl->n; i++) {
		const hp_acl_entry *e = &acl->e[i];
		int match = (e->tag == HP_ACL_GROUP_OBJ && in_owning_group) ||
		            (e->tag == HP_ACL_GROUP && in_groups(e->id, groups, ngroups));
		if (!match)
			continue;
		matched = 1;
		if ((e->perm & mask & want) == want)
			return 1;
	}
	if (matched)
		return 0;
	for (size_t i = 0; i < acl->n; i++)
		if (acl->e[i].tag == HP_ACL_OTHER)
			return (acl->e[i].perm & want) == want;
	return 0;
}

int hp_os_acl_grants(const hp_acl *acl, uid_t owner, gid_t group, uid_t uid, const gid_t *groups,
                  size_t ngroups, unsigned want)
{
	for (size_t i = 0; i < acl->n; i++)
		if (acl->e[i].tag == HP_ACL_USER_OBJ && uid == owner)
			return (acl->e[i].perm & want) == want;
	return grants_not_owner(acl, in_groups(group, groups, ngroups), uid, groups, ngroups,
	                        want);
}

/* The new file's access ACL is the default one with its owner, group
 * class (the mask, or the group entry without one) and other entries
 * ANDed with the creation mode (posix_acl_create; no umask), so with the
 * widest mode it is the default ACL itself. Its owner is its creator; its
 * group the directory's when that is setgid, else the creator's, which
 * may be one the process is in or one it is not: both are tried. */
int hp_os_acl_default_grants(const hp_acl *dacl, const gid_t *setgid_group, uid_t uid,
                             const gid_t *groups, size_t ngroups, unsigned want)
{
	if (setgid_group)
		return grants_not_owner(dacl, in_groups(*setgid_group, groups, ngroups), uid,
		                        groups, ngroups, want);
	return grants_not_owner(dacl, 1, uid, groups, ngroups, want) ||
	       grants_not_owner(dacl, 0, uid, groups, ngroups, want);
}
