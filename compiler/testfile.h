/* testfile.h: a policy's test cases, read from a YAML test file
 * (docs/testing.md). A file gives defaults (policy, provider, environment,
 * params, facts) that each case may extend or replace, and the cases: what
 * the sandbox looks like (its facts) and what the decision must be. Paths
 * in a file are relative to the file's directory. Nothing here runs a
 * case (testrun.h does). */
#ifndef HP_TESTFILE_H
#define HP_TESTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/strv.h"
#include "lib/xalloc.h"
#include "model/domain.h"

/* Facts written inline in a test file: YAML text the facts reader reads as
 * if it were a file, padded so that its lines and columns are the test
 * file's own (its messages then point into the test file). */
typedef struct {
	char *text;
	size_t len;
} hp_inline_facts;

typedef struct {
	char *id;
	hp_result result;
	uint32_t line, col;
} hp_expect_rule;

typedef struct {
	char *name;
	const char *file; /* the test file, as found */
	uint32_t line, col;
	char *policy;   /* path, resolved against the test file's directory */
	int provider;   /* hp_provider */
	hp_strv env_names, env_values;     /* the deciding call's environment */
	hp_strv param_names, param_values; /* --param NAME=VALUE */
	hp_strv doc_names, doc_files;      /* --document NAME=FILE */
	hp_strv facts_files;               /* file's first, then the case's */
	hp_strv waiver_files;              /* --waivers, file's first */
	hp_inline_facts *inline_facts;     /* applied after the files */
	size_t ninline;
	/* expectations: a decision per mode (-1: not checked), rules */
	int modes[HP_MODE_COUNT];
	uint32_t mode_line[HP_MODE_COUNT];
	hp_expect_rule *rules;
	size_t nrules;
	int other_rules; /* hp_result every rule not listed must have, or -1 */
	uint32_t other_line;
} hp_test_case;

typedef struct {
	char *path;
	hp_test_case *cases;
	size_t ncases;
} hp_test_file;

/* Read the test file at path. false with err = "PATH:LINE:COL: what". */
bool hp_test_file_load(const char *path, hp_test_file *tf, hp_err *err);
/* The same from memory; path names it and is the base of relative paths. */
bool hp_test_file_parse(const char *path, const char *text, size_t len, hp_test_file *tf,
                        hp_err *err);
void hp_test_file_free(hp_test_file *tf);

#endif
