/* ops.h: the language's pure operators on KNOWN values, defined once: the
 * VM runs them, and the compiler folds constant expressions with them, so
 * a folded constant is exactly what the VM would have computed. Results
 * that would pass a value limit (value.h) or the pool's are UNKNOWN with a
 * reason. Non-values never reach these functions: the VM propagates them
 * before calling. */
#ifndef HP_OPS_H
#define HP_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/pool.h"
#include "model/value.h"

/* The list with s appended. */
hp_value hp_op_append(hp_pool *p, hp_list l, hp_str s);
/* s split at each occurrence of sep (UNKNOWN for an empty sep). */
hp_value hp_op_split(hp_pool *p, hp_str s, hp_str sep);
hp_value hp_op_concat(hp_pool *p, hp_str a, hp_str b);
/* An int in decimal. */
hp_value hp_op_to_str(hp_pool *p, int64_t i);
/* s is an item of l. */
bool hp_op_in(hp_str s, hp_list l);
/* Every item of a is in b: lists, or caps sets (both of one type). */
hp_value hp_op_subset(hp_pool *p, const hp_value *a, const hp_value *b);
/* Items in both, in a's order: lists, or caps sets. */
hp_value hp_op_intersect(hp_pool *p, const hp_value *a, const hp_value *b);
/* Field f (fields.def) of a user or group. */
hp_value hp_op_field(const hp_value *rec, unsigned f);
/* The comparison opcodes on ints: LT LE GT GE (opcodes.h). */
bool hp_op_compare(unsigned opcode, int64_t a, int64_t b);

#endif
