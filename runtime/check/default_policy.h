/* default_policy.h: the policy built into the executables. The build
 * compiles policies/default.hpol with a stage-0 hangar-policy and turns the
 * bytecode into build/gen/default_policy.c, which defines the two symbols
 * below; each executable's main registers them, so `check` without POLICY
 * works with no file at all. The runtime library itself never names them:
 * unit tests link without a built-in policy. */
#ifndef HP_DEFAULT_POLICY_H
#define HP_DEFAULT_POLICY_H

#include <stddef.h>

#include "model/bytecode.h"
#include "lib/xalloc.h"

extern const unsigned char hp_default_policy[];
extern const size_t hp_default_policy_len;
/* Where the built-in policy's source is installed (DATADIR/hangar-policy/
 * policies/default.hpol): the report names it, and its locations are
 * relative to that directory. */
extern const char hp_default_policy_source[];

/* Set once by main, before any command runs. */
void hp_set_default_policy(const unsigned char *data, size_t len);

/* The built-in policy, loaded and verified like any other bytecode (it is
 * not trusted because it is ours). NULL with err set when there is none. */
hp_bc *hp_default_policy_load(hp_err *err);

#endif
