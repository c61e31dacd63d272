/* opcodes.h: the instruction set, expanded from opcodes.def: the opcode
 * enum and one table giving each opcode's name, operand kinds and stack
 * signature. The verifier, the VM, the disassembler and code generation
 * read this table; nothing about an opcode is written anywhere else. */
#ifndef HP_OPCODES_H
#define HP_OPCODES_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
#define HP_OPCODE(name, a, b, c, pops, pushes, region, terminal, doc) HP_I_##name,
#include "model/opcodes.def"
	HP_I_COUNT
} hp_opcode;

/* What an operand field holds, and what the verifier checks of it. */
typedef enum {
	HP_K_Z,      /* unused: must be 0 */
	HP_K_BOOL,   /* 0 or 1 */
	HP_K_ROLE,   /* a role (domain.def) */
	HP_K_SLOT,   /* a loop slot: the nesting depth of an open loop, 0 outermost */
	HP_K_FIELD,  /* a record field (fields.def) */
	HP_K_PROBE,  /* a probe (probes.def) */
	HP_K_BOUND,  /* a loop's iteration bound, 1..HP_BC_MAX_LOOP_BOUND */
	HP_K_INTK,   /* index of an int constant */
	HP_K_CAPSK,  /* index of a caps constant */
	HP_K_LISTK,  /* index of a list constant */
	HP_K_STR,    /* index of a string */
	HP_K_PARAM,  /* index of a param */
	HP_K_TARGET, /* a later instruction of the same region, in the same loop */
	HP_K_ASSERT, /* index of an assertion of the region's role */
	HP_K_COUNT
} hp_operand_kind;

extern const char *const hp_operand_kind_names[HP_K_COUNT];

/* opcodes.def's REGION column: the regions an instruction may stand in. */
typedef enum {
	HP_OPR_ANY,   /* every region */
	HP_OPR_BODY,  /* only a role's checks */
	HP_OPR_VALUE, /* only a value region: a param, an identity, a condition */
} hp_op_region;

typedef struct {
	const char *name;
	uint8_t kind[3];    /* hp_operand_kind of a, b, c */
	const char *pops;   /* type letters, deepest first */
	const char *pushes; /* "" or one type letter */
	uint8_t npops, npushes;
	hp_op_region region; /* where it may stand */
	bool terminal;       /* a region's last instruction, and only that */
	const char *doc;
} hp_opcode_info;

extern const hp_opcode_info hp_opcodes[HP_I_COUNT];

/* The opcode with this name ("PUSH_STR"), or -1. */
int hp_opcode_lookup(const char *name);

#endif
