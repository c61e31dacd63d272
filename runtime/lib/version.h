/* version.h: the version of hangar-policy, defined once. The bytecode format
 * has its own version in the bytecode header; this is the program's. */
#ifndef HP_VERSION_H
#define HP_VERSION_H

#define HP_VERSION "0.1.0"

#endif
