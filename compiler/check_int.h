/* check_int.h: what the checker's files (check.c, check_expr.c,
 * check_when.c, check_util.c) share: the checker's state, scopes, and its
 * reporting and suggestion helpers. Not used outside the checker. */
#ifndef HP_CHECK_INT_H
#define HP_CHECK_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "check.h"
#include "parse.h"

/* Where an expression is checked: which probes it may ask. */
typedef enum {
	HP_CK_PARAM,
	HP_CK_PROVIDER,
	HP_CK_IDENTITY,
	HP_CK_ROLE,
	HP_CK_WHEN
} hp_ck_scope_kind;

typedef struct {
	hp_ck_scope_kind kind;
	hp_role role;     /* HP_CK_ROLE */
	uint32_t nparams; /* HP_CK_PARAM: params declared before this one */
} hp_ck_scope;

/* One compilation's checker. */
typedef struct {
	hp_program *p;
	hp_diags *d;
	hp_intern *names;
	hp_namemap params, rules;
	hp_decl *role_decl[HP_ROLE_COUNT];
	hp_decl *prov_decl[HP_PROVIDER_COUNT];
	hp_decl *policy;
	hp_stmt *loops[HP_MAX_EXPR_DEPTH]; /* loop variables in hp_ck_scope, innermost last */
	uint32_t nloops;
	uint32_t rule_loops;
	uint32_t nsuggest; /* "did you mean" searches made (HP_CK_MAX_SUGGEST) */
	bool rule_asserts;
	bool rule_broken; /* the rule being checked lost parts to a syntax error */
	const char *w_mode, *w_provider, *w_split; /* interned "mode", "provider", "split" */
	hp_namemap probes;                         /* interned probe name -> index + 1 */
} hp_checker;

/* "did you mean" over candidates: the closest within a distance that
 * depends on the name's length. */
typedef struct {
	const char *best;
	unsigned dist;
	const char *name;
} hp_ck_suggest;

/* The pseudo-type of `{}` before its context decides list or caps. */
#define HP_CK_T_EMPTY HP_T_COUNT
/* An expression already reported: no further message about it. */
#define HP_CK_T_ERR HP_T_NONE

/* check_doc.c: a doc_* probe's argument, checked against the Pod's fields
 * when its text is known at compile time */
void hp_ck_doc_path(hp_checker *c, const hp_expr *arg);

/* check_util.c */
int hp_ck_probe_of(const hp_checker *c, const char *name);
const hp_src *hp_ck_src_of(hp_checker *c, hp_span s);
hp_diag *hp_ck_err(hp_checker *c, hp_diag_code code, hp_span at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
hp_diag *hp_ck_warn(hp_checker *c, hp_diag_code code, hp_span at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void hp_ck_note(hp_checker *c, hp_diag *g, hp_span at, const char *msg);
/* Whether one more "did you mean" search may be made: each looks at every
 * candidate, so a file of a million misspellings gets only the first few. */
#define HP_CK_MAX_SUGGEST 100u
bool hp_ck_may_suggest(hp_checker *c);
void hp_ck_suggest_init(hp_ck_suggest *s, const char *name);
void hp_ck_suggest_try(hp_ck_suggest *s, const char *cand);
void hp_ck_suggest_table(hp_ck_suggest *s, const char *const *t, size_t n);
void hp_ck_suggest_help(hp_diag *g, const hp_ck_suggest *s);
void hp_ck_list_help(hp_diag *g, const char *what, const char *const *t, size_t n);
const char *hp_ck_type_desc(hp_type t);
/* t, or for `{}` (HP_CK_T_EMPTY) the list or caps type other calls for,
 * recorded on e. */
hp_type hp_ck_settled(hp_expr *e, hp_type t, hp_type other);

/* check_expr.c */
hp_stmt *hp_ck_find_loop(hp_checker *c, const char *name);
bool hp_ck_is_variable(hp_checker *c, const char *name);
/* The checked type of e (HP_CK_T_ERR once reported, HP_CK_T_EMPTY for `{}`). */
hp_type hp_ck_expr(hp_checker *c, hp_expr *e, const hp_ck_scope *sc);
/* `uid N` where it belongs (user(uid N), a role's identity): an int. */
hp_type hp_ck_uid(hp_checker *c, hp_expr *e, const hp_ck_scope *sc);
/* Check e where a value of type want is needed; reports otherwise. */
hp_type hp_ck_expect(hp_checker *c, hp_expr *e, const hp_ck_scope *sc, hp_type want,
                     const char *what);

/* check_when.c */
/* Fold a rule's when into the (mode, provider) pairs it holds for. */
bool hp_ck_fold_when(hp_checker *c, hp_expr *e, hp_applies *out);

#endif
