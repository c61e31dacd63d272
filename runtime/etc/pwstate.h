/* pwstate.h: the state of a stored password (shadow.h says how each is
 * read): empty, locked, a hash, or unknown. Its own header so that the
 * parts that only pass the answer on (probe/etcview.h) need not see the
 * user database's types. */
#ifndef HP_PWSTATE_H
#define HP_PWSTATE_H

typedef enum { HP_PW_EMPTY, HP_PW_LOCKED, HP_PW_HASH, HP_PW_UNKNOWN } hp_pw_state;

#endif
