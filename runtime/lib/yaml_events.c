/* yaml_events.c: libyaml's events to a reader's tree (yaml_events.h). */
#include "lib/yaml_events.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

bool hp_yaml_fail(hp_err *err, const char *name, uint32_t line, uint32_t col, const char *fmt,
                  ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	hp_err_set(err, "%s:%u:%u: %s", name, line, col, msg);
	return false;
}

static uint32_t at(size_t v)
{
	return v >= UINT32_MAX ? UINT32_MAX : (uint32_t)v + 1;
}

static hp_ymark mark_of(const yaml_event_t *ev)
{
	return (hp_ymark){at(ev->start_mark.line), at(ev->start_mark.column), at(ev->end_mark.line),
	                  at(ev->end_mark.column)};
}

/* An open collection: its node and the items read so far. */
typedef struct {
	void *node;
	bool map;
	void **kids;
	size_t n, cap;
} frame;

/* What no reader accepts of a node's event: an anchor or a tag. */
static bool plain_node(const hp_yaml_reader *r, const yaml_char_t *anchor, const yaml_char_t *tag,
                       const hp_ymark *m, hp_err *err)
{
	if (anchor)
		return hp_yaml_fail(err, r->name, m->line, m->col, "anchors are not allowed");
	if (tag)
		return hp_yaml_fail(err, r->name, m->line, m->col, "tags are not allowed ('%s')",
		                    (const char *)tag);
	return true;
}

bool hp_yaml_read(const hp_yaml_reader *r, const char *text, size_t len, void **root,
                  hp_err *err)
{
	*root = NULL;
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p))
		return hp_yaml_fail(err, r->name, 1, 1, "cannot start the YAML parser");
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	frame *stack = hp_xcalloc(r->max_depth + 1, sizeof *stack);
	size_t depth = 0;
	uint32_t nodes = 0;
	unsigned docs = 0;
	bool ok = true, done = false;
	while (ok && !done) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&p, &ev)) {
			ok = hp_yaml_fail(err, r->name, at(p.problem_mark.line), at(p.problem_mark.column),
			                  "%s%s%s", p.problem ? p.problem : "malformed YAML",
			                  p.context ? " " : "", p.context ? p.context : "");
			break;
		}
		hp_ymark m = mark_of(&ev);
		frame *top = depth ? &stack[depth - 1] : NULL;
		bool at_key = top && top->map && top->n % 2 == 0;
		bool node_event = ev.type == YAML_SCALAR_EVENT || ev.type == YAML_SEQUENCE_START_EVENT ||
		                  ev.type == YAML_MAPPING_START_EVENT;
		void *made = NULL;
		if (node_event && ++nodes > r->max_nodes) {
			ok = hp_yaml_fail(err, r->name, m.line, m.col, "more than %u values in one file",
			                  r->max_nodes);
			yaml_event_delete(&ev);
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				ok = hp_yaml_fail(err, r->name, m.line, m.col,
				                  "more than one YAML document in the file");
			break;
		case YAML_ALIAS_EVENT:
			ok = hp_yaml_fail(err, r->name, m.line, m.col,
			                  "aliases are not allowed (a file is read without expansion)");
			break;
		case YAML_SCALAR_EVENT:
			if (!(ok = plain_node(r, ev.data.scalar.anchor, ev.data.scalar.tag, &m, err)))
				break;
			if (memchr(ev.data.scalar.value, 0, ev.data.scalar.length)) {
				ok = hp_yaml_fail(err, r->name, m.line, m.col, "a NUL character in a string");
				break;
			}
			made = r->scalar(r->ctx, (const char *)ev.data.scalar.value, ev.data.scalar.length,
			                 ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE, at_key, &m, err);
			ok = made != NULL;
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT: {
			bool seq = ev.type == YAML_SEQUENCE_START_EVENT;
			ok = seq ? plain_node(r, ev.data.sequence_start.anchor, ev.data.sequence_start.tag,
			                      &m, err)
			         : plain_node(r, ev.data.mapping_start.anchor, ev.data.mapping_start.tag,
			                      &m, err);
			if (!ok)
				break;
			if (depth >= r->max_depth) {
				ok = hp_yaml_fail(err, r->name, m.line, m.col,
				                  "collections nested more than %u deep", r->max_depth);
				break;
			}
			void *n = r->open(r->ctx, seq, at_key, &m, err);
			if (!(ok = n != NULL))
				break;
			stack[depth++] = (frame){n, !seq, NULL, 0, 0};
			break;
		}
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT: {
			frame *f = &stack[--depth];
			made = f->node;
			ok = r->close(r->ctx, made, f->kids, f->n, &m, err);
			free(f->kids);
			break;
		}
		case YAML_NO_EVENT:
		case YAML_STREAM_START_EVENT:
		case YAML_DOCUMENT_END_EVENT:
		default:
			break;
		}
		if (ok && made) {
			if (depth) {
				frame *f = &stack[depth - 1];
				f->kids = hp_xgrow(f->kids, &f->cap, f->n + 1, sizeof *f->kids);
				f->kids[f->n++] = made;
			} else {
				*root = made;
			}
		}
		yaml_event_delete(&ev);
	}
	/* collections still open own their items' array until now */
	while (depth)
		free(stack[--depth].kids);
	free(stack);
	yaml_parser_delete(&p);
	if (!ok)
		*root = NULL;
	return ok;
}
