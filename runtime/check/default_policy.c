/* default_policy.c: the built-in policy, registered by main. */
#include "check/default_policy.h"

static const unsigned char *g_data;
static size_t g_len;

void hp_set_default_policy(const unsigned char *data, size_t len)
{
	g_data = data;
	g_len = len;
}

hp_bc *hp_default_policy_load(hp_err *err)
{
	if (!g_data || g_len == 0) {
		hp_err_set(err, "this executable has no built-in policy: name a POLICY");
		return NULL;
	}
	return hp_bc_load("<built-in policy>", g_data, g_len, err);
}
