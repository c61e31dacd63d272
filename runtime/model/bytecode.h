/* bytecode.h: the compiled policy's file format (docs/bytecode.md is its
 * specification) and the loaded, verified program the VM runs.
 *
 * A file is a header, a section directory and eight sections, little
 * endian throughout. hp_bc_load checks everything before it returns a
 * program: the header, every length and offset (each before it is used),
 * the checksum, every table, and every instruction of every region
 * (verify.c). There is no way to get an unverified program. */
#ifndef HP_BYTECODE_H
#define HP_BYTECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/domain.h"
#include "model/opcodes.h"
#include "model/value.h"
#include "lib/crc32.h"
#include "lib/readfile.h"
#include "lib/xalloc.h"

/* --- the file --------------------------------------------------------------- */

#define HP_BC_MAGIC "\x89HPB\r\n\x1a\n" /* 8 bytes */
#define HP_BC_MAGIC_LEN 8
#define HP_BC_VERSION 2 /* 2: NONEMPTY (a loop over nothing is unknown) */
#define HP_BC_HEADER_SIZE 40 /* then the section directory */
#define HP_BC_DIRENT_SIZE 12 /* id, offset, length */
#define HP_BC_INSN_SIZE 8
#define HP_BC_NONE 0xffffffffu /* "no string", "no constant" in an optional field */

/* The sections, in the order they appear: X(ID, "name"). */
#define HP_BC_SECTIONS(X)         \
	X(STRINGS, "strings")     \
	X(CONSTS, "consts")       \
	X(PARAMS, "params")       \
	X(ROLES, "roles")         \
	X(RULES, "rules")         \
	X(PROVIDERS, "providers") \
	X(CODE, "code")           \
	X(SRCMAP, "source map")

typedef enum {
#define HP_BC_SEC_ENUM(id, name) HP_SEC_##id,
	HP_BC_SECTIONS(HP_BC_SEC_ENUM)
#undef HP_BC_SEC_ENUM
	    HP_SEC_COUNT
} hp_bc_section;
extern const char *const hp_bc_section_names[HP_SEC_COUNT];

/* Table entry sizes in bytes (docs/bytecode.md gives each layout). */
#define HP_BC_STRING_SIZE 8
#define HP_BC_CONST_SIZE 16
#define HP_BC_PARAM_SIZE 28
#define HP_BC_ROLE_SIZE 36
#define HP_BC_RULE_SIZE 36
#define HP_BC_ASSERTION_SIZE 24
#define HP_BC_PROVIDER_SIZE 24
#define HP_BC_COND_SIZE 32
#define HP_BC_SRCMAP_SIZE 20

/* Role flags. */
#define HP_BC_ROLE_NO_CAPS 1u
#define HP_BC_ROLE_NO_NEW_PRIVS 2u
#define HP_BC_ROLE_KEEP_CAPS 4u
#define HP_BC_ROLE_FLAGS (HP_BC_ROLE_NO_CAPS | HP_BC_ROLE_NO_NEW_PRIVS | HP_BC_ROLE_KEEP_CAPS)

typedef enum { HP_BC_REQUIRE = 0, HP_BC_FORBID = 1 } hp_bc_assert_kind;
typedef enum { HP_BC_NEEDS = 0, HP_BC_NEVER = 1 } hp_bc_cond_kind;

/* --- the verifier's limits ----------------------------------------------------- */

#define HP_BC_MAX_FILE (16u * 1024u * 1024u) /* bytes in a file */
#define HP_BC_MAX_STACK 64u                  /* values on the stack */
#define HP_BC_MAX_LOOP_DEPTH 8u              /* loops nested in one another */
#define HP_BC_MAX_LOOP_BOUND 65536u          /* iterations of one loop */
#define HP_BC_MAX_PENDING 64u                /* jumps pending at one point of a region */
#define HP_BC_MAX_STEPS (1ull << 27)         /* instructions one region can run */
#define HP_BC_MAX_PROBES (1ull << 24)        /* probes one region can ask */

/* --- the loaded program ---------------------------------------------------------- */

typedef struct {
	uint32_t file; /* a string: the source file's name */
	uint32_t line, col;
} hp_bc_loc;

/* An instruction as the VM runs it: the file's fields, and aux, set by the
 * verifier (FOR: the index of its ENDFOR; ENDFOR: the index of its FOR). */
typedef struct {
	uint8_t op, a;
	uint16_t b;
	uint32_t c;
	uint32_t aux;
} hp_insn;

typedef struct {
	uint32_t start, len; /* instructions [start, start+len) of the code */
} hp_bc_region;

/* What running a region can cost at most, from the verifier. */
typedef struct {
	uint64_t steps, probes;
} hp_bc_bounds;

typedef struct {
	uint8_t type; /* hp_type */
	uint64_t value;
} hp_bc_const;

typedef struct {
	uint32_t name;
	uint8_t type; /* hp_type */
	hp_bc_region code;
	hp_bc_loc loc;
	hp_bc_bounds bounds;
} hp_bc_param;

typedef struct {
	uint8_t role;  /* hp_role */
	uint8_t flags; /* HP_BC_ROLE_* */
	uint64_t keep_caps;
	hp_bc_region identity; /* returns a uid (int) or a user */
	uint8_t identity_type; /* HP_T_INT or HP_T_USER, from the verifier */
	hp_bc_region body;
		hp_bc_loc loc;
	hp_bc_bounds identity_bounds, body_bounds;
	uint32_t nasserts; /* assertions of this role, from the loader */
} hp_bc_role;

typedef struct {
	uint32_t id, title, remedy; /* remedy may be HP_BC_NONE */
	hp_applies applies;
	uint32_t first, count; /* its assertions */
	hp_bc_loc loc;
	uint32_t roles; /* bit per role that has one of its assertions */
} hp_bc_rule;

typedef struct {
	uint32_t rule;
	uint8_t role; /* hp_role */
	uint8_t kind; /* hp_bc_assert_kind */
	uint32_t text;
	hp_bc_loc loc;
	uint32_t pc; /* its REQUIRE or FORBID, from the verifier */
} hp_bc_assertion;

typedef struct {
	uint8_t provider;  /* hp_provider */
	uint8_t uid_split; /* hp_setting: the default */
	uint32_t first, count;
	hp_bc_loc loc;
} hp_bc_provider;

typedef struct {
	uint8_t kind; /* hp_bc_cond_kind */
	hp_bc_region code;
	uint32_t text, because; /* because: NEVER only, else HP_BC_NONE */
	hp_bc_loc loc;
	hp_bc_bounds bounds;
} hp_bc_cond;

typedef struct {
	uint32_t pc;
	hp_bc_loc loc;
	uint32_t line_text; /* the source line, for disassembly and messages */
} hp_bc_srcmap;

typedef struct hp_bc {
	char *path; /* as given to the loader, for messages */
	uint32_t size;
	uint32_t checksum;
	uint32_t name; /* the policy's name (a string) */
	int64_t version;

	hp_str *strings;
	uint32_t nstrings;
	hp_bc_const *consts;
	uint32_t nconsts;
	hp_bc_param *params;
	uint32_t nparams;
	hp_bc_role *roles;
	uint32_t nroles;
	hp_bc_rule *rules;
	uint32_t nrules;
	hp_bc_assertion *asserts;
	uint32_t nasserts;
	hp_bc_provider *providers;
	uint32_t nproviders;
	hp_bc_cond *conds;
	uint32_t nconds;
	hp_insn *code;
	uint32_t ncode;
	hp_bc_srcmap *srcmap;
	uint32_t nsrcmap;

	int role_index[HP_ROLE_COUNT];         /* index in roles, or -1 */
	int provider_index[HP_PROVIDER_COUNT]; /* index in providers, or -1 */
	uint32_t code_offset;                  /* file offset of instruction 0, for messages */
	uint32_t asserts_offset;               /* file offset of assertion 0, for messages */
	uint8_t *data;                         /* the file's bytes (strings point into them) */
} hp_bc;

/* Load and verify a program from memory (copied). NULL with err set to
 * "PATH: byte N[, instruction I (OP)]: what is wrong". */
hp_bc *hp_bc_load(const char *path, const uint8_t *data, size_t len, hp_err *err);
/* Read a file (a regular file, at most HP_BC_MAX_FILE bytes, never
 * blocking) and load it. */
hp_bc *hp_bc_load_file(const char *path, hp_err *err);
void hp_bc_free(hp_bc *bc);

/* String i (the loader checked every index it stores); "" for HP_BC_NONE,
 * so test optional strings against HP_BC_NONE first. */
static inline const char *hp_bc_str(const hp_bc *bc, uint32_t i)
{
	return i < bc->nstrings ? bc->strings[i].p : "";
}

/* The source map entry covering instruction pc, or NULL. */
const hp_bc_srcmap *hp_bc_srcmap_at(const hp_bc *bc, uint32_t pc);

/* "file:line:col" into b. */
void hp_bc_loc_format(hp_buf *b, const hp_bc *bc, hp_bc_loc loc);

/* The code regions of a program (region.c), one list and one way of naming
 * them for the loader's layout check and the verifier's messages. */
typedef enum {
	HP_BC_REG_PARAM,    /* a param's default (index: the param) */
	HP_BC_REG_IDENTITY, /* a role's identity (index: the role table's entry) */
	HP_BC_REG_BODY,     /* a role's checks (index: the role table's entry) */
	HP_BC_REG_COND,     /* a provider condition (index: the condition) */
} hp_bc_region_kind;

typedef struct {
	hp_bc_region r;
	hp_bc_region_kind kind;
	uint32_t index;
} hp_bc_region_ref;

/* How many regions bc has, and all of them into out (that many entries):
 * the params, each role's identity then checks, the conditions. */
size_t hp_bc_region_count(const hp_bc *bc);
void hp_bc_regions(const hp_bc *bc, hp_bc_region_ref *out);
/* "param NAME", "the identity of role R", "the checks of role R" or
 * "provider condition N", into buf (n bytes). */
const char *hp_bc_region_name(const hp_bc *bc, hp_bc_region_kind kind, uint32_t index, char *buf,
                              size_t n);

/* Verify the code of a program whose tables are loaded (verify.c). */
bool hp_bc_verify(hp_bc *bc, hp_err *err);

#endif
