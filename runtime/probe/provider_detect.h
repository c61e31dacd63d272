/* provider_detect.h: which sandbox provider a check runs under. --provider
 * wins, then HANGAR_PROVIDER, then the sandbox's own markers; when the
 * markers are missing or disagree, nothing is guessed: the caller asks for
 * --provider (exit 2). */
#ifndef HP_PROVIDER_DETECT_H
#define HP_PROVIDER_DETECT_H

#include <stdbool.h>

#include "model/domain.h"
#include "lib/xalloc.h"

typedef char *(*hp_getenv_fn)(const char *name);

/* root: the directory holding the sandbox's files ("/" when live); the
 * markers looked at are <root>/.dockerenv, <root>/run/e2b/.E2B_SANDBOX and
 * the environment's KUBERNETES_SERVICE_HOST and E2B_SANDBOX; root NULL means
 * there are no markers to look at (facts, an image root). Returns true
 * and sets *out, or false with err saying why no provider is certain. */
bool hp_probe_provider_detect(const char *flag, hp_getenv_fn env, const char *root, hp_provider *out,
                        hp_err *err);

#endif
