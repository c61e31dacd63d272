/* sudo_conf.h: etc/sudo.conf, read for what decides sudo's policy: which
 * policy plugin runs and where its sudoers file is. A "Plugin
 * sudoers_policy sudoers.so sudoers_file=PATH" line moves the sudoers file;
 * any other policy plugin, or anything else the file does not usually hold,
 * makes the answer unknown (fail closed), though sudo itself would ignore an
 * unknown line. Lines are read as sudo reads them: '#' starts a comment
 * anywhere, a trailing backslash continues the line, keywords (Plugin,
 * Path, Set, Debug) in any case. */
#ifndef HP_SUDO_CONF_H
#define HP_SUDO_CONF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
	char *sudoers_file; /* the sudoers file sudo reads */
	bool ok;            /* false: the policy cannot be read statically; why says why */
	char why[512];
} hp_sudo_conf;

/* No sudo.conf: the defaults; sudoers is the compiled-in sudoers path that
 * goes with this sudo.conf. */
void hp_etc_sudo_conf_default(hp_sudo_conf *c, const char *sudoers);
void hp_etc_sudo_conf_parse(const char *buf, size_t len, const char *file, const char *sudoers,
                        hp_sudo_conf *c);
void hp_etc_sudo_conf_free(hp_sudo_conf *c);

#endif
