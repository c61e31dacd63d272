/* sysb_net.c: the live probe about the network as the role sees it:
 * envd_tokenless, one tokenless request to envd on loopback (os/envd.h),
 * made from the role's own process so that it is the role's network
 * namespace and identity that ask. Offline it is never asked: sysbackend.c
 * answers it "needs a live sandbox". */
#include "probe/sysb.h"

#include "os/envd.h"

static hp_value envd_probe(hp_sysbackend *s, hp_probe_id p, const char *arg, hp_pool *pool)
{
	if (!s->role.as_role)
		return hp_probe_sysb_unknown(pool, p,
		                       "%s: this process does not have the %s role's identity",
		                       hp_probes[p].name, hp_role_names[s->role.role]);
	hp_envd_request req;
	hp_err why;
	if (!hp_os_envd_parse(arg, &req, &why))
		return hp_probe_sysb_unknown(pool, p, "%s(\"%.64s\"): %s", hp_probes[p].name, arg,
		                       why.msg);
	int status;
	switch (hp_os_envd_ask(&req, NULL, &status, &why)) {
	case HP_ENVD_REFUSED:
		return hp_v_bool(false);
	case HP_ENVD_ANSWERED:
		return hp_v_bool(true);
	case HP_ENVD_ABSENT:
		return hp_v_absent(hp_probes[p].result, hp_probe_sysb_reason(pool, "%s", why.msg));
	case HP_ENVD_UNKNOWN:
	case HP_ENVD_MORE: /* never from hp_os_envd_ask */
		break;
	}
	return hp_probe_sysb_unknown(pool, p, "%s", why.msg);
}

hp_value hp_probe_sysb_net(hp_sysbackend *s, hp_probe_id p, const hp_value *arg, hp_pool *pool)
{
	switch (p) {
	case HP_PROBE_ENVD_TOKENLESS:
		return envd_probe(s, p, arg->u.s.p, pool);
#define HP_PROBE(id, name, result, argt, scope, needs, part, asks, doc)                       \
	HP_PROBE_CASE_UNLESS(part, NET, id)
#include "model/probes.def"
	case HP_PROBE_COUNT:
		break;
	}
	return hp_probe_sysb_unknown(pool, p, "%s: not answered by the %s backend", hp_probes[p].name,
	                       s->base.ops->name);
}
