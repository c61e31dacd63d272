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
	HP_SUDOERS_SM_ALL,   /* ALL */
	HP_SUDOERS_SM_WORD,  /* a name, #uid, %group, %#gid, %:group, +netgroup, host, address */
	HP_SUDOERS_SM_ALIAS, /* an alias name (of the list's kind) */
	HP_SUDOERS_SM_CMND,  /* a command, directory, regex, sudoedit or list */
} hp_sudoers_mkind;

typedef struct {
	uint8_t kind; /* hp_sudoers_mkind */
	bool neg;
	const char *text;
} hp_sudoers_member;

typedef struct {
	hp_sudoers_member *v;
	uint32_t n;
} hp_sudoers_list;

typedef struct {
	hp_sudoers_member cmnd;
	bool nopasswd; /* NOPASSWD in force for this command */
} hp_sudoers_cmndspec;

typedef struct {
	hp_sudoers_list hosts;
	hp_sudoers_cmndspec *specs;
	uint32_t nspecs;
} hp_sudoers_priv;

typedef struct {
	const char *file;
	unsigned line;
	const char *text; /* the rule's first line, for evidence */
	hp_sudoers_list users;
	hp_sudoers_priv *privs;
	uint32_t nprivs;
} hp_sudoers_userspec;

typedef enum { SA_USER, SA_RUNAS, SA_HOST, SA_CMND, SA_NKINDS } hp_sudoers_akind;

typedef struct {
	const char *name;
	const char *file;
	unsigned line;
	hp_sudoers_list members;
} hp_sudoers_alias;

/* A Defaults line that can turn authentication off. */
typedef struct {
	char type; /* 0, ':' user, '@' host, '>' runas, '!' command */
	hp_sudoers_list binding;
	const char *file;
	unsigned line;
} hp_sudoers_noauth;

typedef struct hp_sudoers_chunk hp_sudoers_chunk;

struct hp_sudoers {
	hp_sudoers_chunk *arena;
	hp_sudoers_userspec *us;
	size_t nus, cus;
	hp_sudoers_alias *al[SA_NKINDS];
	size_t nal[SA_NKINDS], cal[SA_NKINDS];
	hp_idxtab alidx[SA_NKINDS]; /* built once loading is done */
	hp_sudoers_noauth *noauth;
	size_t nnoauth, cnoauth;
	bool group_plugin; /* some Defaults sets group_plugin */
	char *problems[HP_SUDOERS_MAX_PROBLEMS];
	size_t nproblems;
	size_t nfiles, nbytes;
	char *missing_main; /* the first main sudoers file that did not exist */
	size_t nmain;       /* main sudoers files read */
};

void *hp_sudoers_alloc(hp_sudoers *s, size_t n);
void hp_sudoers_arena_free(hp_sudoers *s);
const char *hp_sudoers_strdup(hp_sudoers *s, const char *str, size_t n);

/* Record a problem; its text should start with "file:line:col: ". */
void hp_sudoers_add_problem(hp_sudoers *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The loader's side of an include directive, called by the parser. */
typedef struct hp_sudoers_loader hp_sudoers_loader;
void hp_sudoers_include(hp_sudoers *s, hp_sudoers_loader *ld, const char *path, bool dir, int depth,
                const char *from, unsigned line, unsigned col);

/* Parse one file's text into the tree; depth is its include depth. */
void hp_sudoers_parse(hp_sudoers *s, hp_sudoers_loader *ld, const char *file, const char *buf, size_t len,
              int depth);

/* Index the aliases once every file is read (duplicates are problems). */
void hp_sudoers_index_aliases(hp_sudoers *s);
const hp_sudoers_alias *hp_sudoers_find_alias(const hp_sudoers *s, hp_sudoers_akind k, const char *name);

#endif
