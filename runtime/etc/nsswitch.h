/* nsswitch.h: whether etc/nsswitch.conf lets anything but the files answer
 * for users, groups, passwords and sudoers. The runtime reads etc/passwd,
 * etc/group, etc/shadow and etc/sudoers itself; that is only the whole truth
 * when the system would consult nothing else.
 *
 * Per database the file says one of:
 *   FILES          only "files" (or no line at all: glibc's default is files,
 *                  and a missing nsswitch.conf means the same; sudo reads
 *                  only etc/sudoers when it finds no "sudoers:" line);
 *   FILES_SYSTEMD  "files" and "systemd" (Debian's and Ubuntu's default).
 *                  nss-systemd adds the users of systemd's user records:
 *                  JSON drop-ins in the directories of hp_etc_nss_userdb_paths
 *                  and the varlink services in /run/systemd/userdb/
 *                  (DynamicUser=, homed, machined), and memberships from
 *                  them. With none of those it adds only synthesized root
 *                  and nobody, so the caller, which can look, decides;
 *   OTHER          any other source: ldap, sss, nis, compat, winbind,
 *                  extrausers, db, ... can supply entries the files lack;
 *   MALFORMED      a line for the database that could not be read.
 * The group database also counts "initgroups:" lines, which decide a
 * user's supplementary groups. Every line for a database counts, not only
 * the first or last. Database names are matched without regard to case
 * (more lines count, never fewer); glibc's service names are case-sensitive,
 * so "Files" is OTHER, while sudo's are not. */
#ifndef HP_NSSWITCH_H
#define HP_NSSWITCH_H

#include <stddef.h>

#include "lib/tri.h"
#include "lib/xalloc.h"

typedef enum { HP_NSS_PASSWD, HP_NSS_GROUP, HP_NSS_SHADOW, HP_NSS_SUDOERS, HP_NSS_NDB } hp_nss_db;

typedef enum { HP_NSS_FILES, HP_NSS_FILES_SYSTEMD, HP_NSS_OTHER, HP_NSS_MALFORMED } hp_nss_sources;

typedef struct {
	hp_nss_sources src[HP_NSS_NDB];
	char why[HP_NSS_NDB][256]; /* what decided it, with file:line */
} hp_nsswitch;

extern const char *const hp_etc_nss_db_names[HP_NSS_NDB];

/* Where systemd finds user and group records (NULL-terminated): if any of
 * these holds an entry, "systemd" can add users the files do not have. */
extern const char *const hp_etc_nss_userdb_paths[];

/* No nsswitch.conf: every database is FILES. */
void hp_etc_nsswitch_default(hp_nsswitch *ns, const char *file);

/* Read nsswitch.conf from a buffer (need not be NUL-terminated). */
void hp_etc_nsswitch_parse(const char *buf, size_t len, const char *file, hp_nsswitch *ns);

/* Whether the files are the only source for db: HP_TRUE for FILES;
 * for FILES_SYSTEMD the answer is the negation of systemd_records (whether
 * any systemd user record exists, which the caller checks); HP_FALSE for
 * OTHER; HP_UNKNOWN for MALFORMED. why says why it is not HP_TRUE. */
hp_tri hp_etc_nsswitch_files_only(const hp_nsswitch *ns, hp_nss_db db, hp_tri systemd_records,
                              hp_err *why);

#endif
