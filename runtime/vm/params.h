/* params.h: a policy's params given on the command line (--param
 * NAME=VALUE): the override phase one applies (vm.h, hp_globals_eval) and
 * the parser of its text (params.c). */
#ifndef HP_PARAMS_H
#define HP_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/pool.h"
#include "lib/xalloc.h"
#include "model/bytecode.h"
#include "model/value.h"

typedef struct {
	const char *name;
	const char *value;
} hp_param_override;

/* Parse a --param value as the param's type: string as is; int in decimal,
 * 0o octal or 0x hex; bool true or false; list and caps as comma-separated
 * items (capability names without cap_); role by name. user and group
 * params cannot be given. false with err set. */
bool hp_param_parse(const hp_bc *bc, uint32_t param, const char *text, hp_pool *pool, hp_value *out,
                    hp_err *err);

#endif
