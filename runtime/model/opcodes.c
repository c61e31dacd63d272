/* opcodes.c: the instruction table of opcodes.h, expanded from opcodes.def. */
#include "model/opcodes.h"

#include <string.h>

const char *const hp_operand_kind_names[HP_K_COUNT] = {
    "none",         "bool",          "role",   "slot",  "field",  "probe",     "bound",
    "int constant", "caps constant", "list constant", "string", "param", "target", "assertion",
};

#define HP_OP_TERMINAL_YES true
#define HP_OP_TERMINAL_NO false
const hp_opcode_info hp_opcodes[HP_I_COUNT] = {
#define HP_OPCODE(name, a, b, c, pops, pushes, region, terminal, doc)                             \
	{#name,                                                                                   \
	 {HP_K_##a, HP_K_##b, HP_K_##c},                                                          \
	 pops,                                                                                    \
	 pushes,                                                                                  \
	 sizeof pops - 1,                                                                         \
	 sizeof pushes - 1,                                                                       \
	 HP_OPR_##region,                                                                         \
	 HP_OP_TERMINAL_##terminal,                                                               \
	 doc},
#include "model/opcodes.def"
};

int hp_opcode_lookup(const char *name)
{
	for (int i = 0; i < HP_I_COUNT; i++)
		if (strcmp(hp_opcodes[i].name, name) == 0)
			return i;
	return -1;
}
