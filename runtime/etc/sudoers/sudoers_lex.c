/* sudoers_lex.c: cutting sudoers text into tokens the way sudo does. Each
 * function mirrors one start condition of sudo's flex lexer, including its
 * longest-match choices (a path against a word, a regex against a word, an
 * alias name against a word). */
#include "etc/sudoers/sudoers_lex.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

/* Bytes that end a sudoers WORD: # > ! = : , ( ) blank CR LF \ and ". */
static const unsigned char word_stop[256] = {
    ['#'] = 1, ['>'] = 1, ['!'] = 1,  ['='] = 1,  [':'] = 1,  [','] = 1,  ['('] = 1,
    [')'] = 1, [' '] = 1, ['\t'] = 1, ['\r'] = 1, ['\n'] = 1, ['\\'] = 1, ['"'] = 1,
};

static const char *const tags[] = {"NOPASSWD",   "PASSWD",       "NOEXEC",    "EXEC",
                                   "INTERCEPT",  "NOINTERCEPT",  "SETENV",    "NOSETENV",
                                   "LOG_OUTPUT", "NOLOG_OUTPUT", "LOG_INPUT", "NOLOG_INPUT",
                                   "MAIL",       "NOMAIL",       "FOLLOW",    "NOFOLLOW"};

void hp_sudoers_lex_init(hp_sudoers_lex *L, const char *buf, size_t len)
{
	memset(L, 0, sizeof *L);
	L->buf = L->p = L->line_start = buf;
	L->end = buf + len;
	L->line = 1;
}

void hp_sudoers_lex_free(hp_sudoers_lex *L)
{
	free(L->scratch);
	L->scratch = NULL;
}

const char *hp_sudoers_tok_name(hp_sudoers_tok_kind k)
{
	switch (k) {
	case HP_SUDOERS_TK_EOL:
		return "end of line";
	case HP_SUDOERS_TK_ERROR:
		return "error";
	case HP_SUDOERS_TK_WORD:
		return "word";
	case HP_SUDOERS_TK_ALIAS:
		return "alias name";
	case HP_SUDOERS_TK_ALL:
		return "ALL";
	case HP_SUDOERS_TK_TAG:
		return "tag";
	case HP_SUDOERS_TK_BANG:
		return "'!'";
	case HP_SUDOERS_TK_COMMA:
		return "','";
	case HP_SUDOERS_TK_COLON:
		return "':'";
	case HP_SUDOERS_TK_EQ:
		return "'='";
	case HP_SUDOERS_TK_PLUSEQ:
		return "'+='";
	case HP_SUDOERS_TK_MINUSEQ:
		return "'-='";
	case HP_SUDOERS_TK_LPAREN:
		return "'('";
	case HP_SUDOERS_TK_RPAREN:
		return "')'";
	case HP_SUDOERS_TK_PATH:
		return "path";
	case HP_SUDOERS_TK_REGEX:
		return "regular expression";
	case HP_SUDOERS_TK_DIGEST:
		return "digest";
	case HP_SUDOERS_TK_SUDOEDIT:
		return "sudoedit";
	case HP_SUDOERS_TK_INCLUDE:
		return "@include";
	case HP_SUDOERS_TK_INCLUDEDIR:
		return "@includedir";
	case HP_SUDOERS_TK_DEFVAR:
		return "Defaults parameter";
	case HP_SUDOERS_TK_BLANK:
		return "blank";
	}
	return "token";
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static char *scratch(hp_sudoers_lex *L, size_t n)
{
	L->scratch = hp_xgrow(L->scratch, &L->scap, n + 1, 1);
	return L->scratch;
}

static void newline(hp_sudoers_lex *L, const char *after)
{
	L->line++;
	L->p = after;
	L->line_start = after;
}

/* Length of a continuation "\\[ \t]*\r?\n" at p, or 0. */
static size_t cont_len(const hp_sudoers_lex *L, const char *p)
{
	if (p >= L->end || *p != '\\')
		return 0;
	const char *q = p + 1;
	while (q < L->end && (*q == ' ' || *q == '\t'))
		q++;
	if (q < L->end && *q == '\r')
		q++;
	if (q < L->end && *q == '\n')
		return (size_t)(q + 1 - p);
	return 0;
}

/* Skip blanks and continuation lines; returns whether a blank was seen. */
static bool skip_ws(hp_sudoers_lex *L)
{
	bool blank = false;
	for (;;) {
		if (L->p < L->end && (*L->p == ' ' || *L->p == '\t')) {
			L->p++;
			blank = true;
			continue;
		}
		size_t c = cont_len(L, L->p);
		if (!c)
			return blank;
		newline(L, L->p + c);
		L->continued = true;
		blank = true;
	}
}

static void start(const hp_sudoers_lex *L, hp_sudoers_tok *t, hp_sudoers_tok_kind kind)
{
	t->kind = kind;
	t->line = L->line;
	t->col = (unsigned)(L->p - L->line_start) + 1;
	t->raw = L->p;
	t->quoted = t->escaped = t->eof = false;
	t->text = "";
	t->len = 0;
}

static void error(hp_sudoers_lex *L, hp_sudoers_tok *t, const char *why)
{
	start(L, t, HP_SUDOERS_TK_ERROR);
	t->text = why;
	t->len = strlen(why);
}

/* t's text is s[0..n) unescaped as sudo's fill_txt does: \xHH is a byte,
 * a backslash before anything else stands for that character. False when
 * that makes a NUL byte. */
static bool set_text(hp_sudoers_lex *L, hp_sudoers_tok *t, const char *s, size_t n)
{
	char *o = scratch(L, n), *d = o;
	for (size_t i = 0; i < n;) {
		int hi, lo;
		if (s[i] != '\\' || i + 1 >= n) {
			*d++ = s[i++];
		} else if (s[i + 1] == 'x' && i + 3 < n && (hi = hexval(s[i + 2])) >= 0 &&
		           (lo = hexval(s[i + 3])) >= 0) {
			*d++ = (char)(hi << 4 | lo);
			i += 4;
			t->escaped = true;
		} else {
			*d++ = s[i + 1];
			i += 2;
			t->escaped = true;
		}
	}
	*d = '\0';
	t->text = o;
	t->len = (size_t)(d - o);
	return memchr(o, '\0', t->len) == NULL;
}

/* The length of sudo's WORD at p: ([^#>!=:,() \t\r\n\\"]|\\[^\t\n])+ */
static size_t word_span(const hp_sudoers_lex *L, const char *p)
{
	const char *q = p;
	while (q < L->end) {
		if (*q == '\\') {
			if (q + 1 < L->end && q[1] != '\t' && q[1] != '\n') {
				q += 2;
				continue;
			}
			break;
		}
		if (word_stop[(unsigned char)*q])
			break;
		q++;
	}
	return (size_t)(q - p);
}

/* sudo's PATH: \/(\\[\,:= \t#]|[^\,:=\\ \t\r\n#])+ ; 0 when it does not match. */
static size_t path_span(const hp_sudoers_lex *L, const char *p)
{
	const char *q = p + 1;
	while (q < L->end) {
		if (*q == '\\') {
			if (q + 1 < L->end && strchr(",:= \t#", q[1]) && q[1] != '\0') {
				q += 2;
				continue;
			}
			break;
		}
		if (strchr(",:=\\ \t\r\n#", *q))
			break;
		q++;
	}
	return q - p > 1 ? (size_t)(q - p) : 0;
}

/* sudo's REGEX: \^([^#\r\n\$]|\\[#\$])*\$ at its longest; 0 if none. */
static size_t regex_span(const hp_sudoers_lex *L, const char *p)
{
	size_t best = 0;
	const char *q = p + 1;
	while (q < L->end) {
		if (*q == '\\' && q + 1 < L->end && (q[1] == '#' || q[1] == '$')) {
			if (q[1] == '$')
				best = (size_t)(q + 2 - p);
			q += 2;
			continue;
		}
		if (*q == '$')
			return (size_t)(q + 1 - p);
		if (*q == '#' || *q == '\r' || *q == '\n')
			break;
		q++;
	}
	return best;
}

static bool alias_shaped(const char *s, size_t n)
{
	if (n == 0 || !(s[0] >= 'A' && s[0] <= 'Z'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

/* A WORD at the cursor, classified as sudo's earlier rules would. */
static void word(hp_sudoers_lex *L, hp_sudoers_tok *t, bool keywords)
{
	size_t n = word_span(L, L->p);
	if (n == 0) {
		error(L, t, "a character no sudoers token starts with");
		return;
	}
	start(L, t, HP_SUDOERS_TK_WORD);
	const char *s = L->p;
	L->p += n;
	if (!set_text(L, t, s, n)) {
		error(L, t, "\\x00 in a word");
		return;
	}
	if (t->escaped || !keywords)
		return;
	if (alias_shaped(s, n)) {
		if (n == 3 && memcmp(s, "ALL", 3) == 0) {
			t->kind = HP_SUDOERS_TK_ALL;
			return;
		}
		for (size_t i = 0; i < sizeof tags / sizeof *tags; i++) {
			if (strlen(tags[i]) != n || memcmp(s, tags[i], n) != 0)
				continue;
			const char *q = L->p;
			while (q < L->end && (*q == ' ' || *q == '\t'))
				q++;
			if (q < L->end && *q == ':') {
				L->p = q + 1;
				t->kind = HP_SUDOERS_TK_TAG;
				return;
			}
		}
		t->kind = HP_SUDOERS_TK_ALIAS;
		return;
	}
	if (n == 6 && (memcmp(s, "sha224", 6) == 0 || memcmp(s, "sha256", 6) == 0 ||
	               memcmp(s, "sha384", 6) == 0 || memcmp(s, "sha512", 6) == 0))
		t->kind = HP_SUDOERS_TK_DIGEST;
	else if (n == 8 && memcmp(s, "sudoedit", 8) == 0)
		t->kind = HP_SUDOERS_TK_SUDOEDIT;
	else if (n == 8 && memcmp(s, "@include", 8) == 0)
		t->kind = HP_SUDOERS_TK_INCLUDE;
	else if (n == 11 && memcmp(s, "@includedir", 11) == 0)
		t->kind = HP_SUDOERS_TK_INCLUDEDIR;
}

/* A double-quoted string (sudo's INSTR state); the cursor is on the quote. */
static void string(hp_sudoers_lex *L, hp_sudoers_tok *t, bool special)
{
	start(L, t, HP_SUDOERS_TK_WORD);
	unsigned line = t->line, col = t->col;
	const char *raw = L->p;
	size_t n = 0;
	char *o = scratch(L, 16);
	L->p++;
	for (;;) {
		if (L->p >= L->end) {
			error(L, t, "unterminated quoted string");
			t->line = line;
			t->col = col;
			return;
		}
		char c = *L->p;
		if (c == '"') {
			L->p++;
			break;
		}
		if (c == '\n' || c == '\r') {
			error(L, t, "line break in a quoted string");
			t->line = line;
			t->col = col;
			return;
		}
		if (c == '\\') {
			const char *q = L->p + 1;
			while (q < L->end && (*q == ' ' || *q == '\t'))
				q++;
			if (q < L->end && *q == '\r')
				q++;
			if (q < L->end && *q == '\n') {
				newline(L, q + 1);
				L->continued = true;
				while (L->p < L->end && (*L->p == ' ' || *L->p == '\t'))
					L->p++;
				continue;
			}
			if (L->p + 1 < L->end && L->p[1] == '"') {
				L->p++;
				c = '"';
			}
		}
		o = scratch(L, n + 1);
		o[n++] = c;
		L->p++;
	}
	o = scratch(L, n);
	o[n] = '\0';
	t->kind = HP_SUDOERS_TK_WORD;
	t->text = o;
	t->len = n;
	t->quoted = true;
	t->line = line;
	t->col = col;
	t->raw = raw;
	const char *why = NULL;
	if (n == 0)
		why = "empty quoted string";
	else if (special && o[0] == '%' && (n == 1 || (n == 2 && o[1] == ':')))
		why = "empty group";
	else if (special && o[0] == '+' && n == 1)
		why = "empty netgroup";
	if (why) {
		error(L, t, why);
		t->line = line;
		t->col = col;
	}
}

/* '#' at the cursor outside a command: a uid ("#123", "#-1") or a comment.
 * Returns true when it produced a token. */
static bool hash(hp_sudoers_lex *L, hp_sudoers_tok *t, bool comments)
{
	const char *q = L->p + 1;
	if (q < L->end && *q == '-')
		q++;
	if (q < L->end && *q >= '0' && *q <= '9') {
		while (q < L->end && *q >= '0' && *q <= '9')
			q++;
		start(L, t, HP_SUDOERS_TK_WORD);
		const char *s = L->p;
		L->p = q;
		set_text(L, t, s, (size_t)(q - s));
		return true;
	}
	bool bare_cr = q < L->end && *q == '\r' && (q + 1 >= L->end || q[1] != '\n');
	if (!comments || bare_cr || (q > L->p + 1 && (q >= L->end || *q == '\n' || *q == '\r'))) {
		error(L, t, "'#' that starts neither a comment nor a uid");
		return true;
	}
	const char *nl = memchr(L->p, '\n', (size_t)(L->end - L->p));
	start(L, t, HP_SUDOERS_TK_EOL);
	if (!nl) {
		L->p = L->end;
		t->eof = true;
	} else {
		newline(L, nl + 1);
	}
	return true;
}

static bool end_or_newline(hp_sudoers_lex *L, hp_sudoers_tok *t)
{
	if (L->p >= L->end) {
		start(L, t, HP_SUDOERS_TK_EOL);
		t->eof = true;
		return true;
	}
	if (*L->p == '\n' || (*L->p == '\r' && L->p + 1 < L->end && L->p[1] == '\n')) {
		start(L, t, HP_SUDOERS_TK_EOL);
		newline(L, L->p + (*L->p == '\r' ? 2 : 1));
		return true;
	}
	if (*L->p == '\r') {
		error(L, t, "carriage return not followed by a newline");
		return true;
	}
	return false;
}

/* An odd run of '!' is one HP_SUDOERS_TK_BANG; an even run cancels out (false). */
static bool bangs(hp_sudoers_lex *L, hp_sudoers_tok *t)
{
	start(L, t, HP_SUDOERS_TK_BANG);
	size_t n = 0;
	while (L->p < L->end && *L->p == '!') {
		L->p++;
		n++;
	}
	return n & 1;
}

static void punct(hp_sudoers_lex *L, hp_sudoers_tok *t, hp_sudoers_tok_kind k, size_t n)
{
	start(L, t, k);
	L->p += n;
}

/* The ordinary state; binding is set for a Defaults binding list. */
static void next(hp_sudoers_lex *L, hp_sudoers_tok *t, bool binding)
{
	for (;;) {
		if (binding) {
			const char *before = L->p;
			while (L->p < L->end && (*L->p == ' ' || *L->p == '\t'))
				L->p++;
			if (L->p != before && (L->p >= L->end || *L->p != ',')) {
				start(L, t, HP_SUDOERS_TK_BLANK);
				return;
			}
			size_t c = cont_len(L, L->p);
			if (c) {
				newline(L, L->p + c);
				L->continued = true;
				continue;
			}
		} else {
			skip_ws(L);
		}
		if (end_or_newline(L, t))
			return;
		switch (*L->p) {
		case '#':
			hash(L, t, !binding);
			return;
		case '!':
			if (bangs(L, t))
				return;
			continue;
		case ',':
			punct(L, t, HP_SUDOERS_TK_COMMA, 1);
			if (binding)
				while (L->p < L->end && (*L->p == ' ' || *L->p == '\t'))
					L->p++;
			return;
		case ':':
			punct(L, t, HP_SUDOERS_TK_COLON, 1);
			return;
		case '=':
			punct(L, t, HP_SUDOERS_TK_EQ, 1);
			return;
		case '(':
			punct(L, t, HP_SUDOERS_TK_LPAREN, 1);
			return;
		case ')':
			punct(L, t, HP_SUDOERS_TK_RPAREN, 1);
			return;
		case '"':
			string(L, t, true);
			return;
		case '/': {
			size_t pl = path_span(L, L->p), wl = word_span(L, L->p);
			if (pl && pl >= wl) {
				start(L, t, HP_SUDOERS_TK_PATH);
				const char *s = L->p;
				L->p += pl;
				/* sudo's fill_cmnd: only \, \: \= \blank \# are escapes */
				char *o = scratch(L, pl), *d = o;
				for (size_t i = 0; i < pl; i++) {
					if (s[i] == '\\' && i + 1 < pl)
						i++;
					*d++ = s[i];
				}
				*d = '\0';
				t->text = o;
				t->len = (size_t)(d - o);
				return;
			}
			word(L, t, true);
			return;
		}
		case '^': {
			size_t rl = regex_span(L, L->p), wl = word_span(L, L->p);
			if (rl && rl >= wl) {
				start(L, t, HP_SUDOERS_TK_REGEX);
				t->text = "regex";
				t->len = 5;
				L->p += rl;
				return;
			}
			word(L, t, true);
			return;
		}
		case '%': {
			const char *q = L->p + 1;
			if (q < L->end && *q == ':')
				q++;
			size_t n;
			if (q < L->end && *q == '#') {
				const char *d = q + 1;
				if (d < L->end && *d == '-')
					d++;
				const char *digits = d;
				while (d < L->end && *d >= '0' && *d <= '9')
					d++;
				n = d > digits ? (size_t)(d - q) : 0;
			} else {
				n = word_span(L, q);
			}
			if (n == 0) {
				error(L, t, "empty group");
				L->p = q;
				return;
			}
			start(L, t, HP_SUDOERS_TK_WORD);
			const char *s = L->p;
			L->p = q + n;
			if (!set_text(L, t, s, (size_t)(L->p - s)))
				error(L, t, "\\x00 in a word");
			return;
		}
		case '+':
			if (word_span(L, L->p + 1) == 0) {
				error(L, t, "empty netgroup");
				L->p++;
				return;
			}
			word(L, t, false);
			return;
		case '\\':
			if (L->p + 1 >= L->end || L->p[1] == '\t' || L->p[1] == '\n') {
				error(L, t, "a backslash that escapes nothing");
				return;
			}
			word(L, t, true);
			return;
		default:
			word(L, t, true);
			if (binding && (t->kind == HP_SUDOERS_TK_INCLUDE || t->kind == HP_SUDOERS_TK_INCLUDEDIR))
				t->kind = HP_SUDOERS_TK_WORD;
			return;
		}
	}
}

void hp_sudoers_lex_next(hp_sudoers_lex *L, hp_sudoers_tok *t)
{
	next(L, t, false);
}

void hp_sudoers_lex_binding(hp_sudoers_lex *L, hp_sudoers_tok *t)
{
	next(L, t, true);
}

bool hp_sudoers_lex_entry(hp_sudoers_lex *L)
{
	L->continued = false;
	skip_ws(L);
	return L->p < L->end;
}

int hp_sudoers_lex_hash_include(hp_sudoers_lex *L)
{
	if (L->p != L->line_start || L->continued)
		return 0;
	size_t rest = (size_t)(L->end - L->p);
	for (int k = 2; k >= 1; k--) {
		const char *w = k == 2 ? "#includedir" : "#include";
		size_t n = strlen(w);
		if (rest > n && memcmp(L->p, w, n) == 0 && (L->p[n] == ' ' || L->p[n] == '\t')) {
			L->p += n;
			return k;
		}
	}
	return 0;
}

int hp_sudoers_lex_peek(const hp_sudoers_lex *L)
{
	return L->p < L->end ? (unsigned char)*L->p : -1;
}

void hp_sudoers_lex_skip_line(hp_sudoers_lex *L)
{
	while (L->p < L->end) {
		size_t c = cont_len(L, L->p);
		if (c) {
			newline(L, L->p + c);
			continue;
		}
		if (*L->p == '\n') {
			newline(L, L->p + 1);
			return;
		}
		L->p++;
	}
}

void hp_sudoers_lex_defname(hp_sudoers_lex *L, hp_sudoers_tok *t)
{
	for (;;) {
		skip_ws(L);
		if (end_or_newline(L, t))
			return;
		char c = *L->p;
		if (c == '#') {
			hash(L, t, true);
			if (t->kind == HP_SUDOERS_TK_WORD)
				error(L, t, "a uid where a Defaults parameter was expected");
			return;
		}
		if (c == '!') {
			if (bangs(L, t))
				return;
			continue;
		}
		if ((c >= 'a' && c <= 'z') || c == '_') {
			start(L, t, HP_SUDOERS_TK_DEFVAR);
			const char *s = L->p;
			while (L->p < L->end && ((*L->p >= 'a' && *L->p <= 'z') || *L->p == '_'))
				L->p++;
			set_text(L, t, s, (size_t)(L->p - s));
			return;
		}
		error(L, t, "a character that cannot start a Defaults parameter");
		return;
	}
}

/* sudo's ENVAR: ([^#!=, \t\r\n\\"]|\\[^\r\n])([^#=, \t\r\n\\"]|\\[^\r\n])* */
static size_t envar_span(const hp_sudoers_lex *L, const char *p)
{
	const char *q = p;
	while (q < L->end) {
		if (*q == '\\') {
			if (q + 1 < L->end && q[1] != '\r' && q[1] != '\n') {
				q += 2;
				continue;
			}
			break;
		}
		if (strchr("#=, \t\r\n\"", *q) || (q == p && *q == '!'))
			break;
		q++;
	}
	return (size_t)(q - p);
}

void hp_sudoers_lex_defvalue(hp_sudoers_lex *L, hp_sudoers_tok *t)
{
	for (;;) {
		skip_ws(L);
		if (end_or_newline(L, t))
			return;
		char c = *L->p;
		switch (c) {
		case '#':
			hash(L, t, true);
			if (t->kind == HP_SUDOERS_TK_WORD)
				error(L, t, "'#' followed by a digit in a Defaults value");
			return;
		case '!':
			if (bangs(L, t))
				return;
			continue;
		case ',':
			punct(L, t, HP_SUDOERS_TK_COMMA, 1);
			return;
		case '=':
			punct(L, t, HP_SUDOERS_TK_EQ, 1);
			return;
		case '"':
			string(L, t, false);
			return;
		default:
			break;
		}
		if ((c == '+' || c == '-') && L->p + 1 < L->end && L->p[1] == '=') {
			punct(L, t, c == '+' ? HP_SUDOERS_TK_PLUSEQ : HP_SUDOERS_TK_MINUSEQ, 2);
			return;
		}
		size_t n = envar_span(L, L->p);
		if (n == 0) {
			error(L, t, "a character that cannot start a Defaults value");
			return;
		}
		start(L, t, HP_SUDOERS_TK_WORD);
		const char *s = L->p;
		L->p += n;
		if (!set_text(L, t, s, n))
			error(L, t, "\\x00 in a Defaults value");
		return;
	}
}

void hp_sudoers_lex_args(hp_sudoers_lex *L, hp_sudoers_tok *t)
{
	bool first = true;
	for (;;) {
		start(L, t, HP_SUDOERS_TK_EOL);
		if (L->p >= L->end)
			return;
		char c = *L->p;
		if (c == ' ' || c == '\t') {
			L->p++;
			continue;
		}
		if (c == '\\') {
			size_t k = cont_len(L, L->p);
			if (k) {
				newline(L, L->p + k);
				L->continued = true;
				continue;
			}
			if (L->p + 1 < L->end && L->p[1] != '\0' &&
			    strchr("*?[]!^:\\,= \t#", L->p[1])) {
				L->p += 2;
				first = false;
				continue;
			}
			error(L, t, "a backslash escape sudo does not accept in command arguments");
			return;
		}
		const char *q = L->p;
		while (q < L->end && !strchr("#\\:, \t\r\n", *q))
			q++;
		if (c == '#' || c == ':' || c == ',' || c == '\n' || c == '\r' ||
		    (c == '=' && q == L->p + 1))
			return;
		if (first && c == '^') {
			/* a regular expression for the arguments, up to '$' */
			q = L->p + 1;
			for (;;) {
				if (q >= L->end || *q == '#' || *q == '\r' || *q == '\n') {
					error(L, t, "unterminated regular expression");
					L->p = q;
					return;
				}
				if (*q == '\\' && q + 1 < L->end && q[1] != '\r' && q[1] != '\n') {
					q += 2;
					continue;
				}
				if (*q == '$') {
					L->p = q + 1;
					start(L, t, HP_SUDOERS_TK_EOL);
					return;
				}
				q++;
			}
		}
		L->p = q;
		first = false;
	}
}

void hp_sudoers_lex_incpath(hp_sudoers_lex *L, hp_sudoers_tok *t)
{
	skip_ws(L);
	if (L->p >= L->end || *L->p == '\n' || *L->p == '\r') {
		error(L, t, "an include directive without a path");
		return;
	}
	if (*L->p == '"') {
		string(L, t, true);
		if (t->kind == HP_SUDOERS_TK_WORD && (t->text[0] == '%' || t->text[0] == '+'))
			error(L, t, "a quoted include path starting with '%' or '+'");
		return;
	}
	start(L, t, HP_SUDOERS_TK_WORD);
	const char *s = L->p, *q = L->p;
	while (q < L->end) {
		if (*q == '\\' && q + 1 < L->end && (q[1] == ' ' || q[1] == '\t')) {
			q += 2;
			continue;
		}
		if (strchr(" \t\r\n\v\f", *q))
			break;
		q++;
	}
	L->p = q;
	if (!set_text(L, t, s, (size_t)(q - s)))
		error(L, t, "\\x00 in an include path");
}

void hp_sudoers_lex_optpath(hp_sudoers_lex *L, hp_sudoers_tok *t)
{
	skip_ws(L);
	if (end_or_newline(L, t))
		return;
	if (*L->p == '/') {
		size_t pl = path_span(L, L->p), wl = word_span(L, L->p);
		size_t n = pl > wl ? pl : wl;
		if (n) {
			start(L, t, HP_SUDOERS_TK_WORD);
			const char *s = L->p;
			L->p += n;
			if (!set_text(L, t, s, n))
				error(L, t, "\\x00 in a path");
			return;
		}
	}
	if (*L->p == '"') {
		error(L, t, "a quoted value where CWD and CHROOT take a bare path");
		return;
	}
	word(L, t, true);
}

void hp_sudoers_lex_digest(hp_sudoers_lex *L, hp_sudoers_tok *t, size_t len)
{
	skip_ws(L);
	start(L, t, HP_SUDOERS_TK_WORD);
	const char *q = L->p;
	bool hex = true;
	while (q < L->end && ((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z') ||
	                      (*q >= '0' && *q <= '9') || *q == '+' || *q == '/' || *q == '=')) {
		hex = hex && hexval(*q) >= 0;
		q++;
	}
	size_t n = (size_t)(q - L->p);
	bool ok;
	if (n == 0)
		ok = false;
	else if (hex)
		ok = n == 2 * len;
	else if (q[-1] == '=')
		ok = n == 4 * ((len + 2) / 3);
	else
		ok = n == (4 * len + 2) / 3;
	if (!ok) {
		error(L, t, "a digest of the wrong length");
		L->p = q;
		return;
	}
	const char *s = L->p;
	L->p = q;
	set_text(L, t, s, n);
}
