/* role_ident.h: a role's identity for one check (session.c): from the
 * identity phase one computed (a uid or a user) to its ids, its groups
 * from the root's etc/group, the credentials computed answers use, and how
 * the switch is made (identity.h); in a container (--container), this
 * process as the container made it; and, without root, whether this
 * process already is the role, so that it can run here. */
#ifndef HP_CHECK_ROLE_IDENT_H
#define HP_CHECK_ROLE_IDENT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "model/bytecode.h"
#include "model/value.h"
#include "os/access.h"
#include "os/identity.h"
#include "probe/sysbackend.h"

typedef struct {
	bool ok;
	hp_err why; /* when not ok: "role R cannot run: ..." */
	hp_identity id;
	gid_t *groups; /* id's and cred's; the ident's to free */
	size_t ngroups;
	hp_cred cred;
} hp_role_ident;

/* Role r, which the policy declares as br (NULL: it does not), whose
 * identity phase one computed as iv; users and groups read through sys. */
void hp_role_ident_of(hp_role_ident *ri, hp_role r, const hp_bc_role *br, const hp_value *iv,
                      hp_sysbackend *sys);
/* --container: role r is this process as the container made it (its uid,
 * which may have no passwd entry, its groups, its capabilities and
 * no_new_privs as they are); selected: --role names it, or names none.
 * Nothing is switched. */
void hp_role_ident_container(hp_role_ident *ri, hp_role r, bool selected);
void hp_role_ident_free(hp_role_ident *ri);

/* Without root: whether this process already is the role's identity (its
 * ids and its groups), so that the role can run here; false with why. */
bool hp_role_ident_is_current(const hp_role_ident *ri, hp_role r, hp_err *why);
/* Without root, in the role's child: what the role's start does that needs
 * no privilege: capabilities dropped (no caps), no_new_privs,
 * non-dumpable. 0, or -1 when one of them failed. */
int hp_role_ident_self_restrict(const hp_identity *id);
/* Whether the role's process is of a uid other than 0 (other roles may
 * see it among their processes). */
bool hp_role_ident_seen_by_others(const hp_role_ident *ri);

#endif
