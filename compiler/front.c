/* front.c: the front end's entry point (front.h). */
#include "front.h"

#include <stdlib.h>

#include "arena.h"
#include "xalloc.h"

static hp_program *empty_program(void)
{
	hp_arena *a = hp_arena_new();
	hp_program *p = hp_arena_alloc(a, sizeof *p);
	p->arena = a;
	return p;
}

hp_program *hp_front_compile(const char *path, const hp_front_opts *opts, hp_diags *d)
{
	(void)opts;
	hp_program *p = empty_program();
	hp_diag_path(d, HP_SEV_ERROR, HP_DG_IO, path, "the policy parser is not part of this build yet");
	return p;
}

hp_program *hp_front_compile_text(const char *name, const char *text, size_t len,
				  const hp_front_opts *opts, hp_diags *d)
{
	(void)text;
	(void)len;
	return hp_front_compile(name, opts, d);
}

void hp_program_free(hp_program *p)
{
	if (p)
		hp_arena_free(p->arena);
}
