/* parser.y: the policy language's grammar (bison, pure, with locations).
 * Actions only build the tree (compiler/build.c); names, types and scopes
 * are the checker's. Errors recover at the declaration and the statement,
 * so one run reports every independent mistake. */
%require "3.6"
%define api.pure full
%define api.prefix {hp_yy}
%define api.token.prefix {TK_}
%define api.location.type {hp_span}
%define parse.error custom
%locations
%expect 0
%param {hp_parse *ps}

%code requires {
#include "parse.h"
}

%code provides {
int hp_yyparse(hp_parse *ps);
}

%code {
#include <string.h>

#include "lib/xalloc.h"

#define YYLLOC_DEFAULT(cur, rhs, n)                                        \
	do {                                                               \
		if (n) {                                                   \
			(cur) = YYRHSLOC(rhs, 1);                          \
			(cur).len = YYRHSLOC(rhs, n).off + YYRHSLOC(rhs, n).len - (cur).off; \
		} else {                                                   \
			(cur) = YYRHSLOC(rhs, 0);                          \
			(cur).off += (cur).len;                            \
			(cur).col += (cur).len;                            \
			(cur).len = 0;                                     \
		}                                                          \
	} while (0)

/* The parser's stack grows to this many entries; beyond it the parse stops
 * with a message instead of growing without bound. */
#define YYMAXDEPTH 20000
#define YYINITDEPTH 256

static void hp_yyerror(hp_span *loc, hp_parse *ps, const char *msg);
#define LIST_ADD(l, x, type) hp_list_add((l), (x), offsetof(type, next))
}

%union {
	int64_t ival;
	hp_strval str;
	const char *name;
	hp_expr *expr;
	hp_stmt *stmt;
	hp_decl *decl;
	hp_rule_part *part;
	hp_role_item *ritem;
	hp_prov_item *pitem;
	hp_list list;
}

%token <name> NAME "name"
%token <ival> INT "integer"
%token <str> STRING "string"
%token POLICY "policy" VERSION "version" INCLUDE "include" PARAM "param" ROLE "role"
%token RULE "rule" AS "as" WHEN "when" REMEDY "remedy" REQUIRE "require" FORBID "forbid"
%token FOR "for" IN "in" MAX "max" PROVIDER "provider" UID_SPLIT "uid_split"
%token DEFAULT "default" SPLIT "split" NEEDS "needs" NEVER "never" BECAUSE "because"
%token AND "and" OR "or" NOT "not" TRUE "true" FALSE "false" KEEP "keep" CAPS "caps"
%token NO "no" UID "uid" CANARY "canary" EXISTS "exists" NO_NEW_PRIVS "no_new_privs"
%token ALLOW "allow" EMPTY "empty"
%token EQ "==" NE "!=" LE "<=" GE ">=" LT "<" GT ">" ASSIGN "=" PLUS "+" AMP "&"
%token DOT "." COMMA "," LPAREN "(" RPAREN ")" LBRACE "{" RBRACE "}"

%left OR
%left AND
%precedence NOT
%nonassoc EQ NE LT LE GT GE IN ASSIGN
%left PLUS
%left AMP

%type <expr> expr postfix primary set when_opt
%type <list> args args_opt items stmts rule_items role_items prov_items
%type <stmt> stmt
%type <part> rule_item
%type <ritem> role_item
%type <pitem> prov_item
%type <name> word
%type <decl> decl
%type <ival> errors_so_far empty_opt

%%

file:
	%empty
	| file decl		{ if ($2) hp_add_decl(ps, $2); }
	| file error
	;

decl:
	POLICY STRING VERSION INT {
		$$ = hp_mk_decl(ps, HP_D_POLICY, $2.s, @2, @$);
		$$->u.policy.version = $4;
		$$->u.policy.version_span = @4;
	}
	| INCLUDE STRING {
		$$ = hp_mk_decl(ps, HP_D_INCLUDE, $2.s, @2, @$);
		$$->u.include.file = -1;
	}
	| PARAM NAME ASSIGN expr {
		$$ = hp_mk_decl(ps, HP_D_PARAM, $2, @2, @$);
		$$->u.param.expr = $4;
	}
	| ROLE NAME ASSIGN role_items {
		$$ = hp_mk_decl(ps, HP_D_ROLE, $2, @2, @$);
		$$->u.role.items = $4.head;
	}
	| RULE errors_so_far NAME STRING when_opt LBRACE rule_items RBRACE {
		$$ = hp_mk_decl(ps, HP_D_RULE, $3, @3, @$);
		$$->u.rule.title = $4.s;
		$$->u.rule.title_span = @4;
		$$->u.rule.when = $5;
		hp_mk_rule_body(ps, $$, $7);
		$$->broken = ps->nerrors != (uint32_t)$2;
	}
	| PROVIDER NAME LBRACE prov_items RBRACE {
		$$ = hp_mk_decl(ps, HP_D_PROVIDER, $2, @2, @$);
		$$->u.provider.items = $4.head;
	}
	;

/* The errors reported before a declaration's body, to tell whether one
 * fell inside it. */
errors_so_far:
	%empty			{ $$ = ps->nerrors; }
	;

when_opt:
	%empty			{ $$ = NULL; }
	| WHEN expr		{ $$ = $2; }
	;

role_items:
	role_item		{ $$ = hp_list_one($1); }
	| role_items COMMA role_item { $$ = LIST_ADD($1, $3, hp_role_item); }
	;

role_item:
	UID postfix {
		$$ = hp_mk_role_item(ps, HP_RI_IDENTITY, hp_mk_wrap(ps, HP_EX_UID, $2, @$), @$);
	}
	| NAME LPAREN args_opt RPAREN {
		$$ = hp_mk_role_item(ps, HP_RI_IDENTITY, hp_mk_call(ps, $1, @1, $3, @$), @$);
	}
	| KEEP CAPS set		{ $$ = hp_mk_role_item(ps, HP_RI_KEEP_CAPS, $3, @$); }
	| NO CAPS		{ $$ = hp_mk_role_item(ps, HP_RI_NO_CAPS, NULL, @$); }
	| NO_NEW_PRIVS		{ $$ = hp_mk_role_item(ps, HP_RI_NO_NEW_PRIVS, NULL, @$); }
	;

rule_items:
	%empty			{ $$ = (hp_list){NULL, NULL, 0}; }
	| rule_items rule_item	{ $$ = LIST_ADD($1, $2, hp_rule_part); }
	| rule_items error	{ $$ = $1; }
	;

rule_item:
	AS NAME LBRACE stmts RBRACE {
		$$ = hp_mk_part(ps, hp_mk_block(ps, $2, @2, $4, @$), NULL, @$);
	}
	| REMEDY STRING		{ $$ = hp_mk_part(ps, NULL, &$2, @$); }
	;

stmts:
	%empty			{ $$ = (hp_list){NULL, NULL, 0}; }
	| stmts stmt		{ $$ = LIST_ADD($1, $2, hp_stmt); }
	| stmts error		{ $$ = $1; }
	;

stmt:
	REQUIRE expr		{ $$ = hp_mk_stmt(ps, HP_ST_REQUIRE, $2, @$); }
	| FORBID expr		{ $$ = hp_mk_stmt(ps, HP_ST_FORBID, $2, @$); }
	| FOR NAME IN expr empty_opt LBRACE stmts RBRACE {
		$$ = hp_mk_for(ps, $2, @2, $4, 0, false, @6, (hp_loop_empty)$5, @5, $7, @$);
	}
	| FOR NAME IN expr MAX INT empty_opt LBRACE stmts RBRACE {
		$$ = hp_mk_for(ps, $2, @2, $4, $6, true, @6, (hp_loop_empty)$7, @7, $9, @$);
	}
	;

/* What a loop over an empty list means: unsaid (unknown, and lint asks),
 * `allow empty` (it holds) or `never empty` (unknown, said on purpose). */
empty_opt:
	%empty			{ $$ = HP_EMPTY_UNSAID; }
	| ALLOW EMPTY		{ $$ = HP_EMPTY_ALLOW; }
	| NEVER EMPTY		{ $$ = HP_EMPTY_NEVER; }
	;

prov_items:
	%empty			{ $$ = (hp_list){NULL, NULL, 0}; }
	| prov_items prov_item	{ $$ = LIST_ADD($1, $2, hp_prov_item); }
	| prov_items error	{ $$ = $1; }
	;

prov_item:
	UID_SPLIT DEFAULT NAME {
		$$ = hp_mk_prov_item(ps, HP_PI_DEFAULT, @$);
		$$->setting_name = $3;
		$$->setting_span = @3;
	}
	| SPLIT NEEDS expr {
		$$ = hp_mk_prov_item(ps, HP_PI_NEEDS, @$);
		$$->expr = $3;
	}
	| NEVER SPLIT WHEN expr BECAUSE STRING {
		$$ = hp_mk_prov_item(ps, HP_PI_NEVER, @$);
		$$->expr = $4;
		$$->because = $6.s;
		$$->because_span = @6;
	}
	;

expr:
	expr OR expr		{ $$ = hp_mk_binary(ps, HP_OP_OR, $1, $3, @$); }
	| expr AND expr		{ $$ = hp_mk_binary(ps, HP_OP_AND, $1, $3, @$); }
	| NOT expr		{ $$ = hp_mk_unary(ps, HP_OP_NOT, $2, @$); }
	| expr EQ expr		{ $$ = hp_mk_binary(ps, HP_OP_EQ, $1, $3, @$); }
	| expr NE expr		{ $$ = hp_mk_binary(ps, HP_OP_NE, $1, $3, @$); }
	| expr LT expr		{ $$ = hp_mk_binary(ps, HP_OP_LT, $1, $3, @$); }
	| expr LE expr		{ $$ = hp_mk_binary(ps, HP_OP_LE, $1, $3, @$); }
	| expr GT expr		{ $$ = hp_mk_binary(ps, HP_OP_GT, $1, $3, @$); }
	| expr GE expr		{ $$ = hp_mk_binary(ps, HP_OP_GE, $1, $3, @$); }
	| expr IN expr		{ $$ = hp_mk_binary(ps, HP_OP_IN, $1, $3, @$); }
	| expr ASSIGN expr	{ $$ = hp_mk_assign_as_eq(ps, $1, $3, @2, @$); }
	| expr PLUS expr	{ $$ = hp_mk_binary(ps, HP_OP_ADD, $1, $3, @$); }
	| expr AMP expr		{ $$ = hp_mk_binary(ps, HP_OP_BAND, $1, $3, @$); }
	| EXISTS postfix	{ $$ = hp_mk_unary(ps, HP_OP_EXISTS, $2, @$); }
	| UID postfix		{ $$ = hp_mk_wrap(ps, HP_EX_UID, $2, @$); }
	| postfix
	;

postfix:
	primary
	| postfix DOT word	{ $$ = hp_mk_field(ps, $1, $3, @3, @$); }
	;

primary:
	INT			{ $$ = hp_mk_int(ps, $1, @$); }
	| STRING		{ $$ = hp_mk_str(ps, $1, @$); }
	| TRUE			{ $$ = hp_mk_bool(ps, true, @$); }
	| FALSE			{ $$ = hp_mk_bool(ps, false, @$); }
	| NAME			{ $$ = hp_mk_name(ps, $1, @$); }
	| NO_NEW_PRIVS {
		$$ = hp_mk_name(ps, hp_intern_name(ps->names, "no_new_privs", 12), @$);
	}
	| PROVIDER {
		$$ = hp_mk_name(ps, hp_intern_name(ps->names, "provider", 8), @$);
	}
	| NAME LPAREN args_opt RPAREN { $$ = hp_mk_call(ps, $1, @1, $3, @$); }
	| SPLIT LPAREN args_opt RPAREN {
		$$ = hp_mk_call(ps, hp_intern_name(ps->names, "split", 5), @1, $3, @$);
	}
	| LPAREN expr RPAREN	{ $$ = hp_mk_wrap(ps, HP_EX_PAREN, $2, @$); }
	| CANARY NAME		{ $$ = hp_mk_canary(ps, $2, @$); }
	| set
	;

set:
	LBRACE RBRACE		{ $$ = hp_mk_set(ps, (hp_list){NULL, NULL, 0}, @$); }
	| LBRACE items RBRACE	{ $$ = hp_mk_set(ps, $2, @$); }
	| LBRACE items COMMA RBRACE { $$ = hp_mk_set(ps, $2, @$); }
	;

items:
	expr			{ $$ = hp_list_one($1); }
	| items COMMA expr	{ $$ = LIST_ADD($1, $3, hp_expr); }
	;

args_opt:
	%empty			{ $$ = (hp_list){NULL, NULL, 0}; }
	| args
	;

args:
	expr			{ $$ = hp_list_one($1); }
	| args COMMA expr	{ $$ = LIST_ADD($1, $3, hp_expr); }
	;

/* Field names may be words the language reserves elsewhere (.uid). */
word:
	NAME
	| UID			{ $$ = hp_intern_name(ps->names, "uid", 3); }
	| CAPS			{ $$ = hp_intern_name(ps->names, "caps", 4); }
	| DEFAULT		{ $$ = hp_intern_name(ps->names, "default", 7); }
	| VERSION		{ $$ = hp_intern_name(ps->names, "version", 7); }
	| MAX			{ $$ = hp_intern_name(ps->names, "max", 3); }
	;

%%

/* How a token is named in a message; `article` for "expected a name". */
static const char *token_desc(yysymbol_kind_t k, bool article, char *buf, size_t n)
{
	/* four symbols have words of their own; every other one (bison's
	 * symbol kinds cover each token and rule) is named by its spelling */
	if (k == YYSYMBOL_YYEOF)
		return "end of file";
	if (k == YYSYMBOL_NAME)
		return article ? "a name" : "name";
	if (k == YYSYMBOL_INT)
		return article ? "an integer" : "integer";
	if (k == YYSYMBOL_STRING)
		return article ? "a string" : "string";
	const char *s = yysymbol_name(k);
	size_t l = strlen(s);
	if (l >= 2 && s[0] == '"')
		snprintf(buf, n, "'%.*s'", (int)(l - 2), s + 1);
	else
		snprintf(buf, n, "'%s'", s);
	return buf;
}

static bool is_comparison(yysymbol_kind_t k)
{
	return k == YYSYMBOL_EQ || k == YYSYMBOL_NE || k == YYSYMBOL_LT || k == YYSYMBOL_LE ||
	       k == YYSYMBOL_GT || k == YYSYMBOL_GE || k == YYSYMBOL_IN;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, hp_parse *ps)
{
	yysymbol_kind_t found = yypcontext_token(ctx);
	if (ps->last_was_error || ps->stop)
		return 0; /* the lexer already said what is wrong here */
	enum { MAXEXP = 6 };
	yysymbol_kind_t exp[YYNTOKENS];
	int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
	bool decl = false, operand = false;
	int structural = 0;
	yysymbol_kind_t st[4];
	for (int i = 0; i < n; i++) {
		decl |= exp[i] == YYSYMBOL_RULE;
		operand |= exp[i] == YYSYMBOL_INT; /* where an expression may start */
		if (exp[i] == YYSYMBOL_LBRACE || exp[i] == YYSYMBOL_RBRACE ||
		    exp[i] == YYSYMBOL_RPAREN || exp[i] == YYSYMBOL_COMMA)
			st[structural++] = exp[i];
	}
	char fb[64], msg[512];
	const char *fd = token_desc(found, true, fb, sizeof fb);
	size_t m = 0;
	if (decl) {
		snprintf(msg, sizeof msg,
			 "expected a declaration (policy, include, param, role, rule or provider), "
			 "found %s",
			 fd);
	} else if (operand && n >= MAXEXP) {
		snprintf(msg, sizeof msg, "expected an expression, found %s", fd);
	} else if (n >= MAXEXP && structural) {
		/* after a complete expression: name the bracket that may follow */
		m += (size_t)snprintf(msg + m, sizeof msg - m, "expected ");
		for (int i = 0; i < structural && m < sizeof msg; i++) {
			char eb[64];
			m += (size_t)snprintf(msg + m, sizeof msg - m, "%s%s",
					      i == 0 ? "" : i == structural - 1 ? " or " : ", ",
					      token_desc(st[i], true, eb, sizeof eb));
		}
		if (m < sizeof msg)
			snprintf(msg + m, sizeof msg - m, " or an operator, found %s", fd);
	} else if (n > 0 && n < MAXEXP) {
		m += (size_t)snprintf(msg + m, sizeof msg - m, "expected ");
		for (int i = 0; i < n && m < sizeof msg; i++) {
			char eb[64];
			m += (size_t)snprintf(msg + m, sizeof msg - m, "%s%s",
					      i == 0 ? "" : i == n - 1 ? " or " : ", ",
					      token_desc(exp[i], true, eb, sizeof eb));
		}
		if (m < sizeof msg)
			snprintf(msg + m, sizeof msg - m, ", found %s", fd);
	} else {
		snprintf(msg, sizeof msg, "unexpected %s", token_desc(found, false, fb, sizeof fb));
	}
	hp_span at = *yypcontext_location(ctx);
	hp_diag *g = hp_parse_error(ps, HP_DG_SYNTAX, at, "%s", msg);
	if (found == YYSYMBOL_YYEOF && ps->nbrackets) {
		hp_bracket *b = &ps->brackets[ps->nbrackets - 1];
		hp_diag_note(g, ps->src, b->at, "to close this '%c'", b->ch);
		hp_diag_help(g, "add the missing '%c'", b->ch == '(' ? ')' : '}');
	} else if (is_comparison(found)) {
		hp_diag_help(g,
			     "comparisons do not chain: join them with 'and', or add parentheses");
	}
	return 0;
}

static void hp_yyerror(hp_span *loc, hp_parse *ps, const char *msg)
{
	if (strcmp(msg, "memory exhausted") == 0) {
		hp_diag *g = hp_parse_error(
			ps, HP_DG_LIMIT, *loc,
			"the text nests too deeply to parse (the limit is %d levels)", YYMAXDEPTH);
		hp_diag_help(g, "split the expression with params");
		return;
	}
	hp_parse_error(ps, HP_DG_SYNTAX, *loc, "%s", msg);
}
