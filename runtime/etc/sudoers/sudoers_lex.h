/* sudoers_lex.h: the tokens of a sudoers file, cut as sudo's own lexer
 * (plugins/sudoers/toke.l) cuts them, so that what we read as one thing sudo
 * never reads as another. The parser asks for a token in the mode the
 * grammar is in, the way sudo's lexer switches start conditions:
 *
 *   hp_sudoers_lex_next      the ordinary mode (sudo's INITIAL)
 *   hp_sudoers_lex_binding   a Defaults binding list, where a blank ends the list
 *   hp_sudoers_lex_defname   a Defaults parameter name (STARTDEFS)
 *   hp_sudoers_lex_defvalue  a Defaults parameter value (INDEFS)
 *   hp_sudoers_lex_args      the arguments after a command (GOTCMND, GOTREGEX)
 *   hp_sudoers_lex_incpath   the path after @include or #include (GOTINC)
 *   hp_sudoers_lex_optpath   the value of CWD= or CHROOT= (EXPECTPATH)
 *   hp_sudoers_lex_digest    a digest after "sha256:" (WANTDIGEST)
 *
 * Comments run from '#' to the end of the line unless '#' starts a uid
 * ("#1000", "#-1"); a backslash before a newline continues the line;
 * quoted strings, \xHH and backslash escapes are undone as sudo undoes them.
 * Characters no rule accepts are HP_SUDOERS_TK_ERROR tokens carrying the reason. */
#ifndef HP_SUDOERS_LEX_H
#define HP_SUDOERS_LEX_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
	HP_SUDOERS_TK_EOL,   /* end of line (a comment ends one too), or of the file (eof set) */
	HP_SUDOERS_TK_ERROR, /* text: why */
	HP_SUDOERS_TK_WORD,  /* text unescaped; starts with '%' for a group, '+' for a netgroup */
	HP_SUDOERS_TK_ALIAS, /* [A-Z][A-Z0-9_]*, also the option names TIMEOUT, CWD, ... */
	HP_SUDOERS_TK_ALL,   /* ALL */
	HP_SUDOERS_TK_TAG,   /* NOPASSWD: and the other tags, colon included; text is the name */
	HP_SUDOERS_TK_BANG,  /* an odd number of '!' */
	HP_SUDOERS_TK_COMMA,
	HP_SUDOERS_TK_COLON,
	HP_SUDOERS_TK_EQ,
	HP_SUDOERS_TK_PLUSEQ,  /* += (Defaults) */
	HP_SUDOERS_TK_MINUSEQ, /* -= (Defaults) */
	HP_SUDOERS_TK_LPAREN,
	HP_SUDOERS_TK_RPAREN,
	HP_SUDOERS_TK_PATH,       /* a fully qualified command or directory */
	HP_SUDOERS_TK_REGEX,      /* ^...$ as a command */
	HP_SUDOERS_TK_DIGEST,     /* sha224, sha256, sha384, sha512 */
	HP_SUDOERS_TK_SUDOEDIT,   /* sudoedit */
	HP_SUDOERS_TK_INCLUDE,    /* @include */
	HP_SUDOERS_TK_INCLUDEDIR, /* @includedir */
	HP_SUDOERS_TK_DEFVAR,     /* a Defaults parameter name */
	HP_SUDOERS_TK_BLANK,      /* in a binding list: the blank that ends it */
} hp_sudoers_tok_kind;

typedef struct {
	hp_sudoers_tok_kind kind;
	const char *text; /* NUL-terminated; valid until the next token */
	size_t len;
	unsigned line, col;
	bool quoted, escaped; /* written in quotes; had backslash escapes */
	bool eof;
	const char *raw; /* where the token starts in the buffer */
} hp_sudoers_tok;

typedef struct {
	const char *buf, *p, *end;
	unsigned line;
	const char *line_start;
	bool continued; /* a continuation line was joined since hp_sudoers_lex_entry */
	char *scratch;
	size_t scap;
} hp_sudoers_lex;

/* buf must not contain NUL bytes (the caller rejects such files). */
void hp_sudoers_lex_init(hp_sudoers_lex *L, const char *buf, size_t len);
void hp_sudoers_lex_free(hp_sudoers_lex *L);

/* At the start of an entry: skip blanks and continuation lines; true when
 * there is anything left. Resets continued (set when a continuation was
 * skipped here, which makes keywords that must start a line errors). */
bool hp_sudoers_lex_entry(hp_sudoers_lex *L);
/* Whether the entry starts with "#include" or "#includedir" followed by a
 * blank, in column 1: those are directives, not comments. Returns 0, or 1
 * for #include, 2 for #includedir, and consumes the word. */
int hp_sudoers_lex_hash_include(hp_sudoers_lex *L);
/* The character at the cursor (-1 at the end). */
int hp_sudoers_lex_peek(const hp_sudoers_lex *L);
/* Skip the rest of the line, continuations included: after an error. */
void hp_sudoers_lex_skip_line(hp_sudoers_lex *L);

void hp_sudoers_lex_next(hp_sudoers_lex *L, hp_sudoers_tok *t);
void hp_sudoers_lex_binding(hp_sudoers_lex *L, hp_sudoers_tok *t);
void hp_sudoers_lex_defname(hp_sudoers_lex *L, hp_sudoers_tok *t);
void hp_sudoers_lex_defvalue(hp_sudoers_lex *L, hp_sudoers_tok *t);
/* Consume a command's arguments: t is HP_SUDOERS_TK_EOL (consumed nothing more, the
 * next token follows) or HP_SUDOERS_TK_ERROR. */
void hp_sudoers_lex_args(hp_sudoers_lex *L, hp_sudoers_tok *t);
void hp_sudoers_lex_incpath(hp_sudoers_lex *L, hp_sudoers_tok *t);
void hp_sudoers_lex_optpath(hp_sudoers_lex *L, hp_sudoers_tok *t);
/* A hex or base64 digest of len bytes (sudo accepts only the exact length:
 * 2*len hex digits, or base64 with or without padding); HP_SUDOERS_TK_ERROR else. */
void hp_sudoers_lex_digest(hp_sudoers_lex *L, hp_sudoers_tok *t, size_t len);

/* The name of a kind, for messages ("','", "end of line"). */
const char *hp_sudoers_tok_name(hp_sudoers_tok_kind k);

#endif
