/* version.h: the version of hangar-policy, defined once. The bytecode format
 * has its own version in the bytecode header; this is the program's. */
#ifndef HP_VERSION_H
#define HP_VERSION_H

#define HP_VERSION "0.1.0"
/* the project's home, where SARIF readers send a person (tool.driver.informationUri) */
#define HP_INFORMATION_URI "https://github.com/hangar/hangar-policy"

#endif
