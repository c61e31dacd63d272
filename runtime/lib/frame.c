/* frame.c: encode and strictly decode framed record lists. */
#include "lib/frame.h"

#include <stdlib.h>
#include <string.h>

static const unsigned char magic[4] = {'H', 'P', 'F', 1};

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint16_t get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void hp_frame_begin(hp_frame_writer *w)
{
	memset(w, 0, sizeof *w);
	unsigned char h[HP_FRAME_HEADER] = {0};
	hp_buf_append(&w->b, h, sizeof h);
}

void hp_frame_add(hp_frame_writer *w, uint16_t tag, const void *data, size_t len)
{
	/* unrepresentable: a header the decoder refuses, and no data */
	int too_long = len > UINT32_MAX - HP_FRAME_HEADER - HP_FRAME_RECORD_HEADER;
	unsigned char h[HP_FRAME_RECORD_HEADER];
	put16(h, tag);
	put16(h + 2, 0);
	put32(h + 4, too_long ? UINT32_MAX : (uint32_t)len);
	hp_buf_append(&w->b, h, sizeof h);
	if (!too_long)
		hp_buf_append(&w->b, data, len);
	w->count++;
}

void hp_frame_add_u64(hp_frame_writer *w, uint16_t tag, uint64_t v)
{
	unsigned char b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	hp_frame_add(w, tag, b, sizeof b);
}

void hp_frame_add_str(hp_frame_writer *w, uint16_t tag, const char *s)
{
	hp_frame_add(w, tag, s, strlen(s));
}

void hp_frame_end(hp_frame_writer *w)
{
	unsigned char *h = (unsigned char *)w->b.data;
	memcpy(h, magic, 4);
	put16(h + 4, HP_FRAME_VERSION);
	put16(h + 6, 0);
	put32(h + 8, w->count);
	size_t body = w->b.len - HP_FRAME_HEADER;
	put32(h + 12, body > UINT32_MAX ? UINT32_MAX : (uint32_t)body);
}

void hp_frame_writer_free(hp_frame_writer *w)
{
	hp_buf_free(&w->b);
	w->count = 0;
}

hp_tri hp_frame_decode(const void *buf, size_t len, size_t max_records, hp_frame *f, hp_err *why)
{
	memset(f, 0, sizeof *f);
	const unsigned char *p = buf;
	if (len < HP_FRAME_HEADER) {
		hp_err_set(why, "frame: %zu bytes, shorter than the header", len);
		return HP_UNKNOWN;
	}
	if (memcmp(p, magic, 4) != 0) {
		hp_err_set(why, "frame: bad magic");
		return HP_UNKNOWN;
	}
	if (get16(p + 4) != HP_FRAME_VERSION) {
		hp_err_set(why, "frame: version %u, expected %d", get16(p + 4), HP_FRAME_VERSION);
		return HP_UNKNOWN;
	}
	if (get16(p + 6) != 0) {
		hp_err_set(why, "frame: unknown flags 0x%x", get16(p + 6));
		return HP_UNKNOWN;
	}
	uint32_t count = get32(p + 8), body = get32(p + 12);
	if (body != len - HP_FRAME_HEADER) {
		hp_err_set(why, "frame: body length %u, but %zu bytes follow the header", body,
		           len - HP_FRAME_HEADER);
		return HP_UNKNOWN;
	}
	if (count > max_records || count > body / HP_FRAME_RECORD_HEADER) {
		hp_err_set(why, "frame: %u records, more than %zu or than the body can hold", count,
		           max_records);
		return HP_UNKNOWN;
	}
	f->buf = hp_xmalloc(len);
	memcpy(f->buf, buf, len);
	f->rec = hp_xcalloc(count ? count : 1, sizeof *f->rec);
	size_t off = HP_FRAME_HEADER;
	for (uint32_t i = 0; i < count; i++) {
		if (len - off < HP_FRAME_RECORD_HEADER) {
			hp_err_set(why, "frame: record %u: header past the end of the body", i + 1);
			goto bad;
		}
		const unsigned char *r = f->buf + off;
		if (get16(r + 2) != 0) {
			hp_err_set(why, "frame: record %u: reserved bits set", i + 1);
			goto bad;
		}
		uint32_t rl = get32(r + 4);
		off += HP_FRAME_RECORD_HEADER;
		if (rl > len - off) {
			hp_err_set(why, "frame: record %u: length %u past the end of the body",
			           i + 1, rl);
			goto bad;
		}
		f->rec[i].tag = get16(r);
		f->rec[i].len = rl;
		f->rec[i].data = f->buf + off;
		off += rl;
	}
	if (off != len) {
		hp_err_set(why, "frame: %zu bytes after the last record", len - off);
		goto bad;
	}
	f->n = count;
	return HP_TRUE;
bad:
	hp_frame_free(f);
	return HP_UNKNOWN;
}

void hp_frame_free(hp_frame *f)
{
	free(f->buf);
	free(f->rec);
	memset(f, 0, sizeof *f);
}

int hp_frame_rec_u64(const hp_frame_rec *r, uint64_t *v)
{
	if (r->len != 8)
		return -1;
	uint64_t x = 0;
	for (int i = 7; i >= 0; i--)
		x = x << 8 | r->data[i];
	*v = x;
	return 0;
}

int hp_frame_rec_str(const hp_frame_rec *r, char **s)
{
	if (memchr(r->data, '\0', r->len))
		return -1;
	*s = hp_xstrndup((const char *)r->data, r->len);
	return 0;
}

const hp_frame_rec *hp_frame_find(const hp_frame *f, uint16_t tag)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->rec[i].tag == tag)
			return &f->rec[i];
	return NULL;
}
