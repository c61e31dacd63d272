/* ast.h: the policy language's syntax tree, as the parser builds it and as
 * the checker annotates it. This is the contract between the front end
 * (grammar/, compiler/check*.c), the formatter and code generation.
 *
 * Stability: fields and enumerators are only ever added, never renamed or
 * reordered in meaning. Every node lives in the compilation's arena
 * (hp_program.arena) and is freed with the program.
 *
 * Two layers:
 *   - syntax: what the parser fills (kinds, children, names, spans). The
 *     formatter uses only this layer.
 *   - checked: fields marked "checked" below, filled by the checker. They are
 *     meaningful only when hp_program.ok is true (no error was reported);
 *     code generation must not run otherwise.
 *
 * Lists are singly linked through `next` fields, in source order, with a
 * count beside the head. Names are interned per compilation: two names are
 * equal iff their pointers are equal (within one hp_program).
 */
#ifndef HP_AST_H
#define HP_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/domain.h"

struct hp_arena;

/* --- source ------------------------------------------------------------- */

/* A range of source text. line and col describe the first byte: both
 * 1-based, col counted in bytes from the start of the line (a tab is one).
 * off and len are byte offsets into hp_src.text. file indexes
 * hp_program.files. A span of len 0 points between two bytes (end of file). */
typedef struct {
	uint32_t file;
	uint32_t line;
	uint32_t col;
	uint32_t off;
	uint32_t len;
} hp_span;

/* A `#` comment, kept for the formatter. own_line: nothing but blanks
 * precede it on its line. off/len cover the text from '#' to the end of
 * the line, newline excluded. */
typedef struct {
	uint32_t off;
	uint32_t len;
	uint32_t line;
	bool own_line;
} hp_comment;

typedef struct hp_decl hp_decl;

/* One source file of the compilation. */
typedef struct hp_src {
	const char *path; /* as it is named in messages */
	const char *text; /* the whole file, with a NUL after it (it may hold NULs) */
	uint32_t len;     /* bytes of text */
	uint32_t *lines;  /* byte offset where each line starts */
	uint32_t nlines;
	hp_comment *comments; /* in order of offset */
	uint32_t ncomments;
	hp_decl *decls; /* this file's top-level declarations, in order */
	uint32_t ndecls;
	uint32_t index; /* its index in hp_program.files */
	int32_t parent; /* index of the file that included it, -1 at top */
} hp_src;

/* --- expressions --------------------------------------------------------- */

typedef enum {
	HP_EX_ERROR,  /* stands where a syntax error was recovered */
	HP_EX_BOOL,   /* true false */
	HP_EX_INT,    /* 123 0o755 0x1f */
	HP_EX_STR,    /* "text" (escapes processed) */
	HP_EX_SET,    /* { a, b } { "a" } {}: a list or a capability set */
	HP_EX_NAME,   /* an identifier (also caps.effective, no_new_privs, sudo) */
	HP_EX_CALL,   /* name(args): a probe or a builtin */
	HP_EX_FIELD,  /* base.field */
	HP_EX_UNARY,  /* not E, exists E */
	HP_EX_BINARY, /* a OP b */
	HP_EX_UID,    /* uid E: only as the argument of user(...), or a role's identity */
	HP_EX_CANARY, /* canary ROLE: the role-typed argument of signal/ptrace/proc_mem */
	HP_EX_PAREN,  /* ( E ): kept so that the formatter reproduces it */
} hp_expr_kind;

typedef enum {
	HP_OP_OR,
	HP_OP_AND,
	HP_OP_EQ,
	HP_OP_NE,
	HP_OP_LT,
	HP_OP_LE,
	HP_OP_GT,
	HP_OP_GE,
	HP_OP_IN,
	HP_OP_ADD,
	HP_OP_BAND,
	HP_OP_NOT,    /* unary */
	HP_OP_EXISTS, /* unary */
	HP_OP_COUNT
} hp_op;

/* Spelling of each operator, indexed by hp_op ("or", "==", "exists"...). */
extern const char *const hp_op_names[HP_OP_COUNT];

/* What an identifier resolved to (checked). */
typedef enum {
	HP_REF_NONE,
	HP_REF_PARAM,         /* u.name.param */
	HP_REF_LOOP,          /* u.name.loop: the for statement that binds it */
	HP_REF_PROBE,         /* u.name.index: a probe without argument (sudo, caps.ambient) */
	HP_REF_MODE,          /* u.name.index: an hp_mode constant (in `when`) */
	HP_REF_PROVIDER,      /* u.name.index: an hp_provider constant (in `when`) */
	HP_REF_CAP,           /* u.name.index: a capability number (libcap), in a caps set */
	HP_REF_TURN_MODE,     /* the word `mode` in a `when`: the turn's mode */
	HP_REF_TURN_PROVIDER, /* the word `provider` in a `when` */
} hp_ref_kind;

/* Builtins: pure functions, not probes (checked, HP_EX_CALL). */
typedef enum { HP_BUILTIN_NONE = -1, HP_BUILTIN_SPLIT = 0 } hp_builtin;

/* Record fields (checked, HP_EX_FIELD). */
typedef enum {
	HP_FIELD_NAME,    /* user, group: string */
	HP_FIELD_UID,     /* user: int */
	HP_FIELD_GID,     /* user, group: int */
	HP_FIELD_HOME,    /* user: string */
	HP_FIELD_SHELL,   /* user: string */
	HP_FIELD_GROUPS,  /* user: list of group names (primary group included) */
	HP_FIELD_MEMBERS, /* group: list of user names */
	HP_FIELD_COUNT
} hp_field;

extern const char *const hp_field_names[HP_FIELD_COUNT];

typedef struct hp_expr hp_expr;
typedef struct hp_stmt hp_stmt;

struct hp_expr {
	hp_expr_kind kind;
	hp_span span;  /* the whole expression's text */
	hp_expr *next; /* next item in a set literal or argument list */
	/* checked: the value type. A set literal gets HP_T_LIST or HP_T_CAPS
	 * (`{}` takes its type from the other operand). HP_T_NONE on error and
	 * for the `mode` / `provider` words and their constants in a `when`
	 * (those are folded into the rule's applies mask and never evaluated). */
	hp_type type;
	/* checked: 1 + the deepest operand's depth (a literal is 1). */
	uint32_t depth;
	union {
		bool b;    /* HP_EX_BOOL */
		int64_t i; /* HP_EX_INT */
		struct {   /* HP_EX_STR: no NUL inside */
			const char *s;
			uint32_t len;
		} str;
		struct { /* HP_EX_SET */
			hp_expr *items;
			uint32_t n;
			uint64_t caps; /* checked, caps sets: bit N = capability N */
		} set;
		struct { /* HP_EX_NAME */
			const char *name;
			hp_ref_kind ref; /* checked */
			int index;       /* checked: probe, mode, provider or cap number */
			hp_decl *param;  /* checked, HP_REF_PARAM */
			hp_stmt *loop;   /* checked, HP_REF_LOOP */
		} name;
		struct { /* HP_EX_CALL (members ordered so that no padding makes it,
			  * the union's largest, and so every node bigger) */
			const char *name;
			hp_expr *args;
			hp_span name_span;
			uint32_t nargs;
			int probe;          /* checked: hp_probe_id, or -1 for a builtin */
			hp_builtin builtin; /* checked */
		} call;
		struct { /* HP_EX_FIELD */
			hp_expr *base;
			const char *name;
			hp_span name_span;
			hp_field field; /* checked */
		} field;
		struct { /* HP_EX_UNARY, HP_EX_BINARY (b is NULL when unary) */
			hp_op op;
			hp_expr *a;
			hp_expr *b;
			/* checked, HP_OP_EXISTS: HP_PROBE_EXISTS when the operand is a
			 * path (string), -1 when it is a user/group record (true unless
			 * ABSENT). Other operators: -1. Code generation picks an
			 * operator's meaning from its operands' checked types: `or` on
			 * bools is Kleene, otherwise the ABSENT fallback; `<=` `>=` on
			 * lists and caps are subset/superset; `+` with an int converts
			 * it to decimal; `&` on lists and caps intersects. */
			int probe;
		} op;
		hp_expr *inner; /* HP_EX_UID (an int), HP_EX_PAREN */
		struct {        /* HP_EX_CANARY */
			const char *name;
			hp_role role; /* checked */
		} canary;
	} u;
};

/* --- statements ----------------------------------------------------------- */

typedef enum {
	HP_ST_REQUIRE, /* holds when expr is true */
	HP_ST_FORBID,  /* holds when expr is false */
	HP_ST_FOR,     /* for var in expr [max N] [allow|never empty] { body } */
} hp_stmt_kind;

/* What a loop over an empty list means. Unsaid, it is unknown (a loop over
 * nothing has checked nothing) and lint asks the author to say it. */
typedef enum {
	HP_EMPTY_UNSAID, /* no clause: unknown */
	HP_EMPTY_ALLOW,  /* `allow empty`: the loop holds */
	HP_EMPTY_NEVER, /* `never empty`: unknown, said on purpose */
} hp_loop_empty;

/* Iteration bound of a loop without `max`, and the largest `max` allowed. */
#define HP_LOOP_DEFAULT_MAX 256u
#define HP_LOOP_LIMIT 65536u

struct hp_stmt {
	hp_stmt_kind kind;
	hp_span span; /* from the keyword to the end of the statement */
	hp_stmt *next;
	hp_expr *expr; /* the assertion, or the loop's list */
	/* HP_ST_FOR only: */
	const char *var;
	hp_span var_span;
	hp_stmt *body;
	uint32_t nbody;
	uint32_t max; /* iteration bound: `max N`, else HP_LOOP_DEFAULT_MAX */
	bool max_given;
	hp_span max_span;
	hp_loop_empty empty;
	hp_span empty_span; /* the clause; empty (len 0) when unsaid */
	uint32_t loop_depth; /* checked: 0 for the outermost loop of a block */
	uint32_t slot;       /* checked: index of this loop among its rule's loops */
};

/* --- declarations --------------------------------------------------------- */

typedef enum {
	HP_D_POLICY,
	HP_D_INCLUDE,
	HP_D_PARAM,
	HP_D_ROLE,
	HP_D_RULE,
	HP_D_PROVIDER,
	HP_D_ERROR, /* a declaration lost to a syntax error */
} hp_decl_kind;

/* One `as ROLE { ... }` block of a rule. */
typedef struct hp_block {
	const char *role_name;
	hp_span role_span;
	hp_span span;
	hp_role role; /* checked */
	hp_stmt *body;
	uint32_t nbody;
	struct hp_block *next;
} hp_block;

/* Items of a role declaration, in source order. */
typedef enum {
	HP_RI_IDENTITY,  /* uid N, or user(NAME): expr is HP_EX_UID or a user call */
	HP_RI_KEEP_CAPS, /* keep caps { ... }: expr is the set */
	HP_RI_NO_CAPS,   /* no caps */
	HP_RI_NO_NEW_PRIVS,
} hp_role_item_kind;

typedef struct hp_role_item {
	hp_role_item_kind kind;
	hp_span span;
	hp_expr *expr;
	struct hp_role_item *next;
} hp_role_item;

/* Items of a provider block, in source order. */
typedef enum {
	HP_PI_DEFAULT, /* uid_split default auto|required|off */
	HP_PI_NEEDS,   /* split needs EXPR */
	HP_PI_NEVER,   /* never split when EXPR because "sentence" */
} hp_prov_item_kind;

typedef struct hp_prov_item {
	hp_prov_item_kind kind;
	hp_span span;
	const char *setting_name; /* HP_PI_DEFAULT */
	hp_span setting_span;
	hp_setting setting;  /* checked */
	hp_expr *expr;       /* HP_PI_NEEDS, HP_PI_NEVER */
	const char *because; /* HP_PI_NEVER */
	hp_span because_span;
	struct hp_prov_item *next;
} hp_prov_item;

struct hp_decl {
	hp_decl_kind kind;
	hp_span span;      /* the whole declaration */
	hp_span name_span; /* its name (policy, param, role, rule id, provider) */
	hp_decl *next;     /* next declaration of the same file */
	const char *name; /* policy name, param, role, rule id, provider; include path as written */
	union {
		struct { /* HP_D_POLICY */
			int64_t version;
			hp_span version_span;
		} policy;
		struct {              /* HP_D_INCLUDE */
			int32_t file; /* checked: index in hp_program.files, -1 if not read */
		} include;
		struct { /* HP_D_PARAM */
			hp_expr *expr;
			uint32_t index; /* checked: position in hp_program.params */
			bool used;      /* checked */
		} param;
		struct { /* HP_D_ROLE */
			hp_role_item *items;
			hp_role role;      /* checked */
			hp_expr *identity; /* checked: the HP_RI_IDENTITY item's expr */
			bool keep_caps;    /* checked: `keep caps` given */
			uint64_t caps;     /* checked: kept capabilities (bit N = cap N) */
			bool no_new_privs; /* checked */
		} role;
		struct { /* HP_D_RULE */
			const char *title;
			hp_span title_span;
			hp_expr *when; /* NULL: applies everywhere */
			hp_block *blocks;
			uint32_t nblocks;
			const char *remedy; /* NULL when none */
			hp_span remedy_span;
			/* checked: the folded `when` (domain.h's hp_applies
			 * layout); HP_APPLIES_ALL without `when`. */
			hp_applies applies;
			uint32_t roles;  /* checked: bit per hp_role used by a block */
			uint32_t nloops; /* checked: loops in the rule (slots) */
			uint32_t index;  /* checked: position in hp_program.rules */
		} rule;
		struct { /* HP_D_PROVIDER */
			hp_prov_item *items;
			hp_provider provider; /* checked */
			hp_setting setting;   /* checked: the default (auto when none given) */
		} provider;
	} u;
	/* A syntax error inside it was recovered from: parts may be missing,
	 * so checks that need the whole (a rule's assertions) stay quiet. */
	bool broken;
};

/* --- the whole compilation ------------------------------------------------ */

typedef struct hp_program {
	struct hp_arena *arena;
	hp_src **files; /* files[0] is the top-level file; then in order read */
	uint32_t nfiles;
	/* checked views, in evaluation order: the include-expanded order of
	 * declarations (an included file's declarations stand where its
	 * include is; a file included twice counts once, at its first include). */
	const char *name; /* the top-level policy's name and version */
	int64_t version;
	hp_decl **params;
	uint32_t nparams;
	hp_decl *roles[HP_ROLE_COUNT]; /* NULL when not declared */
	hp_decl **rules;
	uint32_t nrules;
	hp_decl *providers[HP_PROVIDER_COUNT]; /* NULL when not declared */
	bool ok;                               /* checked: no error was reported */
} hp_program;

/* The params e reads (checked: names resolved), each once, in the order
 * they first appear; at most cap are stored, the count stored returned. */
size_t hp_expr_params(const hp_expr *e, const hp_decl **out, size_t cap);

#endif
