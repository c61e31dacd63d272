/* bctest.c: the test helpers of bctest.h. */
#include "bctest.h"

#include <stdlib.h>
#include <string.h>

hp_bcw *bt_new(void)
{
	hp_bcw *w = hp_bcw_new();
	hp_bcw_policy(w, "test", 1);
	hp_bcw_at(w, (hp_bcw_loc){"t.hpol", 1, 1}, "line one");
	return w;
}

hp_bc_region bt_region(hp_bcw *w, uint32_t start)
{
	hp_bc_region r = {start, hp_bcw_pc(w) - start};
	return r;
}

void bt_role(hp_bcw *w, hp_role role, uint32_t body_start)
{
	hp_bc_region body = bt_region(w, body_start);
	uint32_t id = hp_bcw_pc(w);
	hp_bcw_emit(w, HP_I_PUSH_INT, 0, 0, hp_bcw_const(w, HP_T_INT, 0));
	hp_bcw_emit(w, HP_I_RETURN, 0, 0, 0);
	hp_bcw_role(w, role, 0, HP_BC_NONE, bt_region(w, id), body, (hp_bcw_loc){"t.hpol", 1, 1});
}

uint8_t *bt_bytes(hp_bcw *w, size_t *len)
{
	uint8_t *data = hp_bcw_finish(w, len);
	hp_bcw_free(w);
	return data;
}

hp_bc *bt_load(hp_bcw *w, hp_err *err)
{
	size_t len;
	uint8_t *data = bt_bytes(w, &len);
	hp_bc *bc = hp_bc_load("t.hpb", data, len, err);
	free(data);
	return bc;
}

hp_value bt_param0(const hp_bc *bc, hp_backend *b, hp_globals *g)
{
	hp_err err;
	if (!hp_globals_eval(bc, b, NULL, 0, NULL, g, &err))
		return hp_v_unknown(HP_T_NONE, "globals failed");
	return g->params[0];
}

static hp_value stub_ask(hp_backend *base, hp_role role, hp_probe_id probe, const hp_value *arg,
                         hp_pool *pool)
{
	bt_backend *b = (bt_backend *)base;
	(void)pool;
	b->calls++;
	b->last_role = role;
	for (size_t i = 0; i < b->n; i++) {
		const bt_answer *a = &b->answers[i];
		if (a->probe != probe || (a->role >= 0 && a->role != (int)role))
			continue;
		if (a->arg && (arg->type != HP_T_STR || strcmp(a->arg, arg->u.s.p) != 0))
			continue;
		return a->answer;
	}
	return hp_v_unknown(hp_probes[probe].result, "no stub answer");
}

static const hp_backend_ops stub_ops = {"stub", stub_ask, NULL, NULL};

hp_backend *bt_backend_init(bt_backend *b, const bt_answer *answers, size_t n)
{
	memset(b, 0, sizeof *b);
	b->base.ops = &stub_ops;
	b->answers = answers;
	b->n = n;
	return &b->base;
}
