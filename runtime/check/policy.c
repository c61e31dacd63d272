/* policy.c: a policy file, source or bytecode, to a verified program
 * (policy.h). The source compiler is a hook so that the runtime alone
 * never links compiler code. */
#include "check/policy.h"

#include "check/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static hp_source_compiler source_compiler;

void hp_set_source_compiler(hp_source_compiler fn)
{
	source_compiler = fn;
}

int hp_policy_is_bytecode(const char *path, hp_err *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		hp_err_set(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		hp_err_set(err, "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	uint8_t head[HP_BC_MAGIC_LEN];
	ssize_t n;
	do
		n = read(fd, head, sizeof head);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0) {
		hp_err_set(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	return n == HP_BC_MAGIC_LEN && memcmp(head, HP_BC_MAGIC, HP_BC_MAGIC_LEN) == 0;
}

hp_bc *hp_policy_load(const char *path, hp_err *err)
{
	err->msg[0] = '\0';
	int is_bc = hp_policy_is_bytecode(path, err);
	if (is_bc < 0)
		return NULL;
	if (is_bc)
		return hp_bc_load_file(path, err);
	if (!source_compiler) {
		hp_err_set(err,
		           "%s: not compiled bytecode; this program runs compiled policies only "
		           "(compile it with 'hangar-policy compile %s')",
		           path, path);
		return NULL;
	}
	size_t len;
	uint8_t *data = source_compiler(path, NULL, 0, &len);
	if (!data)
		return NULL;
	hp_bc *bc = hp_bc_load(path, data, len, err);
	free(data);
	return bc;
}

hp_bc *hp_policy_load_operand(const char *operand, hp_err *err)
{
	if (!hp_cli_is_stdio(operand))
		return hp_policy_load(operand, err);
	err->msg[0] = '\0';
	uint8_t *data;
	size_t len;
	if (!hp_cli_read_stdin(HP_POLICY_MAX_STDIN, &data, &len, err))
		return NULL;
	hp_bc *bc = hp_policy_load_mem(HP_STDIN_NAME, data, len, err);
	free(data);
	return bc;
}

hp_bc *hp_policy_load_mem(const char *name, const uint8_t *data, size_t len, hp_err *err)
{
	err->msg[0] = '\0';
	if (len >= HP_BC_MAGIC_LEN && memcmp(data, HP_BC_MAGIC, HP_BC_MAGIC_LEN) == 0)
		return hp_bc_load(name, data, len, err);
	if (!source_compiler) {
		hp_err_set(err,
		           "%s: not compiled bytecode; this program runs compiled policies only "
		           "(compile it with 'hangar-policy compile')",
		           name);
		return NULL;
	}
	size_t n;
	uint8_t *bc_data = source_compiler(name, (const char *)data, len, &n);
	if (!bc_data)
		return NULL;
	hp_bc *bc = hp_bc_load(name, bc_data, n, err);
	free(bc_data);
	return bc;
}
