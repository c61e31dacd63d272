/* sudoers_tree.h: the parsed sudoers policy, shared by the parser
 * (sudoers_parse.c), the loader (sudoers.c) and the evaluator
 * (sudoers_eval.c). Only what the grant question needs is kept: user,
 * host and command lists with their negations, each command's NOPASSWD
 * state, aliases of all four kinds, and the Defaults that matter
 * (!authenticate, group_plugin). Strings live in an arena owned by the tree. */
#ifndef HP_SUDOERS_TREE_H
#define HP_SUDOERS_TREE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/idxtab.h"
#include "etc/sudoers/sudoers.h"

typedef enum {
	SM_ALL,   /* ALL */
	SM_WORD,  /* a name, #uid, %group, %#gid, %:group, +netgroup, host, address */
	SM_ALIAS, /* an alias name (of the list's kind) */
	SM_CMND,  /* a command, directory, regex, sudoedit or list */
} sd_mkind;

typedef struct {
	uint8_t kind; /* sd_mkind */
	bool neg;
	const char *text;
} sd_member;

typedef struct {
	sd_member *v;
	uint32_t n;
} sd_list;

typedef struct {
	sd_member cmnd;
	bool nopasswd; /* NOPASSWD in force for this command */
} sd_cmndspec;

typedef struct {
	sd_list hosts;
	sd_cmndspec *specs;
	uint32_t nspecs;
} sd_priv;

typedef struct {
	const char *file;
	unsigned line;
	const char *text; /* the rule's first line, for evidence */
	sd_list users;
	sd_priv *privs;
	uint32_t nprivs;
} sd_userspec;

typedef enum { SA_USER, SA_RUNAS, SA_HOST, SA_CMND, SA_NKINDS } sd_akind;

typedef struct {
	const char *name;
	const char *file;
	unsigned line;
	sd_list members;
} sd_alias;

/* A Defaults line that can turn authentication off. */
typedef struct {
	char type; /* 0, ':' user, '@' host, '>' runas, '!' command */
	sd_list binding;
	const char *file;
	unsigned line;
} sd_noauth;

typedef struct sd_chunk sd_chunk;

struct hp_sudoers {
	sd_chunk *arena;
	sd_userspec *us;
	size_t nus, cus;
	sd_alias *al[SA_NKINDS];
	size_t nal[SA_NKINDS], cal[SA_NKINDS];
	hp_idxtab alidx[SA_NKINDS]; /* built once loading is done */
	sd_noauth *noauth;
	size_t nnoauth, cnoauth;
	bool group_plugin; /* some Defaults sets group_plugin */
	char *problems[HP_SUDOERS_MAX_PROBLEMS];
	size_t nproblems;
	size_t nfiles, nbytes;
	char *missing_main; /* the first main sudoers file that did not exist */
	size_t nmain;       /* main sudoers files read */
};

void *sd_alloc(hp_sudoers *s, size_t n);
void sd_arena_free(hp_sudoers *s);
const char *sd_strdup(hp_sudoers *s, const char *str, size_t n);

/* Record a problem; its text should start with "file:line:col: ". */
void sd_problem(hp_sudoers *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The loader's side of an include directive, called by the parser. */
typedef struct sd_loader sd_loader;
void sd_include(hp_sudoers *s, sd_loader *ld, const char *path, bool dir, int depth,
                const char *from, unsigned line, unsigned col);

/* Parse one file's text into the tree; depth is its include depth. */
void sd_parse(hp_sudoers *s, sd_loader *ld, const char *file, const char *buf, size_t len,
              int depth);

/* Index the aliases once every file is read (duplicates are problems). */
void sd_index_aliases(hp_sudoers *s);
const sd_alias *sd_find_alias(const hp_sudoers *s, sd_akind k, const char *name);

#endif
