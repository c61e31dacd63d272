/* python_paths.h: what CPython's startup reads from the image, for
 * command_files (command_files.h) when what it reaches is a CPython
 * interpreter (the path it is run by, or the file its symlinks end on,
 * named python3 or python3.N). `python3 -I` ignores the environment and
 * the user's site directory, not these: a module, a .pth file or a
 * sitecustomize planted in one runs inside the interpreter.
 *
 * Found as CPython's getpath finds them, without running it:
 *
 *   - pyvenv.cfg one level above the directory the interpreter is run
 *     from and beside it: a virtual environment moves everything below,
 *     so an existing one is unknown (not modelled); absent, both are
 *     listed (whoever could create one could move the prefix);
 *   - pybuilddir.txt and Modules/Setup.local beside the real file (a
 *     build directory: unknown when present, listed when absent);
 *   - the prefix: the first directory from the real file's directory
 *     upwards (its symlinks resolved, as realpath does) holding
 *     lib/python3.N/os.py or os.pyc; each lib/python3.N looked in below
 *     it is listed (a landmark planted there moves the prefix), and so
 *     are those above it up to the one holding lib-dynload when that is
 *     further up (the exec prefix). No landmark anywhere: CPython falls back on a prefix
 *     built into it, unknown here;
 *   - below the prefix: lib/python3N.zip and the tree lib/python3.N (the
 *     standard library, lib-dynload, site-packages and Debian's
 *     dist-packages in it); for the prefix /usr, what Debian's site.py
 *     and sitecustomize add: /usr/local/lib/python3.N/dist-packages,
 *     /usr/lib/python3/dist-packages, /etc/python3.N and /etc/python3;
 *   - every directory a path line of a .pth file in a site directory adds
 *     to sys.path (site.py's addpackage: relative to the site directory,
 *     only one that exists). An import line is code in the .pth file,
 *     which is in a listed tree.
 *
 * N comes from the real file's name (python3.N); a real file named
 * python3 tells none, and every lib/python3.N on the way up is taken (at
 * most HP_PYTHON_MAX_VERSIONS). Not listed: the user's site directory
 * (under the home of whoever runs it, checked with that home) and what
 * PYTHONHOME or PYTHONPATH name (the caller's environment). A platlibdir
 * other than lib (Fedora's lib64) finds no landmark here: unknown. */
#ifndef HP_PYTHON_PATHS_H
#define HP_PYTHON_PATHS_H

#include "lib/strv.h"
#include "lib/tri.h"
#include "lib/xalloc.h"
#include "os/safe_path.h"

enum { HP_PYTHON_MAX_VERSIONS = 16 };

/* N of a file named python3.N; -1 for python3; -2 for any other. Pure. */
int hp_os_python_version(const char *name);

/* exe: the path the interpreter is run by; real: the file its symlinks
 * end on (both absolute, inside r). HP_FALSE when neither is named like
 * CPython; HP_TRUE with *out the paths, each once; HP_UNKNOWN with why. */
hp_tri hp_os_python_paths(const hp_root *r, const char *exe, const char *real, hp_strv *out,
                          hp_err *why);

#endif
