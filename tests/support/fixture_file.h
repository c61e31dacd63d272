/* fixture_file.h: reading test fixture files (files under tests/fixtures/, paths
 * relative to the repository root, where the tests run). */
#ifndef HP_TEST_FIXTURE_FILE_H
#define HP_TEST_FIXTURE_FILE_H

#include <stddef.h>

/* The whole file, NUL-terminated (len excludes the NUL); aborts the test
 * program when it cannot be read. Free with free(). */
char *hp_fixture_read(const char *path, size_t *len);

#endif
