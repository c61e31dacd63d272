/* lexer.re: the policy language's tokens (re2c). The whole file is in
 * memory with a NUL after it, so the scanner runs on a sentinel with no
 * refill; a NUL inside the file is an ordinary (invalid) byte. Lexical
 * mistakes are reported here and handed to the parser as its error token,
 * so that one mistake gives one message. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "parser.h"
#include "lib/utf8.h"
#include "lib/xalloc.h"

static hp_span tok_span(const hp_parse *ps)
{
	hp_span s;
	s.file = ps->src->index;
	s.line = ps->line;
	s.off = (uint32_t)(ps->tok - ps->base);
	s.col = s.off - ps->line_start + 1;
	s.len = (uint32_t)(ps->cur - ps->tok);
	return s;
}

static void newline(hp_parse *ps)
{
	ps->line++;
	ps->line_start = (uint32_t)(ps->cur - ps->base);
	ps->any_token_on_line = false;
}

static void add_comment(hp_parse *ps)
{
	const unsigned char *end = ps->cur;
	if (end > ps->tok && end[-1] == '\r')
		end--;
	ps->comments = hp_xgrow(ps->comments, &ps->comments_cap, ps->ncomments + 1,
				sizeof *ps->comments);
	hp_comment *c = &ps->comments[ps->ncomments++];
	c->off = (uint32_t)(ps->tok - ps->base);
	c->len = (uint32_t)(end - ps->tok);
	c->line = ps->line;
	c->own_line = !ps->any_token_on_line;
}

/* Length of the valid UTF-8 sequence at s (before lim), 0 if invalid: the
 * runtime's one definition (lib/utf8.h). The rules below match any byte
 * and leave validity to it, so the grammar does not spell UTF-8 again. */
static unsigned u8len(const unsigned char *s, const unsigned char *lim)
{
	return (unsigned)hp_utf8_len(s, (size_t)(lim - s));
}

static hp_span sub_span(const hp_parse *ps, const unsigned char *p, uint32_t len)
{
	hp_span s = tok_span(ps);
	s.off = (uint32_t)(p - ps->base);
	s.col = s.off - ps->line_start + 1;
	s.len = len;
	return s;
}

/* A comment may hold any text but must be UTF-8 like the rest. */
static int check_comment(hp_parse *ps)
{
	for (const unsigned char *p = ps->tok; p < ps->cur;) {
		unsigned n = u8len(p, ps->cur);
		if (n == 0 || *p == 0) {
			hp_parse_error(ps, HP_DG_LEX, sub_span(ps, p, 1),
				       *p ? "invalid UTF-8 byte 0x%02x in a comment"
					  : "NUL byte in a comment%.0x",
				       *p);
			return -1;
		}
		p += n;
	}
	return 0;
}

/* The value of a string literal: escapes processed, checked to be UTF-8
 * without NUL. Reports and returns -1 on a mistake. */
static int string_value(hp_parse *ps, hp_strval *out)
{
	const unsigned char *p = ps->tok + 1, *end = ps->cur - 1;
	char *buf = hp_arena_node(ps->arena, (size_t)(end - p) + 1);
	size_t n = 0;
	while (p < end) {
		/* a run of printable ASCII, the common case, in one copy */
		const unsigned char *q = p;
		while (q < end && *q >= 0x20 && *q < 0x80 && *q != '\\')
			q++;
		if (q > p) {
			memcpy(buf + n, p, (size_t)(q - p));
			n += (size_t)(q - p);
			p = q;
			continue;
		}
		if (*p == '\\') {
			char c;
			switch (p[1]) {
			case '"': c = '"'; break;
			case '\\': c = '\\'; break;
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			default: {
				unsigned l = u8len(p + 1, end);
				hp_span at = sub_span(ps, p, 1 + (l ? l : 1));
				hp_diag *g = hp_parse_error(ps, HP_DG_LEX, at,
							    "unknown escape sequence in a string");
				hp_diag_help(g, "the escapes are \\\" \\\\ \\n and \\t");
				return -1;
			}
			}
			buf[n++] = c;
			p += 2;
			continue;
		}
		unsigned l = u8len(p, end);
		if (*p < 0x20 && *p != '\t' && *p != 0) {
			hp_diag *g = hp_parse_error(ps, HP_DG_LEX, sub_span(ps, p, 1),
						    "control character 0x%02x in a string", *p);
			hp_diag_help(g, "the escapes are \\\" \\\\ \\n and \\t");
			return -1;
		}
		if (l == 0 || *p == 0) {
			if (*p == 0)
				hp_parse_error(ps, HP_DG_LEX, sub_span(ps, p, 1),
					       "NUL byte in a string");
			else
				hp_parse_error(ps, HP_DG_LEX, sub_span(ps, p, 1),
					       "invalid UTF-8 byte 0x%02x in a string", *p);
			return -1;
		}
		memcpy(buf + n, p, l);
		n += l;
		p += l;
	}
	buf[n] = '\0';
	out->s = buf;
	out->len = (uint32_t)n;
	return 0;
}

static int digit_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

/* 123, 0o755, 0x1f. Reports and returns -1 on a mistake. */
static int number_value(hp_parse *ps, int64_t *out)
{
	const unsigned char *p = ps->tok, *end = ps->cur;
	unsigned base = 10;
	const char *what = "integer";
	if (end - p >= 2 && p[0] == '0' && (p[1] == 'o' || p[1] == 'x')) {
		base = p[1] == 'o' ? 8 : 16;
		what = base == 8 ? "octal literal" : "hexadecimal literal";
		p += 2;
		if (p == end) {
			hp_parse_error(ps, HP_DG_LEX, tok_span(ps), "%s without digits", what);
			return -1;
		}
	} else if (end - p >= 2 && p[0] == '0' && p[1] >= '0' && p[1] <= '9') {
		hp_diag *g = hp_parse_error(ps, HP_DG_LEX, tok_span(ps),
					    "a decimal integer cannot start with 0");
		hp_diag_help(g, "write 0o%.*s for an octal number", (int)(end - p - 1),
			     (const char *)p + 1);
		return -1;
	}
	uint64_t v = 0;
	bool overflow = false;
	for (; p < end; p++) {
		int d = digit_value(*p);
		if (d >= (int)base) {
			if (base == 10 && !(*p >= '0' && *p <= '9'))
				hp_parse_error(ps, HP_DG_LEX, sub_span(ps, p, (uint32_t)(end - p)),
					       "a letter right after a number");
			else
				hp_parse_error(ps, HP_DG_LEX, sub_span(ps, p, 1),
					       "'%c' is not a digit of a%s %s", *p,
					       base == 8 ? "n" : base == 16 ? "" : "n", what);
			return -1;
		}
		if (v > ((uint64_t)INT64_MAX - (uint64_t)d) / base)
			overflow = true;
		else
			v = v * base + (uint64_t)d;
	}
	if (overflow) {
		hp_diag *g =
			hp_parse_error(ps, HP_DG_INT_RANGE, tok_span(ps), "%s out of range", what);
		hp_diag_help(g, "integers are 64-bit: the largest is 9223372036854775807 "
				"(0o777777777777777777777)");
		return -1;
	}
	*out = (int64_t)v;
	return 0;
}

static int open_bracket(hp_parse *ps, int token)
{
	if (ps->nbrackets >= HP_MAX_BRACKETS) {
		hp_diag *g = hp_parse_error(ps, HP_DG_LIMIT, tok_span(ps),
					    "brackets nested too deeply (the limit is %u)",
					    HP_MAX_BRACKETS);
		hp_diag_help(g, "split the expression with params");
		ps->stop = true;
		ps->last_was_error = true;
		return TK_HP_YYerror;
	}
	ps->brackets[ps->nbrackets].ch = *ps->tok;
	ps->brackets[ps->nbrackets].at = tok_span(ps);
	ps->nbrackets++;
	return token;
}

static int close_bracket(hp_parse *ps, int token)
{
	if (ps->nbrackets)
		ps->nbrackets--;
	return token;
}

#define TOKEN(t)                                   \
	do {                                       \
		*lloc = tok_span(ps);              \
		ps->any_token_on_line = true;      \
		ps->last_was_error = false;        \
		return (t);                        \
	} while (0)

#define LEX_ERROR()                                \
	do {                                       \
		*lloc = tok_span(ps);              \
		ps->any_token_on_line = true;      \
		ps->last_was_error = true;         \
		return TK_HP_YYerror;                 \
	} while (0)

int hp_yylex(HP_YYSTYPE *lval, hp_span *lloc, hp_parse *ps)
{
	if (ps->stop) {
		ps->tok = ps->cur = ps->lim;
		TOKEN(TK_YYEOF);
	}
loop:
	ps->tok = ps->cur;
	/*!re2c
	re2c:define:YYCTYPE = "unsigned char";
	re2c:define:YYCURSOR = "ps->cur";
	re2c:define:YYMARKER = "ps->mark";
	re2c:define:YYLIMIT = "ps->lim";
	re2c:yyfill:enable = 0;
	re2c:eof = 0;

	ident = [a-zA-Z_][a-zA-Z0-9_-]*;

	$ { TOKEN(TK_YYEOF); }
	[ \t\r\f\v]+ { goto loop; }
	"\n" { newline(ps); goto loop; }
	"\xef\xbb\xbf" {
		if (ps->tok == ps->base)
			goto loop;
		hp_parse_error(ps, HP_DG_LEX, tok_span(ps), "a byte order mark inside the file");
		LEX_ERROR();
	}
	"#" [^\n]* {
		add_comment(ps);
		if (check_comment(ps) < 0)
			LEX_ERROR();
		goto loop;
	}

	"policy" { TOKEN(TK_POLICY); }
	"version" { TOKEN(TK_VERSION); }
	"include" { TOKEN(TK_INCLUDE); }
	"param" { TOKEN(TK_PARAM); }
	"role" { TOKEN(TK_ROLE); }
	"rule" { TOKEN(TK_RULE); }
	"as" { TOKEN(TK_AS); }
	"when" { TOKEN(TK_WHEN); }
	"remedy" { TOKEN(TK_REMEDY); }
	"require" { TOKEN(TK_REQUIRE); }
	"forbid" { TOKEN(TK_FORBID); }
	"for" { TOKEN(TK_FOR); }
	"in" { TOKEN(TK_IN); }
	"allow" { TOKEN(TK_ALLOW); }
	"empty" { TOKEN(TK_EMPTY); }
	"max" { TOKEN(TK_MAX); }
	"provider" { TOKEN(TK_PROVIDER); }
	"uid_split" { TOKEN(TK_UID_SPLIT); }
	"default" { TOKEN(TK_DEFAULT); }
	"split" { TOKEN(TK_SPLIT); }
	"needs" { TOKEN(TK_NEEDS); }
	"never" { TOKEN(TK_NEVER); }
	"because" { TOKEN(TK_BECAUSE); }
	"and" { TOKEN(TK_AND); }
	"or" { TOKEN(TK_OR); }
	"not" { TOKEN(TK_NOT); }
	"true" { TOKEN(TK_TRUE); }
	"false" { TOKEN(TK_FALSE); }
	"keep" { TOKEN(TK_KEEP); }
	"caps" { TOKEN(TK_CAPS); }
	"no" { TOKEN(TK_NO); }
	"uid" { TOKEN(TK_UID); }
	"canary" { TOKEN(TK_CANARY); }
	"exists" { TOKEN(TK_EXISTS); }
	"no_new_privs" { TOKEN(TK_NO_NEW_PRIVS); }

	"caps." ident | ident {
		if (ps->cur - ps->tok > (long)HP_MAX_NAME) {
			hp_parse_error(ps, HP_DG_LIMIT, tok_span(ps), "a name longer than %u bytes",
				       HP_MAX_NAME);
			LEX_ERROR();
		}
		lval->name = hp_intern_name(ps->names, (const char *)ps->tok,
					    (size_t)(ps->cur - ps->tok));
		TOKEN(TK_NAME);
	}
	[0-9][0-9a-zA-Z_]* {
		if (number_value(ps, &lval->ival) < 0)
			lval->ival = 0; /* reported; the parse goes on */
		TOKEN(TK_INT);
	}
	"\"" ([^"\\\n] | "\\" [^\n])* "\"" {
		if (string_value(ps, &lval->str) < 0) {
			lval->str.s = ""; /* reported; the parse goes on */
			lval->str.len = 0;
		}
		TOKEN(TK_STRING);
	}
	"\"" ([^"\\\n] | "\\" [^\n])* "\\"? {
		hp_diag *g = hp_parse_error(ps, HP_DG_LEX, tok_span(ps), "unterminated string");
		hp_diag_help(g, "close it with \" on the same line");
		lval->str.s = "";
		lval->str.len = 0;
		TOKEN(TK_STRING);
	}

	"==" { TOKEN(TK_EQ); }
	"!=" { TOKEN(TK_NE); }
	"<=" { TOKEN(TK_LE); }
	">=" { TOKEN(TK_GE); }
	"<" { TOKEN(TK_LT); }
	">" { TOKEN(TK_GT); }
	"=" { TOKEN(TK_ASSIGN); }
	"+" { TOKEN(TK_PLUS); }
	"&" { TOKEN(TK_AMP); }
	"." { TOKEN(TK_DOT); }
	"," { TOKEN(TK_COMMA); }
	"(" { int t = open_bracket(ps, TK_LPAREN); if (t == TK_HP_YYerror) LEX_ERROR(); TOKEN(t); }
	"{" { int t = open_bracket(ps, TK_LBRACE); if (t == TK_HP_YYerror) LEX_ERROR(); TOKEN(t); }
	")" { TOKEN(close_bracket(ps, TK_RPAREN)); }
	"}" { TOKEN(close_bracket(ps, TK_RBRACE)); }

	"&&" { hp_diag *g = hp_parse_error(ps, HP_DG_LEX, tok_span(ps), "'&&' is not an operator");
	       hp_diag_help(g, "write 'and'"); LEX_ERROR(); }
	"||" { hp_diag *g = hp_parse_error(ps, HP_DG_LEX, tok_span(ps), "'||' is not an operator");
	       hp_diag_help(g, "write 'or'"); LEX_ERROR(); }
	"!" { hp_diag *g = hp_parse_error(ps, HP_DG_LEX, tok_span(ps), "'!' is not an operator");
	      hp_diag_help(g, "write 'not'"); LEX_ERROR(); }
	"-" { hp_diag *g = hp_parse_error(ps, HP_DG_LEX, tok_span(ps), "'-' is not an operator");
	      hp_diag_help(g, "the language has no subtraction; '-' only joins words in names");
	      LEX_ERROR(); }
	"'" [^'\n]* "'"? {
		hp_diag *g = hp_parse_error(ps, HP_DG_LEX, tok_span(ps),
					    "strings are written in double quotes");
		hp_diag_help(g, "write \"...\"");
		lval->str.s = "";
		lval->str.len = 0;
		TOKEN(TK_STRING);
	}

	* {
		const unsigned char c = *ps->tok;
		unsigned n = u8len(ps->tok, ps->lim);
		if (c == 0) {
			while (ps->cur < ps->lim && *ps->cur == 0)
				ps->cur++; /* one message for a run */
			hp_parse_error(ps, HP_DG_LEX, tok_span(ps), "NUL byte in the source");
		} else if (n == 0) {
			/* one message for a run of bad bytes */
			while (ps->cur < ps->lim && *ps->cur && u8len(ps->cur, ps->lim) == 0)
				ps->cur++;
			hp_parse_error(ps, HP_DG_LEX, tok_span(ps), "invalid UTF-8 byte 0x%02x", c);
		} else if (n > 1) {
			ps->cur = ps->tok + n;
			hp_parse_error(ps, HP_DG_LEX, tok_span(ps), "unexpected character '%.*s'",
				       (int)n, (const char *)ps->tok);
		} else if (c < 0x20 || c == 0x7f) {
			hp_parse_error(ps, HP_DG_LEX, tok_span(ps),
				       "unexpected control character 0x%02x", c);
		} else {
			hp_parse_error(ps, HP_DG_LEX, tok_span(ps), "unexpected character '%c'", c);
		}
		LEX_ERROR();
	}
	*/
	return TK_YYEOF; /* not reached: every rule returns or loops */
}
