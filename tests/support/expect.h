/* expect.h: EXPECT, the string assertion of the tests whose cases are
 * messages: run with any argument, such a test prints what each case got
 * instead of checking it, so that a changed message is copied from the
 * output, not typed. */
#ifndef HP_EXPECT_H
#define HP_EXPECT_H

#include <stdbool.h>
#include <stdio.h>

/* Set by the test's main: argc > 1. */
extern bool expect_printing;

#define EXPECT(got, want)                                              \
	do {                                                           \
		const char *g_ = (got);                                \
		if (expect_printing)                                   \
			printf("%s:%d: %s\n", __func__, __LINE__, g_); \
		else                                                   \
			assert_string_equal(g_, want);                 \
	} while (0)

#endif
