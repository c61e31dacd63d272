/* sudoers_lex.h: the tokens of a sudoers file, cut as sudo's own lexer
 * (plugins/sudoers/toke.l) cuts them, so that what we read as one thing sudo
 * never reads as another. The parser asks for a token in the mode the
 * grammar is in, the way sudo's lexer switches start conditions:
 *
 *   sd_lex_next      the ordinary mode (sudo's INITIAL)
 *   sd_lex_binding   a Defaults binding list, where a blank ends the list
 *   sd_lex_defname   a Defaults parameter name (STARTDEFS)
 *   sd_lex_defvalue  a Defaults parameter value (INDEFS)
 *   sd_lex_args      the arguments after a command (GOTCMND, GOTREGEX)
 *   sd_lex_incpath   the path after @include or #include (GOTINC)
 *   sd_lex_optpath   the value of CWD= or CHROOT= (EXPECTPATH)
 *   sd_lex_digest    a digest after "sha256:" (WANTDIGEST)
 *
 * Comments run from '#' to the end of the line unless '#' starts a uid
 * ("#1000", "#-1"); a backslash before a newline continues the line;
 * quoted strings, \xHH and backslash escapes are undone as sudo undoes them.
 * Characters no rule accepts are TK_ERROR tokens carrying the reason. */
#ifndef HP_SUDOERS_LEX_H
#define HP_SUDOERS_LEX_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
	TK_EOL,   /* end of line (a comment ends one too), or of the file (eof set) */
	TK_ERROR, /* text: why */
	TK_WORD,  /* text unescaped; starts with '%' for a group, '+' for a netgroup */
	TK_ALIAS, /* [A-Z][A-Z0-9_]*, also the option names TIMEOUT, CWD, ... */
	TK_ALL,   /* ALL */
	TK_TAG,   /* NOPASSWD: and the other tags, colon included; text is the name */
	TK_BANG,  /* an odd number of '!' */
	TK_COMMA,
	TK_COLON,
	TK_EQ,
	TK_PLUSEQ,  /* += (Defaults) */
	TK_MINUSEQ, /* -= (Defaults) */
	TK_LPAREN,
	TK_RPAREN,
	TK_PATH,       /* a fully qualified command or directory */
	TK_REGEX,      /* ^...$ as a command */
	TK_DIGEST,     /* sha224, sha256, sha384, sha512 */
	TK_SUDOEDIT,   /* sudoedit */
	TK_INCLUDE,    /* @include */
	TK_INCLUDEDIR, /* @includedir */
	TK_DEFVAR,     /* a Defaults parameter name */
	TK_BLANK,      /* in a binding list: the blank that ends it */
} sd_tok_kind;

typedef struct {
	sd_tok_kind kind;
	const char *text; /* NUL-terminated; valid until the next token */
	size_t len;
	unsigned line, col;
	bool quoted, escaped; /* written in quotes; had backslash escapes */
	bool eof;
	const char *raw; /* where the token starts in the buffer */
} sd_tok;

typedef struct {
	const char *buf, *p, *end;
	unsigned line;
	const char *line_start;
	bool continued; /* a continuation line was joined since sd_lex_entry */
	char *scratch;
	size_t scap;
} sd_lex;

/* buf must not contain NUL bytes (the caller rejects such files). */
void sd_lex_init(sd_lex *L, const char *buf, size_t len);
void sd_lex_free(sd_lex *L);

/* At the start of an entry: skip blanks and continuation lines; true when
 * there is anything left. Resets continued (set when a continuation was
 * skipped here, which makes keywords that must start a line errors). */
bool sd_lex_entry(sd_lex *L);
/* Whether the entry starts with "#include" or "#includedir" followed by a
 * blank, in column 1: those are directives, not comments. Returns 0, or 1
 * for #include, 2 for #includedir, and consumes the word. */
int sd_lex_hash_include(sd_lex *L);
/* The character at the cursor (-1 at the end). */
int sd_lex_peek(const sd_lex *L);
/* Skip the rest of the line, continuations included: after an error. */
void sd_lex_skip_line(sd_lex *L);

void sd_lex_next(sd_lex *L, sd_tok *t);
void sd_lex_binding(sd_lex *L, sd_tok *t);
void sd_lex_defname(sd_lex *L, sd_tok *t);
void sd_lex_defvalue(sd_lex *L, sd_tok *t);
/* Consume a command's arguments: t is TK_EOL (consumed nothing more, the
 * next token follows) or TK_ERROR. */
void sd_lex_args(sd_lex *L, sd_tok *t);
void sd_lex_incpath(sd_lex *L, sd_tok *t);
void sd_lex_optpath(sd_lex *L, sd_tok *t);
/* A hex or base64 digest of len bytes (sudo accepts only the exact length:
 * 2*len hex digits, or base64 with or without padding); TK_ERROR else. */
void sd_lex_digest(sd_lex *L, sd_tok *t, size_t len);

/* The name of a kind, for messages ("','", "end of line"). */
const char *sd_tok_name(sd_tok_kind k);

#endif
