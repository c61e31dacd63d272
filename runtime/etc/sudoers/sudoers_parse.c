/* sudoers_parse.c: sudoers entries (sudo's gram.y) into the tree: include
 * directives, Defaults, the four alias kinds and user specifications. A
 * syntax error is a problem naming file:line:col; the parser then skips to
 * the end of the line and goes on, as sudo's error recovery does, so that a
 * later rule that grants is still seen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "etc/sudoers/sudoers_lex.h"
#include "etc/sudoers/sudoers_tree.h"
#include "lib/textesc.h"
#include "lib/xalloc.h"

typedef enum { MODE_NORMAL, MODE_BINDING } lex_mode;

typedef struct {
	hp_sudoers *s;
	hp_sudoers_loader *ld;
	const char *file;
	int depth;
	hp_sudoers_lex L;
	hp_sudoers_tok t;
	lex_mode mode;
	bool bad; /* this entry had an error (already reported) */
	hp_sudoers_member *tmp;
	size_t ntmp, ctmp;
	hp_sudoers_cmndspec *specs;
	size_t nspecs, cspecs;
	hp_sudoers_priv *privs;
	size_t nprivs, cprivs;
} parser;

/* Words sudo's lexer returns as their own tokens, never as alias names. */
static const char *const options[] = {"TIMEOUT", "NOTBEFORE", "NOTAFTER", "CWD",
                                      "CHROOT",  "ROLE",      "TYPE",     "APPARMOR_PROFILE",
                                      "PRIVS",   "LIMITPRIVS"};

static bool is_option(const char *w)
{
	for (size_t i = 0; i < sizeof options / sizeof *options; i++)
		if (strcmp(w, options[i]) == 0)
			return true;
	return false;
}

static void next(parser *P)
{
	if (P->mode == MODE_BINDING)
		hp_sudoers_lex_binding(&P->L, &P->t);
	else
		hp_sudoers_lex_next(&P->L, &P->t);
}

/* What a token is, for messages. */
static const char *describe(const hp_sudoers_tok *t, char *buf, size_t n)
{
	hp_esc_buf e;
	switch (t->kind) {
	case HP_SUDOERS_TK_WORD:
		snprintf(buf, n, "\"%s\"", hp_esc(&e, t->text, t->len));
		return buf;
	case HP_SUDOERS_TK_ALIAS:
	case HP_SUDOERS_TK_ALL:
		snprintf(buf, n, "%s", hp_esc(&e, t->text, t->len));
		return buf;
	case HP_SUDOERS_TK_TAG:
		snprintf(buf, n, "%s:", hp_esc(&e, t->text, t->len));
		return buf;
	case HP_SUDOERS_TK_PATH:
		snprintf(buf, n, "path %s", hp_esc(&e, t->text, t->len));
		return buf;
	case HP_SUDOERS_TK_EOL:
	case HP_SUDOERS_TK_ERROR:
	case HP_SUDOERS_TK_BANG:
	case HP_SUDOERS_TK_COMMA:
	case HP_SUDOERS_TK_COLON:
	case HP_SUDOERS_TK_EQ:
	case HP_SUDOERS_TK_PLUSEQ:
	case HP_SUDOERS_TK_MINUSEQ:
	case HP_SUDOERS_TK_LPAREN:
	case HP_SUDOERS_TK_RPAREN:
	case HP_SUDOERS_TK_REGEX:
	case HP_SUDOERS_TK_DIGEST:
	case HP_SUDOERS_TK_SUDOEDIT:
	case HP_SUDOERS_TK_INCLUDE:
	case HP_SUDOERS_TK_INCLUDEDIR:
	case HP_SUDOERS_TK_DEFVAR:
	case HP_SUDOERS_TK_BLANK:
	default:
		return hp_sudoers_tok_name(t->kind);
	}
}

/* Report the first error of an entry. */
static void fail(parser *P, const char *what)
{
	if (P->bad)
		return;
	P->bad = true;
	if (P->t.kind == HP_SUDOERS_TK_ERROR)
		hp_sudoers_add_problem(P->s, "%s:%u:%u: %s", P->file, P->t.line, P->t.col, P->t.text);
	else
		hp_sudoers_add_problem(P->s, "%s:%u:%u: %s", P->file, P->t.line, P->t.col, what);
}

static void expected(parser *P, const char *what)
{
	char buf[160], msg[256];
	snprintf(msg, sizeof msg, "expected %s, found %s", what, describe(&P->t, buf, sizeof buf));
	fail(P, msg);
}

static void push(parser *P, hp_sudoers_member m)
{
	P->tmp = hp_xgrow(P->tmp, &P->ctmp, P->ntmp + 1, sizeof *P->tmp);
	P->tmp[P->ntmp++] = m;
}

static hp_sudoers_list finish(parser *P, size_t mark)
{
	hp_sudoers_list l = {NULL, (uint32_t)(P->ntmp - mark)};
	if (l.n) {
		l.v = hp_sudoers_alloc(P->s, l.n * sizeof *l.v);
		memcpy(l.v, P->tmp + mark, l.n * sizeof *l.v);
	}
	P->ntmp = mark;
	return l;
}

static const char *keep(parser *P)
{
	return hp_sudoers_strdup(P->s, P->t.text, P->t.len);
}

/* A command after its digests and '!': ALL, an alias, a path, a regex,
 * sudoedit or list; arguments are read past. */
static bool command(parser *P, hp_sudoers_member *m)
{
	m->kind = HP_SUDOERS_SM_CMND;
	switch (P->t.kind) {
	case HP_SUDOERS_TK_ALL:
		m->kind = HP_SUDOERS_SM_ALL;
		m->text = "ALL";
		next(P);
		return true;
	case HP_SUDOERS_TK_ALIAS:
		if (is_option(P->t.text))
			break;
		m->kind = HP_SUDOERS_SM_ALIAS;
		m->text = keep(P);
		next(P);
		return true;
	case HP_SUDOERS_TK_PATH:
	case HP_SUDOERS_TK_REGEX:
	case HP_SUDOERS_TK_SUDOEDIT:
		m->text = keep(P);
		if (P->mode == MODE_NORMAL &&
		    !(P->t.kind == HP_SUDOERS_TK_PATH && P->t.text[P->t.len - 1] == '/')) {
			hp_sudoers_lex_args(&P->L, &P->t);
			if (P->t.kind == HP_SUDOERS_TK_ERROR) {
				fail(P, "");
				return false;
			}
		}
		next(P);
		return true;
	case HP_SUDOERS_TK_WORD:
		if (strcmp(P->t.text, "list") == 0) {
			m->text = "list";
			next(P);
			return true;
		}
		break;
	case HP_SUDOERS_TK_EOL:
	case HP_SUDOERS_TK_ERROR:
	case HP_SUDOERS_TK_TAG:
	case HP_SUDOERS_TK_BANG:
	case HP_SUDOERS_TK_COMMA:
	case HP_SUDOERS_TK_COLON:
	case HP_SUDOERS_TK_EQ:
	case HP_SUDOERS_TK_PLUSEQ:
	case HP_SUDOERS_TK_MINUSEQ:
	case HP_SUDOERS_TK_LPAREN:
	case HP_SUDOERS_TK_RPAREN:
	case HP_SUDOERS_TK_DIGEST:
	case HP_SUDOERS_TK_INCLUDE:
	case HP_SUDOERS_TK_INCLUDEDIR:
	case HP_SUDOERS_TK_DEFVAR:
	case HP_SUDOERS_TK_BLANK:
	default:
		break;
	}
	expected(P, "a fully qualified command, a directory, sudoedit, list, a Cmnd_Alias or ALL");
	return false;
}

/* The digest's length in bytes, from its name: sha224, sha256, sha384, sha512. */
static size_t digest_len(const char *name)
{
	switch (name[3]) {
	case '2':
		return name[4] == '2' ? 28 : 32;
	case '3':
		return 48;
	default:
		return 64;
	}
}

/* The group half of a runas list: sudo's grammar takes only words, aliases
 * and ALL there, no %group or +netgroup (a list kind of the parser only). */
enum { SA_RUNAS_GROUPS = SA_NKINDS };

static const char *members_of(hp_sudoers_akind k)
{
	if ((int)k == SA_RUNAS_GROUPS)
		return "a group name, alias or ALL";
	return k == SA_HOST ? "a host, alias or ALL" : "a user, group, alias or ALL";
}

/* One member of a list of kind k; the current token starts it and the
 * token after it is current on return. */
static bool item(parser *P, hp_sudoers_akind k, hp_sudoers_member *m)
{
	m->neg = false;
	if (k == SA_CMND && P->t.kind == HP_SUDOERS_TK_DIGEST && P->mode == MODE_NORMAL) {
		for (;;) {
			size_t len = digest_len(P->t.text);
			next(P);
			if (P->t.kind != HP_SUDOERS_TK_COLON) {
				expected(P, "':' after the digest type");
				return false;
			}
			hp_sudoers_lex_digest(&P->L, &P->t, len);
			if (P->t.kind != HP_SUDOERS_TK_WORD) {
				fail(P, "");
				return false;
			}
			next(P);
			if (P->t.kind != HP_SUDOERS_TK_COMMA)
				break;
			next(P);
			if (P->t.kind != HP_SUDOERS_TK_DIGEST) {
				expected(P, "another digest after ','");
				return false;
			}
		}
	}
	if (P->t.kind == HP_SUDOERS_TK_BANG) {
		m->neg = true;
		next(P);
	}
	if (k == SA_CMND)
		return command(P, m);
	switch (P->t.kind) {
	case HP_SUDOERS_TK_ALL:
		m->kind = HP_SUDOERS_SM_ALL;
		m->text = "ALL";
		break;
	case HP_SUDOERS_TK_ALIAS:
		if (is_option(P->t.text)) {
			expected(P, members_of(k));
			return false;
		}
		m->kind = HP_SUDOERS_SM_ALIAS;
		m->text = keep(P);
		break;
	case HP_SUDOERS_TK_WORD:
		if (k == SA_HOST && P->t.text[0] == '%') {
			expected(P, members_of(k));
			return false;
		}
		if ((int)k == SA_RUNAS_GROUPS && (P->t.text[0] == '%' || P->t.text[0] == '+')) {
			expected(P, members_of(k));
			return false;
		}
		m->kind = HP_SUDOERS_SM_WORD;
		m->text = keep(P);
		break;
	case HP_SUDOERS_TK_EOL:
	case HP_SUDOERS_TK_ERROR:
	case HP_SUDOERS_TK_TAG:
	case HP_SUDOERS_TK_BANG:
	case HP_SUDOERS_TK_COMMA:
	case HP_SUDOERS_TK_COLON:
	case HP_SUDOERS_TK_EQ:
	case HP_SUDOERS_TK_PLUSEQ:
	case HP_SUDOERS_TK_MINUSEQ:
	case HP_SUDOERS_TK_LPAREN:
	case HP_SUDOERS_TK_RPAREN:
	case HP_SUDOERS_TK_PATH:
	case HP_SUDOERS_TK_REGEX:
	case HP_SUDOERS_TK_DIGEST:
	case HP_SUDOERS_TK_SUDOEDIT:
	case HP_SUDOERS_TK_INCLUDE:
	case HP_SUDOERS_TK_INCLUDEDIR:
	case HP_SUDOERS_TK_DEFVAR:
	case HP_SUDOERS_TK_BLANK:
	default:
		expected(P, members_of(k));
		return false;
	}
	next(P);
	return true;
}

/* Members separated by ','; stops at the first token after the list. */
static bool list(parser *P, hp_sudoers_akind k, hp_sudoers_list *out)
{
	size_t mark = P->ntmp;
	for (;;) {
		hp_sudoers_member m;
		if (!item(P, k, &m)) {
			P->ntmp = mark;
			return false;
		}
		push(P, m);
		if (P->t.kind != HP_SUDOERS_TK_COMMA)
			break;
		next(P);
	}
	*out = finish(P, mark);
	return true;
}

static void include(parser *P, bool dir, unsigned line, unsigned col)
{
	hp_sudoers_lex_incpath(&P->L, &P->t);
	if (P->t.kind != HP_SUDOERS_TK_WORD) {
		fail(P, "");
		return;
	}
	char *path = hp_xstrndup(P->t.text, P->t.len);
	next(P);
	if (P->t.kind != HP_SUDOERS_TK_EOL) {
		expected(P, "the end of the line after the include path");
	} else if (strstr(path, "%h")) {
		hp_esc_buf e;
		P->bad = true;
		hp_sudoers_add_problem(P->s,
		           "%s:%u:%u: include path \"%s\" names the host (%%h), which is not "
		           "known offline",
		           P->file, line, col, hp_escs(&e, path));
	} else {
		hp_sudoers_include(P->s, P->ld, path, dir, P->depth, P->file, line, col);
	}
	free(path);
}

static void defaults(parser *P)
{
	unsigned line = P->t.line;
	char type = 0;
	hp_sudoers_list binding = {NULL, 0};
	int c = hp_sudoers_lex_peek(&P->L);
	P->mode = MODE_BINDING;
	if (c == ':' || c == '@' || c == '>' || c == '!') {
		type = (char)c;
		P->L.p++;
		while (P->L.p < P->L.end && (*P->L.p == ' ' || *P->L.p == '\t'))
			P->L.p++;
		next(P);
		hp_sudoers_akind k = type == ':'   ? SA_USER
		             : type == '@' ? SA_HOST
		             : type == '>' ? SA_RUNAS
		                           : SA_CMND;
		if (!list(P, k, &binding))
			goto out;
	} else {
		next(P);
	}
	if (P->t.kind != HP_SUDOERS_TK_BLANK) {
		expected(P, "a blank before the Defaults parameters");
		goto out;
	}
	P->mode = MODE_NORMAL;
	for (;;) {
		bool neg = false, value = false;
		hp_sudoers_lex_defname(&P->L, &P->t);
		if (P->t.kind == HP_SUDOERS_TK_BANG) {
			neg = true;
			hp_sudoers_lex_defname(&P->L, &P->t);
		}
		if (P->t.kind != HP_SUDOERS_TK_DEFVAR) {
			expected(P, "a Defaults parameter");
			goto out;
		}
		char *name = hp_xstrndup(P->t.text, P->t.len);
		hp_sudoers_lex_defvalue(&P->L, &P->t);
		if (P->t.kind == HP_SUDOERS_TK_EQ || P->t.kind == HP_SUDOERS_TK_PLUSEQ || P->t.kind == HP_SUDOERS_TK_MINUSEQ) {
			if (neg) {
				expected(P, "',' or the end of the line after a negated parameter");
				free(name);
				goto out;
			}
			hp_sudoers_lex_defvalue(&P->L, &P->t);
			if (P->t.kind != HP_SUDOERS_TK_WORD) {
				expected(P, "a value");
				free(name);
				goto out;
			}
			value = true;
			hp_sudoers_lex_defvalue(&P->L, &P->t);
		}
		if (strcmp(name, "authenticate") == 0 && (neg || value)) {
			hp_sudoers *s = P->s;
			s->noauth =
			    hp_xgrow(s->noauth, &s->cnoauth, s->nnoauth + 1, sizeof *s->noauth);
			s->noauth[s->nnoauth++] = (hp_sudoers_noauth){type, binding, P->file, line};
		}
		if (strcmp(name, "group_plugin") == 0 && !neg)
			P->s->group_plugin = true;
		free(name);
		if (P->t.kind == HP_SUDOERS_TK_EOL)
			break;
		if (P->t.kind != HP_SUDOERS_TK_COMMA) {
			expected(P, "',' or the end of the line");
			goto out;
		}
	}
out:
	P->mode = MODE_NORMAL;
}

static void alias_def(parser *P, hp_sudoers_akind k)
{
	do {
		next(P);
		if (P->t.kind != HP_SUDOERS_TK_ALIAS || is_option(P->t.text)) {
			expected(P, "an alias name (capital letters, digits and '_')");
			return;
		}
		hp_sudoers_alias a = {.name = keep(P), .file = P->file, .line = P->t.line};
		next(P);
		if (P->t.kind != HP_SUDOERS_TK_EQ) {
			expected(P, "'='");
			return;
		}
		next(P);
		if (!list(P, k, &a.members))
			return;
		hp_sudoers *s = P->s;
		s->al[k] = hp_xgrow(s->al[k], &s->cal[k], s->nal[k] + 1, sizeof *s->al[k]);
		s->al[k][s->nal[k]++] = a;
	} while (P->t.kind == HP_SUDOERS_TK_COLON);
	if (P->t.kind != HP_SUDOERS_TK_EOL)
		expected(P, "',', ':' or the end of the line");
}

static bool cmndspec(parser *P, bool *nopasswd, hp_sudoers_cmndspec *out)
{
	if (P->t.kind == HP_SUDOERS_TK_LPAREN) {
		/* (), (users), (users : groups), (: groups), (:) but not (users :) */
		hp_sudoers_list runas;
		bool users = false;
		next(P);
		if (P->t.kind != HP_SUDOERS_TK_COLON && P->t.kind != HP_SUDOERS_TK_RPAREN) {
			if (!list(P, SA_RUNAS, &runas))
				return false;
			users = true;
		}
		if (P->t.kind == HP_SUDOERS_TK_COLON) {
			next(P);
			if ((users || P->t.kind != HP_SUDOERS_TK_RPAREN) &&
			    !list(P, (hp_sudoers_akind)SA_RUNAS_GROUPS, &runas))
				return false;
		}
		if (P->t.kind != HP_SUDOERS_TK_RPAREN) {
			expected(P, "')'");
			return false;
		}
		next(P);
	}
	while (P->t.kind == HP_SUDOERS_TK_ALIAS && is_option(P->t.text)) {
		bool path = strcmp(P->t.text, "CWD") == 0 || strcmp(P->t.text, "CHROOT") == 0;
		next(P);
		if (P->t.kind != HP_SUDOERS_TK_EQ) {
			expected(P, "'=' after the option name");
			return false;
		}
		if (path)
			hp_sudoers_lex_optpath(&P->L, &P->t);
		else
			next(P);
		if (P->t.kind != HP_SUDOERS_TK_WORD) {
			expected(P, "the option's value");
			return false;
		}
		next(P);
	}
	while (P->t.kind == HP_SUDOERS_TK_TAG) {
		if (strcmp(P->t.text, "NOPASSWD") == 0)
			*nopasswd = true;
		else if (strcmp(P->t.text, "PASSWD") == 0)
			*nopasswd = false;
		next(P);
	}
	if (!item(P, SA_CMND, &out->cmnd))
		return false;
	out->nopasswd = *nopasswd;
	return true;
}

/* The rule's first line, blanks folded, for evidence. */
static const char *rule_text(parser *P, const char *raw)
{
	char buf[HP_ESC_MAX_INPUT + 2];
	size_t n = 0;
	for (const char *p = raw; p < P->L.end && *p != '\n' && *p != '\r' && n < sizeof buf - 1;
	     p++) {
		bool blank = *p == ' ' || *p == '\t';
		if (blank && (n == 0 || buf[n - 1] == ' '))
			continue;
		buf[n++] = blank ? ' ' : *p;
	}
	while (n && buf[n - 1] == ' ')
		n--;
	hp_esc_buf b;
	const char *t = hp_esc(&b, buf, n);
	return hp_sudoers_strdup(P->s, t, strlen(t));
}

static void userspec(parser *P)
{
	hp_sudoers_userspec u = {.file = P->file, .line = P->t.line, .text = rule_text(P, P->t.raw)};
	if (!list(P, SA_USER, &u.users))
		return;
	size_t pmark = P->nprivs;
	for (;;) {
		hp_sudoers_priv pr = {{NULL, 0}, NULL, 0};
		if (!list(P, SA_HOST, &pr.hosts))
			goto out;
		if (P->t.kind != HP_SUDOERS_TK_EQ) {
			expected(P, "'=' after the host list");
			goto out;
		}
		next(P);
		bool nopasswd = false;
		size_t smark = P->nspecs;
		for (;;) {
			hp_sudoers_cmndspec cs;
			if (!cmndspec(P, &nopasswd, &cs)) {
				P->nspecs = smark;
				goto out;
			}
			P->specs = hp_xgrow(P->specs, &P->cspecs, P->nspecs + 1, sizeof *P->specs);
			P->specs[P->nspecs++] = cs;
			if (P->t.kind != HP_SUDOERS_TK_COMMA)
				break;
			next(P);
		}
		pr.nspecs = (uint32_t)(P->nspecs - smark);
		pr.specs = hp_sudoers_alloc(P->s, pr.nspecs * sizeof *pr.specs);
		memcpy(pr.specs, P->specs + smark, pr.nspecs * sizeof *pr.specs);
		P->nspecs = smark;
		P->privs = hp_xgrow(P->privs, &P->cprivs, P->nprivs + 1, sizeof *P->privs);
		P->privs[P->nprivs++] = pr;
		if (P->t.kind == HP_SUDOERS_TK_EOL)
			break;
		if (P->t.kind != HP_SUDOERS_TK_COLON) {
			expected(P, "',', ':' or the end of the line");
			goto out;
		}
		next(P);
	}
	u.nprivs = (uint32_t)(P->nprivs - pmark);
	u.privs = hp_sudoers_alloc(P->s, u.nprivs * sizeof *u.privs);
	memcpy(u.privs, P->privs + pmark, u.nprivs * sizeof *u.privs);
	hp_sudoers *s = P->s;
	s->us = hp_xgrow(s->us, &s->cus, s->nus + 1, sizeof *s->us);
	s->us[s->nus++] = u;
out:
	P->nprivs = pmark;
}

static const struct {
	const char *word;
	hp_sudoers_akind kind;
} alias_words[] = {{"User_Alias", SA_USER},
                   {"Runas_Alias", SA_RUNAS},
                   {"Host_Alias", SA_HOST},
                   {"Cmnd_Alias", SA_CMND},
                   {"Cmd_Alias", SA_CMND}};

static void entry(parser *P)
{
	int inc = hp_sudoers_lex_hash_include(&P->L);
	if (inc) {
		include(P, inc == 2, P->L.line, 1);
		return;
	}
	next(P);
	hp_sudoers_tok_kind k = P->t.kind;
	if (k == HP_SUDOERS_TK_EOL)
		return;
	bool keyword = false, defaults_kw = false;
	if (k == HP_SUDOERS_TK_INCLUDE || k == HP_SUDOERS_TK_INCLUDEDIR) {
		keyword = true;
	} else if (k == HP_SUDOERS_TK_WORD && !P->t.quoted) {
		/* sudo's Defaults rule wins over a word that runs on past a
		 * binding type, as in "Defaults@host" */
		const char *r = P->t.raw;
		defaults_kw = (size_t)(P->L.end - r) >= 8 && memcmp(r, "Defaults", 8) == 0 &&
		              ((P->t.len == 8 && !P->t.escaped) ||
		               ((size_t)(P->L.end - r) > 8 && strchr(":@>!", r[8]) && r[8]));
		if (defaults_kw)
			P->L.p = r + 8;
		keyword = defaults_kw;
		for (size_t i = 0; !P->t.escaped && i < sizeof alias_words / sizeof *alias_words;
		     i++)
			keyword = keyword || strcmp(P->t.text, alias_words[i].word) == 0;
	}
	if (keyword && P->L.continued) {
		char buf[160], msg[256];
		snprintf(msg, sizeof msg, "%s after a line continuation",
		         describe(&P->t, buf, sizeof buf));
		fail(P, msg);
		return;
	}
	if (k == HP_SUDOERS_TK_INCLUDE || k == HP_SUDOERS_TK_INCLUDEDIR) {
		include(P, k == HP_SUDOERS_TK_INCLUDEDIR, P->t.line, P->t.col);
		return;
	}
	if (defaults_kw) {
		defaults(P);
		return;
	}
	for (size_t i = 0; keyword && !P->t.escaped && i < sizeof alias_words / sizeof *alias_words;
	     i++) {
		if (strcmp(P->t.text, alias_words[i].word) == 0) {
			alias_def(P, alias_words[i].kind);
			return;
		}
	}
	userspec(P);
}

void hp_sudoers_parse(hp_sudoers *s, hp_sudoers_loader *ld, const char *file, const char *buf, size_t len,
              int depth)
{
	parser P = {.s = s, .ld = ld, .file = file, .depth = depth};
	hp_sudoers_lex_init(&P.L, buf, len);
	while (hp_sudoers_lex_entry(&P.L)) {
		P.bad = false;
		P.mode = MODE_NORMAL;
		entry(&P);
		if (P.bad && P.t.kind != HP_SUDOERS_TK_EOL)
			hp_sudoers_lex_skip_line(&P.L);
	}
	hp_sudoers_lex_free(&P.L);
	free(P.tmp);
	free(P.specs);
	free(P.privs);
}
