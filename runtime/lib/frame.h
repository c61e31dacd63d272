/* frame.h: a bounded, versioned byte encoding for what a role's child sends
 * back to the parent over a pipe (docs/runtime.md, "Children and their
 * messages"): a flat list of records,
 * each a tag and bytes. The VM's results are serialised on top of it (one
 * record per answer, with tags of its own); child.h uses tags from
 * HP_FRAME_TAG_RESERVED up for its own status.
 *
 * Layout, every integer little-endian:
 *
 *   0   4  magic "HPF\x01"
 *   4   2  version (HP_FRAME_VERSION)
 *   6   2  flags (0: any bit set is rejected, never ignored)
 *   8   4  record count
 *   12  4  body length: the bytes after this 16-byte header
 *   16     records: u16 tag, u16 reserved (0), u32 length, length bytes
 *
 * The decoder trusts nothing: the header, the count against a caller's
 * bound, each record's length against what is left, the sum against the
 * body length, and no trailing byte. Any mismatch is unknown, with a reason
 * saying where ("frame: record 3: length 70000 past the end of the body").
 */
#ifndef HP_FRAME_H
#define HP_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "lib/buf.h"
#include "lib/tri.h"
#include "lib/xalloc.h"

enum { HP_FRAME_VERSION = 1, HP_FRAME_HEADER = 16, HP_FRAME_RECORD_HEADER = 8 };
enum { HP_FRAME_TAG_RESERVED = 0xff00 };

typedef struct {
	hp_buf b;
	uint32_t count;
} hp_frame_writer;

/* Start a message (the writer must be zeroed or freed before). */
void hp_frame_begin(hp_frame_writer *w);
void hp_frame_add(hp_frame_writer *w, uint16_t tag, const void *data, size_t len);
void hp_frame_add_u64(hp_frame_writer *w, uint16_t tag, uint64_t v);
void hp_frame_add_str(hp_frame_writer *w, uint16_t tag, const char *s);
/* Fill in the header; the message is w->b.data, w->b.len bytes. */
void hp_frame_end(hp_frame_writer *w);
void hp_frame_writer_free(hp_frame_writer *w);

typedef struct {
	uint16_t tag;
	uint32_t len;
	const unsigned char *data;
} hp_frame_rec;

typedef struct {
	unsigned char *buf; /* owned copy of the message */
	hp_frame_rec *rec;
	size_t n;
} hp_frame;

/* Decode a message of exactly len bytes with at most max_records records.
 * HP_TRUE, or HP_UNKNOWN with why set. The frame owns a copy of buf. */
hp_tri hp_frame_decode(const void *buf, size_t len, size_t max_records, hp_frame *f, hp_err *why);
void hp_frame_free(hp_frame *f);

/* Typed reads of one record: 0, or -1 when the record has the wrong size
 * (a u64 is 8 bytes) or, for a string, holds a NUL. A string is copied into
 * a fresh NUL-terminated allocation. */
int hp_frame_rec_u64(const hp_frame_rec *r, uint64_t *v);
int hp_frame_rec_str(const hp_frame_rec *r, char **s);

/* The first record with this tag, or NULL. */
const hp_frame_rec *hp_frame_find(const hp_frame *f, uint16_t tag);

#endif
