/* fuzz_front.c: the policy front end on arbitrary bytes: lexer, parser,
 * includes (served from memory: "self.hpol" is the input itself, anything
 * else is missing), checks, diagnostics printing and JSON/SARIF output; and
 * for input that parses, the formatter's two promises: its output parses
 * to the same tree, and formatting it again changes nothing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag_out.h"
#include "fmt.h"
#include "front.h"

typedef struct {
	const uint8_t *data;
	size_t size;
} input;

static int reader(void *ctx, const char *path, char **text, size_t *len, char *err, size_t errlen)
{
	const input *in = ctx;
	size_t pl = strlen(path);
	if (pl >= 9 && strcmp(path + pl - 9, "self.hpol") == 0) {
		char *t = malloc(in->size + 1);
		if (!t)
			abort();
		memcpy(t, in->data, in->size);
		t[in->size] = '\0';
		*text = t;
		*len = in->size;
		return 0;
	}
	snprintf(err, errlen, "No such file or directory");
	return -1;
}

static char *dump_of(const char *text, size_t len, int *ok)
{
	hp_diags d;
	hp_diags_init(&d);
	hp_front_opts o = {0};
	o.parse_only = true;
	hp_program *p = hp_front_compile_text("fmt.hpol", text, len, &o, &d);
	char *r = NULL;
	*ok = p->ok;
	if (p->ok) {
		hp_buf b = {0};
		hp_ast_dump(p->files[0], &b);
		hp_buf_puts(&b, "");
		r = b.data;
	}
	hp_program_free(p);
	hp_diags_free(&d);
	return r;
}

static void check_fmt(const hp_src *src)
{
	hp_buf once = {0}, before = {0};
	hp_fmt_src(src, &once);
	hp_buf_puts(&once, "");
	hp_ast_dump(src, &before);
	hp_buf_puts(&before, "");
	int ok;
	char *after = dump_of(once.data, once.len, &ok);
	if (!ok || strcmp(after, before.data) != 0)
		abort(); /* formatting changed the meaning */
	hp_diags d;
	hp_diags_init(&d);
	hp_front_opts o = {0};
	o.parse_only = true;
	hp_program *p = hp_front_compile_text("fmt.hpol", once.data, once.len, &o, &d);
	hp_buf twice = {0};
	hp_fmt_src(p->files[0], &twice);
	hp_buf_puts(&twice, "");
	if (twice.len != once.len || memcmp(twice.data, once.data, once.len) != 0)
		abort(); /* not idempotent */
	hp_program_free(p);
	hp_diags_free(&d);
	free(after);
	hp_buf_free(&once);
	hp_buf_free(&before);
	hp_buf_free(&twice);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	input in = {data, size};
	hp_front_opts o = {0};
	o.read = reader;
	o.read_ctx = &in;
	hp_diags d;
	hp_diags_init(&d);
	hp_program *p = hp_front_compile_text("dir/self.hpol", (const char *)data, size, &o, &d);
	FILE *null = fopen("/dev/null", "w");
	if (null) {
		hp_diag_style st = {false, 0};
		hp_diags_print(null, &d, &st);
		hp_diags_print_summary(null, &d, (uint32_t)d.n);
		fclose(null);
	}
	hp_diag_recs recs = {0};
	for (size_t i = 0; i < d.n; i++)
		hp_diag_recs_add(&recs, &d.v[i]);
	hp_buf b = {0};
	hp_diag_recs_json(&b, &recs);
	hp_diag_recs_sarif(&b, &recs);
	hp_buf_free(&b);
	hp_diag_recs_free(&recs);
	hp_program_free(p);
	hp_diags_free(&d);

	/* the formatter, on input that parses */
	hp_diags_init(&d);
	o.parse_only = true;
	p = hp_front_compile_text("fmt.hpol", (const char *)data, size, &o, &d);
	if (p->ok)
		check_fmt(p->files[0]);
	hp_program_free(p);
	hp_diags_free(&d);
	return 0;
}
