/* tri.h: three-valued answers. A question the runtime asks the system is
 * true, false, or unknown (it could not be asked, or the answer could not be
 * trusted). Unknown is never a pass: code that turns an answer into a verdict
 * must treat HP_UNKNOWN as "not proven". */
#ifndef HP_TRI_H
#define HP_TRI_H

typedef enum { HP_FALSE = 0, HP_TRUE = 1, HP_UNKNOWN = 2 } hp_tri;

static inline hp_tri hp_tri_not(hp_tri a)
{
	return a == HP_UNKNOWN ? HP_UNKNOWN : (a == HP_TRUE ? HP_FALSE : HP_TRUE);
}

/* Kleene conjunction and disjunction: a known false (true) decides. */
static inline hp_tri hp_tri_and(hp_tri a, hp_tri b)
{
	if (a == HP_FALSE || b == HP_FALSE)
		return HP_FALSE;
	return (a == HP_TRUE && b == HP_TRUE) ? HP_TRUE : HP_UNKNOWN;
}

static inline hp_tri hp_tri_or(hp_tri a, hp_tri b)
{
	if (a == HP_TRUE || b == HP_TRUE)
		return HP_TRUE;
	return (a == HP_FALSE && b == HP_FALSE) ? HP_FALSE : HP_UNKNOWN;
}

#endif
