/* test_dirents.c: a directory listed with getdents64 gives every name once
 * with its type, across more than one buffer, ends cleanly, keeps its
 * buffer for the next listing, reports a directory removed meanwhile, and
 * refuses records that do not fit what the kernel returned rather than
 * reading past them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "os/dirents.h"

enum { NFILES = 1500 };

static char top[64];

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof top, "/tmp/hp-dirents.XXXXXX");
	if (!mkdtemp(top))
		return -1;
	char p[256];
	/* long names, so that the listing needs several reads of the buffer */
	for (int i = 0; i < NFILES; i++) {
		snprintf(p, sizeof p, "%s/file-%04d-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", top, i);
		int fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		if (fd < 0)
			return -1;
		close(fd);
	}
	snprintf(p, sizeof p, "%s/sub", top);
	if (mkdir(p, 0755) < 0)
		return -1;
	snprintf(p, sizeof p, "%s/link", top);
	return symlink("sub", p);
}

static int teardown(void **state)
{
	(void)state;
	char p[256];
	for (int i = 0; i < NFILES; i++) {
		snprintf(p, sizeof p, "%s/file-%04d-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", top, i);
		unlink(p);
	}
	snprintf(p, sizeof p, "%s/link", top);
	unlink(p);
	snprintf(p, sizeof p, "%s/sub", top);
	rmdir(p);
	rmdir(top);
	return 0;
}

static int open_top(void)
{
	int fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	return fd;
}

/* List top once; count what is seen. */
static void list_once(hp_dirents *d, int *files, int *dirs, int *links, int *dots)
{
	static unsigned char seen[NFILES];
	memset(seen, 0, sizeof seen);
	*files = *dirs = *links = *dots = 0;
	hp_os_dirents_start(d, open_top());
	const char *name;
	unsigned char type;
	while ((name = hp_os_dirents_next(d, &type)) != NULL) {
		int i;
		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
			assert_int_equal(type, DT_DIR);
			(*dots)++;
		} else if (strcmp(name, "sub") == 0) {
			assert_int_equal(type, DT_DIR);
			(*dirs)++;
		} else if (strcmp(name, "link") == 0) {
			assert_int_equal(type, DT_LNK);
			(*links)++;
		} else {
			assert_int_equal(sscanf(name, "file-%d-", &i), 1);
			assert_true(i >= 0 && i < NFILES);
			assert_int_equal(seen[i], 0); /* each once */
			seen[i] = 1;
			assert_int_equal(type, DT_REG);
			(*files)++;
		}
	}
	assert_int_equal(errno, 0); /* the end, not an error */
	hp_os_dirents_end(d);
	assert_int_equal(d->fd, -1);
}

static void test_lists_every_name_once(void **state)
{
	(void)state;
	hp_dirents d = {.fd = -1};
	int files, dirs, links, dots;
	list_once(&d, &files, &dirs, &links, &dots);
	assert_int_equal(files, NFILES);
	assert_int_equal(dirs, 1);
	assert_int_equal(links, 1);
	assert_int_equal(dots, 2);
	/* the buffer is kept, and a second listing with it sees the same */
	char *buf = d.buf;
	assert_non_null(buf);
	list_once(&d, &files, &dirs, &links, &dots);
	assert_ptr_equal(d.buf, buf);
	assert_int_equal(files, NFILES);
	hp_os_dirents_free(&d);
	assert_null(d.buf);
}

static void test_not_a_directory(void **state)
{
	(void)state;
	char p[256];
	snprintf(p, sizeof p, "%s/file-0000-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", top);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	hp_dirents d = {.fd = -1};
	hp_os_dirents_start(&d, fd);
	unsigned char type;
	assert_null(hp_os_dirents_next(&d, &type));
	assert_int_equal(errno, ENOTDIR);
	hp_os_dirents_end(&d);
	hp_os_dirents_free(&d);
}

/* A directory removed after it was opened: an error, ENOENT, not an end;
 * the tree walk makes it unknown (the name may hold another directory by
 * now), the setuid scan its end (it is empty for good). */
static void test_removed_directory(void **state)
{
	(void)state;
	char p[256];
	snprintf(p, sizeof p, "%s/gone", top);
	assert_int_equal(mkdir(p, 0755), 0);
	int fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(rmdir(p), 0);
	hp_dirents d = {.fd = -1};
	hp_os_dirents_start(&d, fd);
	unsigned char type;
	assert_null(hp_os_dirents_next(&d, &type));
	assert_int_equal(errno, ENOENT);
	hp_os_dirents_end(&d);
	hp_os_dirents_free(&d);
}

/* A record as getdents64 lays it out, at off in buf: its length, type and
 * name (copied, NUL included, unless nul is 0). */
static size_t put(char *buf, size_t off, unsigned short reclen, unsigned char type,
                  const char *name, int nul)
{
	uint64_t ino = 1;
	int64_t next = 0;
	memcpy(buf + off, &ino, sizeof ino);
	memcpy(buf + off + 8, &next, sizeof next);
	memcpy(buf + off + 16, &reclen, sizeof reclen);
	buf[off + 18] = (char)type;
	memcpy(buf + off + 19, name, strlen(name) + (nul ? 1 : 0));
	return off + reclen;
}

/* d made to hold len bytes of buf as if the kernel had returned them */
static void held(hp_dirents *d, const char *buf, size_t len)
{
	d->fd = -1;
	d->buf = hp_xmalloc(HP_DIRENTS_BUF);
	memcpy(d->buf, buf, len);
	d->pos = 0;
	d->len = len;
}

static void test_malformed_records_refused(void **state)
{
	(void)state;
	char buf[256];
	hp_dirents d;
	unsigned char type;
	const char *name;

	/* a good record, then one whose length is 0: no loop, EIO */
	memset(buf, 0, sizeof buf);
	size_t off = put(buf, 0, 24, DT_REG, "ok", 1);
	off = put(buf, off, 0, DT_REG, "x", 1);
	held(&d, buf, off + 24);
	name = hp_os_dirents_next(&d, &type);
	assert_non_null(name);
	assert_string_equal(name, "ok");
	assert_int_equal(type, DT_REG);
	assert_null(hp_os_dirents_next(&d, &type));
	assert_int_equal(errno, EIO);
	hp_os_dirents_free(&d);

	/* a record longer than what was returned */
	memset(buf, 0, sizeof buf);
	off = put(buf, 0, 200, DT_REG, "long", 1);
	held(&d, buf, 48);
	assert_null(hp_os_dirents_next(&d, &type));
	assert_int_equal(errno, EIO);
	hp_os_dirents_free(&d);

	/* a name with no end inside its record */
	memset(buf, 'n', sizeof buf);
	off = put(buf, 0, 24, DT_REG, "abcde", 0);
	held(&d, buf, 24);
	assert_null(hp_os_dirents_next(&d, &type));
	assert_int_equal(errno, EIO);
	hp_os_dirents_free(&d);

	/* fewer bytes left than a record's head */
	memset(buf, 0, sizeof buf);
	off = put(buf, 0, 24, DT_DIR, ".", 1);
	held(&d, buf, 24 + 10);
	name = hp_os_dirents_next(&d, &type);
	assert_non_null(name);
	assert_string_equal(name, ".");
	assert_null(hp_os_dirents_next(&d, &type));
	assert_int_equal(errno, EIO);
	hp_os_dirents_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lists_every_name_once),
	    cmocka_unit_test(test_not_a_directory),
	    cmocka_unit_test(test_removed_directory),
	    cmocka_unit_test(test_malformed_records_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
