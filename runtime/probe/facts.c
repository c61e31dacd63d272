/* facts.c: the facts backend (facts.h). A file is parsed into a small tree
 * (lib/yaml_events.h: bounded in depth and node count, no anchors, aliases
 * or tags), then each fact is checked against probes.def and
 * stored in a hash table keyed by role, probe and argument. */
#include "probe/facts.h"
#include "probe/env_answer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/bytecode.h"
#include "lib/pool.h"
#include "lib/yaml_events.h"

#define ANY_ROLE 0xff

typedef struct {
	uint64_t hash;
	uint8_t probe, role; /* role ANY_ROLE: every role */
	hp_value arg, answer;
	const char *where;   /* where the recorded answer came from (a document's place), or NULL */
	uint32_t file, line; /* where it was given: file index (1-based), 1-based line */
	uint32_t container;  /* the file's container: index in containers, 0 for none */
} fact;

struct hp_facts {
	hp_backend base;
	hp_pool pool; /* every value and name */
	fact *v;
	size_t n, cap;
	uint32_t *slots; /* open addressing: index + 1, 0 empty */
	size_t nslots;
	uint32_t nfiles;
	char **files;       /* by file index - 1: names, for messages */
	char **containers;  /* by container index - 1 */
	uint32_t ncontainers;
	uint32_t container; /* the container of the file being read */
	bool amend;         /* the file being read replaces earlier answers */
	bool documents;     /* the doc_* facts answer (hp_probe_facts_allow_documents) */
};

/* --- the YAML tree ------------------------------------------------------------ */

typedef enum { N_SCALAR, N_SEQ, N_MAP } node_kind;

typedef struct node node;
struct node {
	node_kind kind;
	bool plain; /* a plain scalar: may be a keyword */
	uint32_t line, col;
	char *s; /* scalar, NUL-terminated */
	uint32_t len;
	node **kids; /* seq: items; map: key, value, key, value... */
	uint32_t n;  /* kids */
};

typedef struct {
	const char *name;
	hp_err *err;
	hp_pool *pool; /* the tree, freed after the file */
} reader;

static bool rfail(reader *r, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool rfail(reader *r, uint32_t line, uint32_t col, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	hp_err_set(r->err, "%s:%u:%u: %s", r->name, line, col, msg);
	return false;
}

static bool nfail(reader *r, const node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool nfail(reader *r, const node *n, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	hp_err_set(r->err, "%s:%u:%u: %s", r->name, n->line, n->col, msg);
	return false;
}

static node *new_node(reader *r, node_kind k, const hp_ymark *m, hp_err *err)
{
	node *n = hp_pool_alloc(r->pool, sizeof *n);
	if (!n) {
		hp_yaml_fail(err, r->name, m->line, m->col, "out of memory for the file");
		return NULL;
	}
	memset(n, 0, sizeof *n);
	n->kind = k;
	n->line = m->line;
	n->col = m->col;
	return n;
}

static void *on_scalar(void *ctx, const char *s, size_t len, bool plain, bool at_key,
                       const hp_ymark *m, hp_err *err)
{
	reader *r = ctx;
	(void)at_key;
	node *n = new_node(r, N_SCALAR, m, err);
	if (!n)
		return NULL;
	n->s = len <= UINT32_MAX ? hp_pool_strndup(r->pool, s, len) : NULL;
	n->len = (uint32_t)len;
	n->plain = plain;
	if (!n->s) {
		hp_yaml_fail(err, r->name, m->line, m->col, "out of memory for the file");
		return NULL;
	}
	return n;
}

static void *on_open(void *ctx, bool seq, bool at_key, const hp_ymark *m, hp_err *err)
{
	(void)at_key;
	return new_node(ctx, seq ? N_SEQ : N_MAP, m, err);
}

static bool on_close(void *ctx, void *vn, void *const *kids, size_t nk, const hp_ymark *m,
                     hp_err *err)
{
	reader *r = ctx;
	node *n = vn;
	n->kids = hp_pool_alloc(r->pool, (nk ? nk : 1) * sizeof *n->kids);
	if (!n->kids)
		return hp_yaml_fail(err, r->name, m->line, m->col, "out of memory for the file");
	for (size_t i = 0; i < nk; i++)
		n->kids[i] = kids[i];
	n->n = (uint32_t)nk;
	return true;
}

/* Parse a whole document into a tree; NULL with err set. */
static node *parse(reader *r, const char *text, size_t len)
{
	hp_yaml_reader yr = {.name = r->name,
	                     .max_depth = HP_FACTS_MAX_DEPTH,
	                     .max_nodes = HP_FACTS_MAX_NODES,
	                     .ctx = r,
	                     .scalar = on_scalar,
	                     .open = on_open,
	                     .close = on_close};
	void *root;
	if (!hp_yaml_read(&yr, text, len, &root, r->err))
		return NULL;
	if (!root)
		rfail(r, 1, 1, "the file is empty: it needs a mapping with a 'facts' list");
	return root;
}

/* --- facts -------------------------------------------------------------------------- */

static const char *kind_name(const node *n)
{
	return n->kind == N_SCALAR ? "a scalar" : n->kind == N_SEQ ? "a list" : "a mapping";
}

/* The value of key in mapping m, or NULL; duplicate and unknown keys are
 * checked by check_keys. */
static node *get(const node *m, const char *key)
{
	for (uint32_t i = 0; i + 1 < m->n; i += 2)
		if (m->kids[i]->kind == N_SCALAR && strcmp(m->kids[i]->s, key) == 0)
			return m->kids[i + 1];
	return NULL;
}

static bool check_keys(reader *r, const node *m, const char *const *keys, const char *list)
{
	for (uint32_t i = 0; i + 1 < m->n; i += 2) {
		const node *k = m->kids[i];
		if (k->kind != N_SCALAR)
			return nfail(r, k, "a key must be a word, not %s", kind_name(k));
		bool known = false;
		for (const char *const *p = keys; *p; p++)
			known |= strcmp(*p, k->s) == 0;
		if (!known)
			return nfail(r, k, "unknown key '%s' (the keys are %s)", k->s, list);
		for (uint32_t j = 0; j < i; j += 2)
			if (strcmp(m->kids[j]->s, k->s) == 0)
				return nfail(r, k, "key '%s' given twice (first at line %u)", k->s,
				             m->kids[j]->line);
	}
	return true;
}

static bool scalar(reader *r, const node *n, const char *what)
{
	if (n->kind != N_SCALAR)
		return nfail(r, n, "%s must be a scalar, not %s", what, kind_name(n));
	return true;
}

static bool str_value(hp_facts *f, reader *r, const node *n, hp_str *out, const char *what)
{
	if (!scalar(r, n, what))
		return false;
	if (n->len > HP_VALUE_MAX_STRING)
		return nfail(r, n, "%s is %u bytes, more than %u", what, n->len,
		             HP_VALUE_MAX_STRING);
	char *p = hp_pool_strndup(&f->pool, n->s, n->len);
	if (!p)
		return nfail(r, n, "out of memory");
	out->p = p;
	out->len = n->len;
	return true;
}

static bool int_value(reader *r, const node *n, int64_t *out, const char *what)
{
	if (!scalar(r, n, what))
		return false;
	if (!n->plain)
		return nfail(r, n, "%s must be an int, not a quoted string", what);
	if (!hp_parse_int(n->s, out))
		return nfail(r, n, "%s must be an int, not '%s'", what, n->s);
	return true;
}

/* --- the kernel's ranges ---------------------------------------------------------------- */

/* An int a fact gives is something the kernel reports, so it lies in the
 * range the kernel can report: anything else is a forged or broken file.
 * uid_t and gid_t are 32 bits and (uid_t)-1 means "no id" to every system
 * call that takes one, so an id is 0..4294967294: 4294967296 would be 0 as
 * a uid_t, and a check of "uid != 0" would pass on root. */
typedef struct {
	int64_t lo, hi;
	const char *what; /* the range, in the message */
} int_range;

static const int_range RANGE_ID = {0, 4294967294, "an id is 0 to 4294967294"};
static const int_range RANGE_MODE = {0, 07777, "a mode is 0 to 0o7777"};
static const int_range RANGE_LINKS = {0, 4294967295, "a link count is 0 to 4294967295"};
/* a document's integer is whatever the file says; a count is of its values */
static const int_range RANGE_DOC = {INT64_MIN, INT64_MAX, "a document's int is 64 bits"};
static const int_range RANGE_COUNT = {0, 4294967295, "a count is 0 to 4294967295"};

/* The range of a probe's int argument (arg) or int answer; NULL for a probe
 * whose int has no range here, whose facts are then refused. */
static const int_range *probe_int_range(hp_probe_id probe, bool arg)
{
	switch (probe) {
	case HP_PROBE_USER_BY_UID:
	case HP_PROBE_PROCS_VISIBLE:
	case HP_PROBE_USERS_WITH_UID:
	case HP_PROBE_GROUPS_WITH_GID:
		return arg ? &RANGE_ID : NULL;
	case HP_PROBE_OWNER:
	case HP_PROBE_GROUP_OWNER:
		return arg ? NULL : &RANGE_ID;
	case HP_PROBE_MODE:
		return arg ? NULL : &RANGE_MODE;
	case HP_PROBE_LINKS:
		return arg ? NULL : &RANGE_LINKS;
	case HP_PROBE_PROCESS_UID:
		return arg ? NULL : &RANGE_ID;
	case HP_PROBE_DOC_INT:
		return arg ? NULL : &RANGE_DOC;
	case HP_PROBE_DOC_COUNT:
		return arg ? NULL : &RANGE_COUNT;
	case HP_PROBE_USER:
	case HP_PROBE_GROUP:
	case HP_PROBE_PASSWORD_EMPTY:
	case HP_PROBE_PASSWORD_LOCKED:
	case HP_PROBE_USERS_UNLOCKED:
	case HP_PROBE_GROUP_PASSWORD_SET:
	case HP_PROBE_GROUP_ADMINS:
	case HP_PROBE_GSHADOW_MEMBERS:
	case HP_PROBE_PAM_PASSWORDLESS:
	case HP_PROBE_ENV:
	case HP_PROBE_EXISTS:
	case HP_PROBE_TYPE:
	case HP_PROBE_READABLE:
	case HP_PROBE_WRITABLE:
	case HP_PROBE_EXECUTABLE:
	case HP_PROBE_WRITABLE_ANCESTOR:
	case HP_PROBE_SETUID_ROOT:
	case HP_PROBE_SETUID_IMAGE:
	case HP_PROBE_SETID_IMAGE:
	case HP_PROBE_LOADER_DIRS:
	case HP_PROBE_TREE_WRITABLE_BY:
	case HP_PROBE_COMMAND_FILES:
	case HP_PROBE_TREE_WRITABLE:
	case HP_PROBE_WRITABLE_ENTRIES:
	case HP_PROBE_SUDO:
	case HP_PROBE_SUDOERS_GRANTS:
	case HP_PROBE_CAPS_EFFECTIVE:
	case HP_PROBE_CAPS_PERMITTED:
	case HP_PROBE_CAPS_INHERITABLE:
	case HP_PROBE_CAPS_AMBIENT:
	case HP_PROBE_CAPS_BOUNDING:
	case HP_PROBE_NO_NEW_PRIVS:
	case HP_PROBE_SIGNAL:
	case HP_PROBE_PTRACE:
	case HP_PROBE_PROC_MEM:
	case HP_PROBE_MOUNT_POINT:
	case HP_PROBE_READ_ONLY:
	case HP_PROBE_FS_TYPE:
	case HP_PROBE_DOC_BOOL:
	case HP_PROBE_DOC_STR:
	case HP_PROBE_DOC_EXISTS:
	case HP_PROBE_DOC_STRS:
	case HP_PROBE_ENVD_TOKENLESS:
	case HP_PROBE_COUNT:
	default:
		return NULL;
	}
}

bool hp_probe_facts_int_has_range(hp_probe_id probe, bool arg)
{
	return probe_int_range(probe, arg) != NULL;
}

static bool in_range(reader *r, const node *n, int64_t v, const int_range *range,
                     const char *what)
{
	if (v >= range->lo && v <= range->hi)
		return true;
	return nfail(r, n, "%s %s is out of range: %s", what, n->s, range->what);
}

/* A probe's int argument or answer v, checked against the probe's range. */
static bool int_in_range(reader *r, const node *n, hp_probe_id probe, bool arg,
                         const hp_value *v, const char *what)
{
	if (v->type != HP_T_INT || v->state != HP_VAL_KNOWN)
		return true;
	const int_range *range = probe_int_range(probe, arg);
	if (!range)
		return nfail(r, n, "probe %s: no range is known for its int %s, so none is read",
		             hp_probes[probe].name, arg ? "argument" : "answer");
	return in_range(r, n, v->u.i, range, what);
}

static bool id_value(reader *r, const node *n, int64_t *out, const char *what)
{
	return int_value(r, n, out, what) && in_range(r, n, *out, &RANGE_ID, what);
}

static bool list_value(hp_facts *f, reader *r, const node *n, hp_list *out, const char *what)
{
	if (n->kind != N_SEQ)
		return nfail(r, n, "%s must be a list, not %s", what, kind_name(n));
	if (n->n > HP_VALUE_MAX_LIST)
		return nfail(r, n, "%s has %u items, more than %u", what, n->n, HP_VALUE_MAX_LIST);
	hp_str *items = hp_pool_alloc(&f->pool, (n->n ? n->n : 1) * sizeof *items);
	if (!items)
		return nfail(r, n, "out of memory");
	for (uint32_t i = 0; i < n->n; i++)
		if (!str_value(f, r, n->kids[i], &items[i], "an item"))
			return false;
	out->items = items;
	out->n = n->n;
	return true;
}

static bool record_value(hp_facts *f, reader *r, const node *n, hp_type t, hp_value *out)
{
	if (n->kind != N_MAP)
		return nfail(r, n, "a %s is a mapping, not %s", hp_type_names[t], kind_name(n));
	hp_str empty = {"", 0};
	if (t == HP_T_USER) {
		static const char *const keys[] = {"name",  "uid",    "gid", "home",
		                                   "shell", "groups", NULL};
		if (!check_keys(r, n, keys, "name, uid, gid, home, shell and groups"))
			return false;
		hp_user *u = hp_pool_alloc(&f->pool, sizeof *u);
		if (!u)
			return nfail(r, n, "out of memory");
		memset(u, 0, sizeof *u);
		u->home = u->shell = empty;
		const node *name = get(n, "name"), *uid = get(n, "uid"), *gid = get(n, "gid");
		if (!name || !uid || !gid)
			return nfail(r, n, "a user needs name, uid and gid");
		const node *home = get(n, "home"), *shell = get(n, "shell"),
		           *groups = get(n, "groups");
		if (!str_value(f, r, name, &u->name, "name") ||
		    !id_value(r, uid, &u->uid, "uid") || !id_value(r, gid, &u->gid, "gid") ||
		    (home && !str_value(f, r, home, &u->home, "home")) ||
		    (shell && !str_value(f, r, shell, &u->shell, "shell")) ||
		    (groups && !list_value(f, r, groups, &u->groups, "groups")))
			return false;
		*out = hp_v_user(u);
		return true;
	}
	static const char *const keys[] = {"name", "gid", "members", NULL};
	if (!check_keys(r, n, keys, "name, gid and members"))
		return false;
	hp_group *g = hp_pool_alloc(&f->pool, sizeof *g);
	if (!g)
		return nfail(r, n, "out of memory");
	memset(g, 0, sizeof *g);
	const node *name = get(n, "name"), *gid = get(n, "gid"), *members = get(n, "members");
	if (!name || !gid)
		return nfail(r, n, "a group needs name and gid");
	if (!str_value(f, r, name, &g->name, "name") || !id_value(r, gid, &g->gid, "gid") ||
	    (members && !list_value(f, r, members, &g->members, "members")))
		return false;
	*out = hp_v_group(g);
	return true;
}

/* A value of type t (an argument or an answer). */
static bool typed_value(hp_facts *f, reader *r, const node *n, hp_type t, hp_value *out,
                        const char *what)
{
	switch (t) {
	case HP_T_BOOL:
		if (!scalar(r, n, what))
			return false;
		if (n->plain && (strcmp(n->s, "true") == 0 || strcmp(n->s, "false") == 0)) {
			*out = hp_v_bool(n->s[0] == 't');
			return true;
		}
		if (!n->plain)
			return nfail(r, n, "%s must be true or false, not a quoted string", what);
		return nfail(r, n, "%s must be true or false, not '%s'", what, n->s);
	case HP_T_INT: {
		int64_t i;
		if (!int_value(r, n, &i, what))
			return false;
		*out = hp_v_int(i);
		return true;
	}
	case HP_T_STR: {
		hp_str s;
		if (!str_value(f, r, n, &s, what))
			return false;
		*out = hp_v_str(s.p, s.len);
		return true;
	}
	case HP_T_LIST: {
		hp_list l;
		if (!list_value(f, r, n, &l, what))
			return false;
		*out = hp_v_list(l.items, l.n);
		return true;
	}
	case HP_T_CAPS: {
		if (n->kind != N_SEQ)
			return nfail(r, n, "%s must be a list of capability names, not %s", what,
			             kind_name(n));
		uint64_t caps = 0;
		for (uint32_t i = 0; i < n->n; i++) {
			const node *c = n->kids[i];
			if (!scalar(r, c, "a capability"))
				return false;
			int k = hp_cap_from_name(c->s);
			if (k < 0)
				return nfail(
				    r, c, "unknown capability '%s' (write it without cap_)", c->s);
			caps |= (uint64_t)1 << k;
		}
		*out = hp_v_caps(caps);
		return true;
	}
	case HP_T_ROLE: {
		if (!scalar(r, n, what))
			return false;
		int k = hp_lookup_name(hp_role_names, HP_ROLE_COUNT, n->s);
		char roles[64];
		if (k < 0)
			return nfail(r, n, "unknown role '%s' (%s)", n->s,
			             hp_names_text(roles, sizeof roles, hp_role_names,
			                           HP_ROLE_COUNT, "or"));
		*out = hp_v_role((hp_role)k);
		return true;
	}
	case HP_T_USER:
	case HP_T_GROUP:
		return record_value(f, r, n, t, out);
	case HP_T_NONE:
	case HP_T_COUNT:
	default:
		return nfail(r, n, "%s has no value", what);
	}
}

/* --- the table ------------------------------------------------------------------------ */

/* The fact for a question in a container; *slot, when asked, is where it
 * is or where it would go. */
static fact *lookup_in(hp_facts *f, unsigned probe, unsigned role, const hp_value *arg,
                       uint64_t h, uint32_t container, size_t *slot)
{
	if (!f->nslots)
		return NULL;
	size_t k = h & (f->nslots - 1);
	while (f->slots[k]) {
		fact *x = &f->v[f->slots[k] - 1];
		if (x->hash == h && x->probe == probe && x->role == role &&
		    x->container == container && hp_value_equal(&x->arg, arg)) {
			if (slot)
				*slot = k;
			return x;
		}
		k = (k + 1) & (f->nslots - 1);
	}
	if (slot)
		*slot = k;
	return NULL;
}

static fact *lookup(hp_facts *f, unsigned probe, unsigned role, const hp_value *arg, uint64_t h,
                    size_t *slot)
{
	return lookup_in(f, probe, role, arg, h, f->container, slot);
}

static const char *container_name(const hp_facts *f, uint32_t c)
{
	return c ? f->containers[c - 1] : "(none)";
}

static void grow_table(hp_facts *f)
{
	size_t n = f->nslots ? f->nslots * 2 : 1024;
	uint32_t *slots = hp_xcalloc(n, sizeof *slots);
	for (size_t i = 0; i < f->n; i++) {
		size_t k = f->v[i].hash & (n - 1);
		while (slots[k])
			k = (k + 1) & (n - 1);
		slots[k] = (uint32_t)i + 1;
	}
	free(f->slots);
	f->slots = slots;
	f->nslots = n;
}

/* The file's container (a recording made with check --container). */
static bool set_container(hp_facts *f, reader *r, const node *n)
{
	if (!scalar(r, n, "the container"))
		return false;
	bool ok = n->len > 0 && n->len <= 253;
	for (uint32_t i = 0; ok && i < n->len; i++) {
		char c = n->s[i];
		ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		     c == '-' || c == '_' || c == '.';
	}
	if (!ok)
		return nfail(r, n, "the container '%s' is not a container's name", n->s);
	for (uint32_t i = 0; i < f->ncontainers; i++)
		if (strcmp(f->containers[i], n->s) == 0) {
			f->container = i + 1;
			return true;
		}
	f->containers = hp_xrealloc(f->containers, (f->ncontainers + 1) * sizeof *f->containers);
	f->containers[f->ncontainers++] = hp_xstrdup(n->s);
	f->container = f->ncontainers;
	return true;
}

static const char *const fact_keys[] = {"role",   "probe", "arg", "answer",
                                        "reason", "where", NULL};

static bool add_fact(hp_facts *f, reader *r, const node *n)
{
	if (n->kind != N_MAP)
		return nfail(r, n, "a fact is a mapping (role, probe, arg, answer), not %s",
		             kind_name(n));
	if (!check_keys(r, n, fact_keys, "role, probe, arg, answer, reason and where"))
		return false;
	const node *pn = get(n, "probe"), *rn = get(n, "role"), *an = get(n, "arg");
	const node *ans = get(n, "answer"), *why = get(n, "reason"), *wn = get(n, "where");
	if (!pn)
		return nfail(r, n, "a fact needs a probe");
	if (!scalar(r, pn, "the probe"))
		return false;
	int probe = hp_probe_lookup(pn->s);
	if (probe < 0)
		return nfail(r, pn, "unknown probe '%s'", pn->s);
	const hp_probe_info *pi = &hp_probes[probe];
	unsigned role = ANY_ROLE;
	if (rn) {
		if (!scalar(r, rn, "the role"))
			return false;
		int k = hp_lookup_name(hp_role_names, HP_ROLE_COUNT, rn->s);
		char roles[64];
		if (k < 0)
			return nfail(r, rn, "unknown role '%s' (%s)", rn->s,
			             hp_names_text(roles, sizeof roles, hp_role_names,
			                           HP_ROLE_COUNT, "or"));
		if (pi->scope == HP_SCOPE_GLOBAL)
			return nfail(
			    r, rn,
			    "probe %s is answered once for every role: its facts have no role",
			    pi->name);
		role = (unsigned)k;
	}
	hp_value arg = hp_v_none();
	if (pi->arg == HP_T_NONE && an)
		return nfail(r, an, "probe %s takes no argument", pi->name);
	if (pi->arg != HP_T_NONE && !an)
		return nfail(r, n, "probe %s takes an argument (%s): add 'arg'", pi->name,
		             hp_type_names[pi->arg]);
	if (an && (!typed_value(f, r, an, pi->arg, &arg, "the argument") ||
	           !int_in_range(r, an, (hp_probe_id)probe, true, &arg, "the argument")))
		return false;
	if (!ans)
		return nfail(r, n, "a fact needs an answer");
	if (f->container && pi->part == HP_PART_DOC)
		return nfail(r, pn,
		             "a recording made in container %s cannot answer %s: a document comes "
		             "from the deciding call (--document)",
		             container_name(f, f->container), pi->name);
	hp_value answer;
	const char *reason = NULL;
	if (why) {
		hp_str s;
		if (!str_value(f, r, why, &s, "the reason"))
			return false;
		reason = s.p;
	}
	if (ans->kind == N_SCALAR && ans->plain && strcmp(ans->s, "unknown") == 0) {
		answer = hp_v_unknown(pi->result, reason ? reason : "unknown in the facts");
	} else if (ans->kind == N_SCALAR && ans->plain && strcmp(ans->s, "skipped") == 0) {
		answer = hp_v_skipped(pi->result, reason ? reason : "skipped in the facts");
	} else if (ans->kind == N_SCALAR && ans->plain && strcmp(ans->s, "absent") == 0) {
		answer = hp_v_absent(pi->result, reason);
	} else {
		if (why)
			return nfail(r, why,
			             "a reason goes with an answer of unknown, skipped or absent");
		if (!typed_value(f, r, ans, pi->result, &answer, "the answer") ||
		    !int_in_range(r, ans, (hp_probe_id)probe, false, &answer, "the answer"))
			return false;
	}
	const char *where = NULL;
	if (wn) {
		hp_str s;
		if (!str_value(f, r, wn, &s, "where"))
			return false;
		where = s.p;
	}
	size_t slot;
	if ((f->n + 1) * 2 > f->nslots)
		grow_table(f);
	uint64_t h = hp_question_hash((unsigned)probe, role, &arg);
	fact *old = lookup(f, (unsigned)probe, role, &arg, h, &slot);
	if (old && old->file == f->nfiles)
		return nfail(r, n, "the same question is answered at line %u", old->line);
	if (old) {
		/* another file about the same container: it must agree, never
		 * replace (which file came last must not decide anything) */
		bool same = old->answer.state == answer.state &&
		            (answer.state != HP_VAL_KNOWN || hp_value_equal(&old->answer, &answer));
		if (!same && f->amend) {
			old->answer = answer;
			old->where = where;
			old->file = f->nfiles;
			old->line = n->line;
			return true;
		}
		if (!same)
			return nfail(r, n,
			             "the same question is answered differently at %s:%u%s%s%s",
			             f->files[old->file - 1], old->line,
			             f->container ? " (container " : "",
			             f->container ? container_name(f, f->container) : "",
			             f->container ? ")" : "");
		return true;
	}
	f->v = hp_xgrow(f->v, &f->cap, f->n + 1, sizeof *f->v);
	f->v[f->n] =
	    (fact){h,     (uint8_t)probe, (uint8_t)role, arg,         answer,
	           where, f->nfiles,      n->line,       f->container};
	f->slots[slot] = (uint32_t)++f->n;
	return true;
}

bool hp_probe_facts_amend(hp_facts *f, const char *name, const char *text, size_t len, hp_err *err)
{
	f->amend = true;
	bool ok = hp_probe_facts_load(f, name, text, len, err);
	f->amend = false;
	return ok;
}

bool hp_probe_facts_load(hp_facts *f, const char *name, const char *text, size_t len, hp_err *err)
{
	hp_pool tree;
	hp_pool_init(&tree, (size_t)1 << 31);
	reader r = {name, err, &tree};
	f->nfiles++;
	f->files = hp_xrealloc(f->files, f->nfiles * sizeof *f->files);
	f->files[f->nfiles - 1] = hp_xstrdup(name);
	f->container = 0;
	bool ok = false;
	if (len > HP_FACTS_MAX_FILE) {
		rfail(&r, 1, 1, "%zu bytes, more than the limit of %u", len, HP_FACTS_MAX_FILE);
		goto out;
	}
	node *root = parse(&r, text, len);
	if (!root)
		goto out;
	if (root->kind != N_MAP) {
		nfail(&r, root, "the file must be a mapping with a 'facts' list, not %s",
		      kind_name(root));
		goto out;
	}
	static const char *const top_keys[] = {"version", "facts", "container", NULL};
	if (!check_keys(&r, root, top_keys, "version, facts and container"))
		goto out;
	const node *version = get(root, "version"), *list = get(root, "facts");
	int64_t v;
	if (version && (!int_value(&r, version, &v, "the version") ||
	                (v != 1 && !nfail(&r, version, "version %lld: this runtime reads version 1",
	                                  (long long)v))))
		goto out;
	if (!list) {
		nfail(&r, root, "no 'facts' list");
		goto out;
	}
	if (list->kind != N_SEQ) {
		nfail(&r, list, "'facts' must be a list, not %s", kind_name(list));
		goto out;
	}
	const node *cn = get(root, "container");
	if (cn && !set_container(f, &r, cn))
		goto out;
	for (uint32_t i = 0; i < list->n; i++)
		if (!add_fact(f, &r, list->kids[i]))
			goto out;
	ok = true;
out:
	hp_pool_free(&tree);
	return ok;
}

bool hp_probe_facts_load_file(hp_facts *f, const char *path, hp_err *err)
{
	uint8_t *data;
	size_t len;
	if (!hp_read_regular_file(path, HP_FACTS_MAX_FILE, &data, &len, err))
		return false;
	bool ok = hp_probe_facts_load(f, path, (const char *)data, len, err);
	free(data);
	return ok;
}

size_t hp_probe_facts_count(const hp_facts *f)
{
	return f->n;
}

void hp_probe_facts_get(const hp_facts *f, size_t i, hp_fact_view *out)
{
	const fact *x = &f->v[i];
	out->probe = (hp_probe_id)x->probe;
	out->role = x->role == ANY_ROLE ? -1 : (int)x->role;
	out->arg = &x->arg;
	out->answer = &x->answer;
	out->file = x->file >= 1 && x->file <= f->nfiles ? f->files[x->file - 1] : "";
	out->line = x->line;
	out->container = x->container >= 1 && x->container <= f->ncontainers
	                     ? f->containers[x->container - 1]
	                     : NULL;
}

/* --- the backend -------------------------------------------------------------------------- */

/* Container c's answer to a question: its fact for the role, else its
 * fact for every role (facts about a global probe never have a role). */
static const fact *container_answer(hp_facts *f, hp_role role, hp_probe_id probe,
                                    const hp_value *arg, uint32_t c)
{
	const fact *x = NULL;
	if (hp_probes[probe].scope == HP_SCOPE_ROLE)
		x = lookup_in(f, probe, role, arg, hp_question_hash(probe, role, arg), c, NULL);
	if (!x)
		x = lookup_in(f, probe, ANY_ROLE, arg, hp_question_hash(probe, ANY_ROLE, arg), c,
		              NULL);
	return x;
}

/* The fact that answers a question, and in *other one of another container
 * that answers it differently (NULL when they agree). A role's fact beats
 * the fact for every role only within its own container: each container's
 * own answer is compared with the others', so a container that answers
 * for every role still disagrees with another's answer for the role. */
static const fact *answering2(hp_facts *f, hp_role role, hp_probe_id probe, const hp_value *arg,
                              const fact **other)
{
	const fact *first = NULL;
	*other = NULL;
	for (uint32_t c = 0; c <= f->ncontainers; c++) {
		const fact *x = container_answer(f, role, probe, arg, c);
		if (!x)
			continue;
		if (!first) {
			first = x;
		} else if (x->answer.state != first->answer.state ||
		           (x->answer.state == HP_VAL_KNOWN &&
		            !hp_value_equal(&x->answer, &first->answer))) {
			*other = x;
			break;
		}
	}
	return first;
}

static const fact *answering(hp_facts *f, hp_role role, hp_probe_id probe, const hp_value *arg)
{
	const fact *other;
	const fact *x = answering2(f, role, probe, arg, &other);
	return other ? NULL : x;
}

static const char *facts_where(hp_backend *b, hp_role role, hp_probe_id probe,
                               const hp_value *arg, hp_pool *pool)
{
	(void)pool;
	hp_facts *f = (hp_facts *)b;
	if (!f->documents && hp_probes[probe].part == HP_PART_DOC)
		return NULL;
	const fact *x = answering(f, role, probe, arg);
	return x ? x->where : NULL;
}

static hp_value facts_ask(hp_backend *b, hp_role role, hp_probe_id probe, const hp_value *arg,
                          hp_pool *pool)
{
	hp_facts *f = (hp_facts *)b;
	/* hangar's own settings come from the deciding call, never from a
	 * recording made where the agent could write it */
	if (probe == HP_PROBE_ENV && arg->state == HP_VAL_KNOWN && arg->type == HP_T_STR &&
	    hp_probe_env_is_setting(arg->u.s.p))
		return hp_probe_env_answer(arg->u.s.p, pool);
	/* nor does a pod's spec: it comes from the deciding call's
	 * --document, whatever a file without a container says */
	if (hp_probes[probe].part == HP_PART_DOC && !f->documents)
		return hp_v_unknown(hp_probes[probe].result,
		                    "the document is not given (--document NAME=FILE), and a "
		                    "document's answers never come from facts");
	const fact *other;
	const fact *x = answering2(f, role, probe, arg, &other);
	hp_buf m = {0};
	if (x && !other)
		return x->answer;
	if (x) {
		/* two containers disagree: neither is taken */
		hp_buf_printf(&m, "answered differently in container %s (%s:%u) and %s (%s:%u)",
		              container_name(f, x->container), f->files[x->file - 1], x->line,
		              container_name(f, other->container), f->files[other->file - 1],
		              other->line);
		char *reason = hp_pool_strndup(pool, m.data, m.len);
		hp_buf_free(&m);
		return hp_v_unknown(hp_probes[probe].result,
		                    reason ? reason : "answered differently in two containers");
	}
	hp_buf_printf(&m, "no fact answers %s", hp_probes[probe].name);
	if (arg->type != HP_T_NONE) {
		hp_buf_putc(&m, '(');
		hp_value_format(&m, arg);
		hp_buf_putc(&m, ')');
	}
	if (hp_probes[probe].scope == HP_SCOPE_ROLE)
		hp_buf_printf(&m, " as %s", hp_role_names[role]);
	char *reason = hp_pool_strndup(pool, m.data, m.len);
	hp_buf_free(&m);
	return hp_v_unknown(hp_probes[probe].result, reason ? reason : "no fact answers it");
}

static const hp_backend_ops facts_ops = {"facts", facts_ask, NULL, facts_where};

hp_facts *hp_probe_facts_new(void)
{
	hp_facts *f = hp_xcalloc(1, sizeof *f);
	f->base.ops = &facts_ops;
	hp_pool_init(&f->pool, (size_t)1 << 32);
	return f;
}

void hp_probe_facts_free(hp_facts *f)
{
	if (!f)
		return;
	hp_pool_free(&f->pool);
	free(f->v);
	free(f->slots);
	for (uint32_t i = 0; i < f->nfiles; i++)
		free(f->files[i]);
	free(f->files);
	for (uint32_t i = 0; i < f->ncontainers; i++)
		free(f->containers[i]);
	free(f->containers);
	free(f);
}

void hp_probe_facts_allow_documents(hp_facts *f)
{
	f->documents = true;
}

hp_backend *hp_probe_facts_backend(hp_facts *f)
{
	return &f->base;
}
