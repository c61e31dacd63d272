/* record.h: `check --record F`: every fact a check observed (each question
 * asked of the backend and its answer, phase one and every role), written
 * as a facts file (docs/facts.md), so that `check --facts F` reproduces the
 * run's rule results without the system it looked at.
 *
 * Each question appears once: global probes without a role (they are the
 * same for every role), role probes with the role that asked. A value the
 * facts format cannot hold (a string that is not valid UTF-8) is recorded
 * as unknown with that reason; a question whose argument cannot be written
 * is left out, with a comment saying so (replayed, it is unknown too).
 * A role that did not run has no facts: replay with the same --role.
 * The output is deterministic: the same run gives the same bytes. */
#ifndef HP_RECORD_H
#define HP_RECORD_H

#include <stdbool.h>

#include "lib/buf.h"
#include "model/bytecode.h"
#include "vm/result.h"
#include "vm/vm.h"
#include "lib/xalloc.h"

/* The facts file's text. roles holds HP_ROLE_COUNT results; source names
 * the backend ("live", "rootfs") for the file's first comment. */
void hp_record_text(hp_buf *out, const hp_bc *bc, const hp_globals *g, const hp_role_result *roles,
                    const char *source);
/* The same for a recording made in a container (--container NAME): the
 * file says so, and its facts are that container's (docs/facts.md). */
void hp_record_text_in(hp_buf *out, const hp_bc *bc, const hp_globals *g,
                       const hp_role_result *roles, const char *source, const char *container);

/* hp_record_text written to path as a new file (hp_safe_write, mode 0600
 * less the umask: a recording can hold the check's own environment), or to
 * standard output for "-". false with err. */
bool hp_record_write(const char *path, const hp_bc *bc, const hp_globals *g,
                     const hp_role_result *roles, const char *source, const char *container,
                     hp_err *err);

#endif
