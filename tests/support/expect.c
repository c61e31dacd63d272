/* expect.c: the switch expect.h's EXPECT reads. */
#include "expect.h"

bool expect_printing;
