/* region.c: the code regions of a loaded program, listed and named once
 * (bytecode.h): the loader checks that they tile the code, the verifier
 * checks each, and both name them the same way in their messages. */
#include <stdio.h>

#include "model/bytecode.h"

size_t hp_bc_region_count(const hp_bc *bc)
{
	return (size_t)bc->nparams + 2u * bc->nroles + bc->nconds;
}

void hp_bc_regions(const hp_bc *bc, hp_bc_region_ref *out)
{
	size_t k = 0;
	for (uint32_t i = 0; i < bc->nparams; i++)
		out[k++] = (hp_bc_region_ref){bc->params[i].code, HP_BC_REG_PARAM, i};
	for (uint32_t i = 0; i < bc->nroles; i++) {
		out[k++] = (hp_bc_region_ref){bc->roles[i].identity, HP_BC_REG_IDENTITY, i};
		out[k++] = (hp_bc_region_ref){bc->roles[i].body, HP_BC_REG_BODY, i};
	}
	for (uint32_t i = 0; i < bc->nconds; i++)
		out[k++] = (hp_bc_region_ref){bc->conds[i].code, HP_BC_REG_COND, i};
}

const char *hp_bc_region_name(const hp_bc *bc, hp_bc_region_kind kind, uint32_t index, char *buf,
                              size_t n)
{
	switch (kind) {
	case HP_BC_REG_PARAM:
		snprintf(buf, n, "param %s", hp_bc_str(bc, bc->params[index].name));
		return buf;
	case HP_BC_REG_IDENTITY:
		snprintf(buf, n, "the identity of role %s", hp_role_names[bc->roles[index].role]);
		return buf;
	case HP_BC_REG_BODY:
		snprintf(buf, n, "the checks of role %s", hp_role_names[bc->roles[index].role]);
		return buf;
	case HP_BC_REG_COND:
		snprintf(buf, n, "provider condition %u", index);
		return buf;
	}
	snprintf(buf, n, "region %u of kind %u", index, (unsigned)kind);
	return buf;
}
