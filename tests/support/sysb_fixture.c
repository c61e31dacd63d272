/* sysb_fixture.c: the fixture image the sysbackend unit tests
 * (test_sysb_*.c) ask their probes of, and the helpers that ask them
 * (sysb_fixture.h). */
#include "sysb_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

void sx_rm(const char *dir, const char *rel)
{
	char *p = fx_path(dir, rel);
	unlink(p);
	free(p);
}

void sx_put(const char *dir, const char *rel, const char *text)
{
	char *p = fx_path(dir, rel);
	FILE *fp = fopen(p, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(chmod(p, 0644), 0);
	free(p);
}

void sx_image_etc(const char *d)
{
	char pw[1024], gr[1024];
	fx_dir(d, "etc", 0755, 0, 0);
	snprintf(pw, sizeof pw,
	         "root:x:0:0:root:/root:/bin/sh\n"
	         "hangar:x:%u:%u:driver:/var/lib/hangar:/usr/sbin/nologin\n"
	         "agent:x:%u:%u:agent:/home/agent:/bin/sh\n",
	         (unsigned)FX_HANGAR, (unsigned)FX_HANGAR, (unsigned)FX_AGENT, (unsigned)FX_AGENT);
	snprintf(gr, sizeof gr, "root:x:0:\nhangar:x:%u:\nagent:x:%u:\ndocker:x:%u:agent\n",
	         (unsigned)FX_HANGAR, (unsigned)FX_AGENT, (unsigned)FX_GROUP);
	sx_put(d, "etc/passwd", pw);
	sx_put(d, "etc/group", gr);
	fx_file(d, "etc/shadow",
	        "root::19000:0:99999:7:::\nhangar:!:19000::::::\n"
	        "agent:$6$salt$hash:19000::::::\n",
	        0640, 0, 0);
	sx_put(d, "etc/nsswitch.conf", "passwd: files\ngroup: files\nshadow: files\n");
}

hp_sysbackend *sx_open_image(const char *dir)
{
	hp_sys_opts o = {.kind = HP_SYS_ROOTFS, .root_dir = dir};
	hp_err e;
	hp_sysbackend *s = hp_probe_sys_open(&o, &e);
	assert_non_null(s);
	return s;
}

int sx_setup(void **state)
{
	sx_fx *f = calloc(1, sizeof *f);
	f->dir = fx_tmpdir();
	sx_image_etc(f->dir);
	hp_pool_init(&f->pool, 1 << 24);
	*state = f;
	return 0;
}

int sx_teardown(void **state)
{
	sx_fx *f = *state;
	if (f->s)
		hp_backend_destroy(hp_probe_sys_backend(f->s));
	hp_pool_free(&f->pool);
	fx_rmtree(f->dir);
	free(f);
	return 0;
}

hp_sysbackend *sx_sb(sx_fx *f)
{
	if (!f->s)
		f->s = sx_open_image(f->dir);
	return f->s;
}

void sx_as_role(sx_fx *f, hp_role r, uid_t uid, gid_t gid, uint64_t caps)
{
	hp_sys_role ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.role = r;
	ctx.cred = (hp_cred){uid, gid, NULL, 0, caps};
	hp_probe_sys_set_role(sx_sb(f), &ctx);
}

hp_sysbackend *sx_open_live(hp_role r, uid_t uid, gid_t gid, hp_canary *const *canary)
{
	hp_sys_opts o = {.kind = HP_SYS_LIVE};
	hp_err e;
	hp_sysbackend *s = hp_probe_sys_open(&o, &e);
	if (!s)
		return NULL;
	hp_sys_role ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.role = r;
	ctx.as_role = true;
	ctx.cred = (hp_cred){uid, gid, NULL, 0, 0};
	for (int t = 0; canary && t < HP_ROLE_COUNT; t++)
		ctx.canary[t] = canary[t];
	hp_probe_sys_set_role(s, &ctx);
	return s;
}

void sx_format(hp_value v, char *out, size_t n)
{
	hp_buf b = {0};
	hp_value_format(&b, &v);
	snprintf(out, n, "%s", b.data ? b.data : "");
	hp_buf_free(&b);
}

const char *sx_show(sx_fx *f, hp_value v)
{
	sx_format(v, f->buf, sizeof f->buf);
	return f->buf;
}

const char *sx_ask_str(sx_fx *f, hp_role r, hp_probe_id p, const char *arg)
{
	hp_value a = hp_v_str(arg, (uint32_t)strlen(arg));
	return sx_show(f, hp_backend_ask(hp_probe_sys_backend(sx_sb(f)), r, p, &a, &f->pool));
}

const char *sx_ask_int(sx_fx *f, hp_role r, hp_probe_id p, int64_t arg)
{
	hp_value a = hp_v_int(arg);
	return sx_show(f, hp_backend_ask(hp_probe_sys_backend(sx_sb(f)), r, p, &a, &f->pool));
}

const char *sx_ask_none(sx_fx *f, hp_role r, hp_probe_id p)
{
	hp_value a = hp_v_none();
	return sx_show(f, hp_backend_ask(hp_probe_sys_backend(sx_sb(f)), r, p, &a, &f->pool));
}

void sx_tree(const char *d)
{
	fx_dir(d, "usr", 0755, 0, 0);
	fx_dir(d, "usr/bin", 0755, 0, 0);
	fx_file(d, "usr/bin/sudo", "#!", 04755, 0, 0);
	fx_file(d, "usr/bin/newgrp", "#!", 04755, 0, 0);
	fx_file(d, "usr/bin/wall", "#!", 02755, 0, 5);
	fx_file(d, "usr/bin/ls", "#!", 0755, 0, 0);
	fx_file(d, "usr/bin/mine", "#!", 04755, FX_AGENT, 0);
	fx_link(d, "usr/bin/su2", "sudo");
	fx_dir(d, "usr/local", 0755, 0, 0);
	fx_dir(d, "usr/local/bin", 0777, 0, 0);
	fx_dir(d, "tmp", 01777, 0, 0);
	fx_file(d, "tmp/rootf", "x", 0644, 0, 0);
	fx_file(d, "tmp/agentf", "x", 0644, FX_AGENT, FX_AGENT);
	fx_dir(d, "var", 0755, 0, 0);
	fx_dir(d, "var/lib", 0755, 0, 0);
	fx_dir(d, "var/lib/hangar-ctl", 0700, FX_HANGAR, FX_HANGAR);
	fx_file(d, "var/lib/hangar-ctl/key", "k", 0644, FX_HANGAR, FX_HANGAR);
	fx_dir(d, "home", 0755, 0, 0);
	fx_dir(d, "home/agent", 0755, FX_AGENT, FX_AGENT);
	fx_link(d, "bin", "usr/bin");
	fx_link(d, "escape", "../../../../etc");
	fx_fifo(d, "etc/pipe", 0666);
	fx_file(d, "etc/acl", "x", 0600, 0, 0);
	fx_file(d, "etc/hard", "x", 0644, 0, 0);
	char *a = fx_path(d, "etc/hard"), *b = fx_path(d, "etc/hard2");
	assert_int_equal(link(a, b), 0);
	free(a);
	free(b);
}

void sx_acl_user_rw(const char *dir, const char *rel, uid_t uid)
{
	const unsigned ents[5][3] = {{1, 6, 0xffffffff},
	                             {2, 6, uid},
	                             {4, 0, 0xffffffff},
	                             {16, 6, 0xffffffff},
	                             {32, 0, 0xffffffff}};
	fx_set_acl(dir, rel, ents, 5);
}

int sx_ask_as_agent(void *arg)
{
	sx_live_asks *c = arg;
	hp_sysbackend *s = sx_open_live(HP_ROLE_AGENT, FX_AGENT, FX_AGENT, NULL);
	if (!s)
		return 1;
	hp_pool pool;
	hp_pool_init(&pool, 1 << 20);
	for (size_t i = 0; i < c->n; i++) {
		char *p = fx_path(c->dir, c->rel[i]);
		hp_value a = hp_v_str(p, (uint32_t)strlen(p));
		hp_value v = hp_backend_ask(hp_probe_sys_backend(s), HP_ROLE_AGENT, c->probe, &a, &pool);
		sx_format(v, c->got[i], sizeof c->got[i]);
		free(p);
	}
	hp_pool_free(&pool);
	hp_backend_destroy(hp_probe_sys_backend(s));
	return 0;
}

sx_live_asks *sx_live_asks_new(const char *dir, hp_probe_id probe)
{
	sx_live_asks *c =
	    mmap(NULL, sizeof *c, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(c != MAP_FAILED);
	c->dir = dir;
	c->probe = probe;
	c->n = 0;
	return c;
}

void sx_live_asks_add(sx_live_asks *c, const char *rel)
{
	assert_true(c->n < SX_LIVE_ASKS_MAX);
	snprintf(c->rel[c->n++], sizeof c->rel[0], "%s", rel);
}
