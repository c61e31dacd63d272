/* env_answer.h: the env probe's answer, the one way every backend gives it:
 * the check's own environment variable (never the agent's), absent when
 * unset, unknown for a name that is not a variable's or a value past the
 * runtime's string limit. The system backend answers every env question
 * with it; the facts backend answers hangar's own settings (HANGAR_*) with
 * it, so that no recording can set them; a check of documents alone
 * answers env with it too. */
#ifndef HP_ENV_ANSWER_H
#define HP_ENV_ANSWER_H

#include "lib/pool.h"
#include "model/value.h"

hp_value hp_probe_env_answer(const char *name, hp_pool *pool);

/* Whether a variable is one of hangar's own settings (HANGAR_...). */
bool hp_probe_env_is_setting(const char *name);

#endif
