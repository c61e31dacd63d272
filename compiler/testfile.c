/* testfile.c: test files to cases (testfile.h). Every key is checked, every
 * value's type too; anything unexpected is an error naming its place, since
 * a misspelt expectation that is silently ignored is a test that cannot
 * fail. */
#include "testfile.h"

#include <stdlib.h>
#include <string.h>

#include "check/ytree.h"

typedef struct {
	const hp_ytree *t;
	hp_err *err;
	char *dir; /* the test file's directory, "" for the current one */
} rd;

static const char *const file_keys[] = {"version", "policy", "provider",    "env",
                                        "params",  "documents", "facts_files", "facts",
                                        "waivers", "cases",   NULL};
static const char *const case_keys[] = {"name",      "policy",      "provider", "env",
                                        "params",    "documents",   "facts_files", "facts",
                                        "waivers",   "expect",    NULL};
static const char *const expect_keys[] = {"decision", "modes", "rules", "other_rules", NULL};

static char *resolve(const rd *r, const char *p)
{
	if (p[0] == '/' || !r->dir[0])
		return hp_xstrdup(p);
	return hp_xasprintf("%s/%s", r->dir, p);
}

static bool want_scalar(const rd *r, const hp_ynode *n, const char *what)
{
	if (n->kind != HP_Y_SCALAR)
		return hp_yfail(r->t, n, r->err, "%s must be a scalar, not %s", what,
		                hp_ykind_name(n));
	if (!n->s[0])
		return hp_yfail(r->t, n, r->err, "%s is empty", what);
	return true;
}

/* A mapping of names to scalars, appended to names/values (a later
 * value for a name replaces an earlier one). */
static bool name_map(const rd *r, const hp_ynode *n, const char *what, hp_strv *names,
                     hp_strv *values, bool may_be_empty_value)
{
	if (n->kind != HP_Y_MAP)
		return hp_yfail(r->t, n, r->err, "%s must be a mapping, not %s", what,
		                hp_ykind_name(n));
	for (uint32_t i = 0; i + 1 < n->n; i += 2) {
		const hp_ynode *k = n->kids[i], *v = n->kids[i + 1];
		if (!want_scalar(r, k, "a name"))
			return false;
		for (uint32_t j = 0; j < i; j += 2)
			if (strcmp(n->kids[j]->s, k->s) == 0)
				return hp_yfail(r->t, k, r->err, "'%s' given twice (first at line %u)",
				                k->s, n->kids[j]->line);
		if (v->kind != HP_Y_SCALAR)
			return hp_yfail(r->t, v, r->err, "the value of '%s' must be a scalar, not %s",
			                k->s, hp_ykind_name(v));
		if (!may_be_empty_value && !v->s[0])
			return hp_yfail(r->t, v, r->err, "the value of '%s' is empty", k->s);
		size_t at = names->n;
		for (size_t j = 0; j < names->n; j++)
			if (strcmp(names->v[j], k->s) == 0)
				at = j;
		if (at < names->n) {
			free(values->v[at]);
			values->v[at] = hp_xstrdup(v->s);
		} else {
			hp_strv_push(names, k->s);
			hp_strv_push(values, v->s);
		}
	}
	return true;
}

static bool path_list(const rd *r, const hp_ynode *n, const char *what, hp_strv *out)
{
	if (n->kind != HP_Y_SEQ)
		return hp_yfail(r->t, n, r->err, "%s must be a list of paths, not %s", what,
		                hp_ykind_name(n));
	for (uint32_t i = 0; i < n->n; i++) {
		if (!want_scalar(r, n->kids[i], "a path"))
			return false;
		char *p = resolve(r, n->kids[i]->s);
		hp_strv_push(out, p);
		free(p);
	}
	return true;
}

/* key: the `facts` key node, val: its list. The text handed to the facts
 * reader is that key and its value, where they stand in the file: blank
 * lines and spaces before it keep every line and column. */
static bool inline_facts(const rd *r, const hp_ynode *key, const hp_ynode *val,
                         hp_inline_facts **v, size_t *n)
{
	if (val->kind != HP_Y_SEQ)
		return hp_yfail(r->t, val, r->err, "facts must be a list of facts, not %s",
		                hp_ykind_name(val));
	size_t len;
	const char *text = hp_ytree_text(r->t, &len);
	size_t from = hp_ytree_offset(r->t, key->line, key->col);
	size_t to = hp_ytree_offset(r->t, val->end_line, val->end_col);
	if (to < from)
		to = from;
	size_t pad = (key->line - 1) + (key->col - 1);
	hp_inline_facts f;
	f.len = pad + (to - from) + 1;
	f.text = hp_xmalloc(f.len + 1);
	memset(f.text, '\n', key->line - 1);
	memset(f.text + key->line - 1, ' ', key->col - 1);
	memcpy(f.text + pad, text + from, to - from);
	f.text[f.len - 1] = '\n';
	f.text[f.len] = '\0';
	*v = hp_xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = f;
	return true;
}

static bool lookup(const rd *r, const hp_ynode *n, const char *const *names, size_t count,
                   const char *what, const char *list, int *out)
{
	if (!want_scalar(r, n, what))
		return false;
	int v = hp_lookup_name(names, count, n->s);
	if (v < 0)
		return hp_yfail(r->t, n, r->err, "%s '%s' is not %s", what, n->s, list);
	*out = v;
	return true;
}

static const char result_list[] = "pass, fail, error, skipped or waived";
static const char decision_list[] = "split, single-user or refuse";
static const char mode_list[] = "auto, ask, deny-risky or governed";

static bool expect(const rd *r, const hp_ynode *n, hp_test_case *c)
{
	if (n->kind != HP_Y_MAP)
		return hp_yfail(r->t, n, r->err, "expect must be a mapping, not %s",
		                hp_ykind_name(n));
	if (!hp_ymap_check_keys(r->t, n, expect_keys, r->err))
		return false;
	const hp_ynode *d = hp_ymap_get(n, "decision"), *m = hp_ymap_get(n, "modes"),
	               *ru = hp_ymap_get(n, "rules"), *o = hp_ymap_get(n, "other_rules");
	if (!d && !m && !ru && !o)
		return hp_yfail(r->t, n, r->err,
		                "expect says nothing: give a decision, modes or rules");
	if (d && m)
		return hp_yfail(r->t, m, r->err,
		                "give either decision (every mode) or modes, not both");
	if (d) {
		int v;
		if (!lookup(r, d, hp_decision_names, HP_DECISION_COUNT, "the decision",
		            decision_list, &v))
			return false;
		for (int k = 0; k < HP_MODE_COUNT; k++) {
			c->modes[k] = v;
			c->mode_line[k] = d->line;
		}
	}
	if (m) {
		if (m->kind != HP_Y_MAP)
			return hp_yfail(r->t, m, r->err, "modes must be a mapping, not %s",
			                hp_ykind_name(m));
		for (uint32_t i = 0; i + 1 < m->n; i += 2) {
			int mode, v;
			if (!lookup(r, m->kids[i], hp_mode_names, HP_MODE_COUNT, "the mode",
			            mode_list, &mode))
				return false;
			if (c->modes[mode] >= 0)
				return hp_yfail(r->t, m->kids[i], r->err, "mode '%s' given twice",
				                m->kids[i]->s);
			if (!lookup(r, m->kids[i + 1], hp_decision_names, HP_DECISION_COUNT,
			            "the decision", decision_list, &v))
				return false;
			c->modes[mode] = v;
			c->mode_line[mode] = m->kids[i + 1]->line;
		}
	}
	if (ru) {
		if (ru->kind != HP_Y_MAP)
			return hp_yfail(r->t, ru, r->err,
			                "rules must be a mapping of rule ids to results, not %s",
			                hp_ykind_name(ru));
		c->rules = hp_xcalloc(ru->n / 2 + 1, sizeof *c->rules);
		for (uint32_t i = 0; i + 1 < ru->n; i += 2) {
			const hp_ynode *k = ru->kids[i];
			int v;
			if (!want_scalar(r, k, "a rule id"))
				return false;
			for (size_t j = 0; j < c->nrules; j++)
				if (strcmp(c->rules[j].id, k->s) == 0)
					return hp_yfail(r->t, k, r->err,
					                "rule '%s' given twice (first at line %u)", k->s,
					                c->rules[j].line);
			if (!lookup(r, ru->kids[i + 1], hp_result_names, HP_RESULT_COUNT,
			            "the result", result_list, &v))
				return false;
			c->rules[c->nrules++] =
			    (hp_expect_rule){hp_xstrdup(k->s), (hp_result)v, k->line, k->col};
		}
	}
	if (o) {
		int v;
		if (!lookup(r, o, hp_result_names, HP_RESULT_COUNT, "other_rules", result_list,
		            &v))
			return false;
		c->other_rules = v;
		c->other_line = o->line;
	}
	return true;
}

/* The keys a file and a case share: layered, the case after the file. */
static bool common(const rd *r, const hp_ynode *m, hp_test_case *c)
{
	const hp_ynode *n;
	if ((n = hp_ymap_get(m, "policy"))) {
		if (!want_scalar(r, n, "policy"))
			return false;
		free(c->policy);
		c->policy = resolve(r, n->s);
	}
	if ((n = hp_ymap_get(m, "provider")) &&
	    !lookup(r, n, hp_provider_names, HP_PROVIDER_COUNT, "the provider",
	            "docker, kubernetes, e2b or cubesandbox", &c->provider))
		return false;
	if ((n = hp_ymap_get(m, "env")) &&
	    !name_map(r, n, "env", &c->env_names, &c->env_values, true))
		return false;
	if ((n = hp_ymap_get(m, "params")) &&
	    !name_map(r, n, "params", &c->param_names, &c->param_values, true))
		return false;
	if ((n = hp_ymap_get(m, "documents"))) {
		hp_strv files = {0};
		bool ok = name_map(r, n, "documents", &c->doc_names, &files, false);
		for (size_t i = 0; ok && i < files.n; i++) {
			char *p = resolve(r, files.v[i]);
			free(files.v[i]);
			files.v[i] = p;
		}
		hp_strv_free(&c->doc_files);
		c->doc_files = files;
		if (!ok)
			return false;
	}
	if ((n = hp_ymap_get(m, "facts_files")) && !path_list(r, n, "facts_files", &c->facts_files))
		return false;
	if ((n = hp_ymap_get(m, "waivers")) && !path_list(r, n, "waivers", &c->waiver_files))
		return false;
	for (uint32_t i = 0; i + 1 < m->n; i += 2)
		if (strcmp(m->kids[i]->s, "facts") == 0 &&
		    !inline_facts(r, m->kids[i], m->kids[i + 1], &c->inline_facts, &c->ninline))
			return false;
	return true;
}

static void case_init(hp_test_case *c)
{
	memset(c, 0, sizeof *c);
	c->provider = -1;
	c->other_rules = -1;
	for (int m = 0; m < HP_MODE_COUNT; m++)
		c->modes[m] = -1;
}

static void case_free(hp_test_case *c)
{
	free(c->name);
	free(c->policy);
	hp_strv_free(&c->env_names);
	hp_strv_free(&c->env_values);
	hp_strv_free(&c->param_names);
	hp_strv_free(&c->param_values);
	hp_strv_free(&c->doc_names);
	hp_strv_free(&c->doc_files);
	hp_strv_free(&c->facts_files);
	hp_strv_free(&c->waiver_files);
	for (size_t i = 0; i < c->ninline; i++)
		free(c->inline_facts[i].text);
	free(c->inline_facts);
	for (size_t i = 0; i < c->nrules; i++)
		free(c->rules[i].id);
	free(c->rules);
}

/* A copy of the file's defaults for a case to build on. */
static void case_copy(hp_test_case *to, const hp_test_case *from)
{
	case_init(to);
	to->policy = from->policy ? hp_xstrdup(from->policy) : NULL;
	to->provider = from->provider;
	hp_strv_extend(&to->env_names, &from->env_names);
	hp_strv_extend(&to->env_values, &from->env_values);
	hp_strv_extend(&to->param_names, &from->param_names);
	hp_strv_extend(&to->param_values, &from->param_values);
	hp_strv_extend(&to->doc_names, &from->doc_names);
	hp_strv_extend(&to->doc_files, &from->doc_files);
	hp_strv_extend(&to->facts_files, &from->facts_files);
	hp_strv_extend(&to->waiver_files, &from->waiver_files);
	if (from->ninline) {
		to->inline_facts = hp_xcalloc(from->ninline, sizeof *to->inline_facts);
		for (size_t i = 0; i < from->ninline; i++) {
			to->inline_facts[i].len = from->inline_facts[i].len;
			to->inline_facts[i].text =
			    hp_xstrndup(from->inline_facts[i].text, from->inline_facts[i].len);
		}
		to->ninline = from->ninline;
	}
}

static bool read_file(const rd *r, const hp_ynode *root, hp_test_file *tf)
{
	if (!root || root->kind != HP_Y_MAP)
		return hp_yfail(r->t, root, r->err,
		                "a test file is a mapping with a 'cases' list (docs/testing.md)");
	if (!hp_ymap_check_keys(r->t, root, file_keys, r->err))
		return false;
	const hp_ynode *v = hp_ymap_get(root, "version");
	if (v && (v->kind != HP_Y_SCALAR || strcmp(v->s, "1") != 0))
		return hp_yfail(r->t, v, r->err, "version must be 1");
	const hp_ynode *cases = hp_ymap_get(root, "cases");
	if (!cases)
		return hp_yfail(r->t, root, r->err, "no 'cases' list");
	if (cases->kind != HP_Y_SEQ)
		return hp_yfail(r->t, cases, r->err, "cases must be a list, not %s",
		                hp_ykind_name(cases));
	if (!cases->n)
		return hp_yfail(r->t, cases, r->err, "cases is empty: a test file needs a case");
	hp_test_case defaults;
	case_init(&defaults);
	bool ok = common(r, root, &defaults);
	tf->cases = hp_xcalloc(cases->n, sizeof *tf->cases);
	for (uint32_t i = 0; ok && i < cases->n; i++) {
		const hp_ynode *cn = cases->kids[i];
		hp_test_case *c = &tf->cases[tf->ncases];
		case_copy(c, &defaults);
		tf->ncases++;
		c->file = tf->path;
		c->line = cn->line;
		c->col = cn->col;
		if (cn->kind != HP_Y_MAP) {
			ok = hp_yfail(r->t, cn, r->err, "a case must be a mapping, not %s",
			              hp_ykind_name(cn));
			break;
		}
		if (!(ok = hp_ymap_check_keys(r->t, cn, case_keys, r->err)))
			break;
		const hp_ynode *name = hp_ymap_get(cn, "name"), *ex = hp_ymap_get(cn, "expect");
		if (!name) {
			ok = hp_yfail(r->t, cn, r->err, "a case needs a name");
			break;
		}
		if (!(ok = want_scalar(r, name, "name")))
			break;
		for (size_t j = 0; j + 1 < tf->ncases; j++)
			if (strcmp(tf->cases[j].name, name->s) == 0) {
				ok = hp_yfail(r->t, name, r->err,
				              "case '%s' given twice (first at line %u)", name->s,
				              tf->cases[j].line);
				break;
			}
		if (!ok)
			break;
		c->name = hp_xstrdup(name->s);
		if (!ex) {
			ok = hp_yfail(r->t, cn, r->err, "case '%s' expects nothing: give it an expect",
			              c->name);
			break;
		}
		if (!(ok = common(r, cn, c) && expect(r, ex, c)))
			break;
		if (!c->policy) {
			ok = hp_yfail(r->t, cn, r->err, "case '%s' names no policy", c->name);
			break;
		}
		if (c->provider < 0) {
			ok = hp_yfail(r->t, cn, r->err, "case '%s' names no provider", c->name);
			break;
		}
	}
	case_free(&defaults);
	return ok;
}

static bool from_tree(const char *path, hp_ytree *t, hp_test_file *tf, hp_err *err)
{
	const char *slash = strrchr(path, '/');
	rd r = {t, err, slash ? hp_xstrndup(path, (size_t)(slash - path + (slash == path)))
	                      : hp_xstrdup("")};
	bool ok = read_file(&r, hp_ytree_root(t), tf);
	free(r.dir);
	hp_ytree_free(t);
	return ok;
}

bool hp_test_file_load(const char *path, hp_test_file *tf, hp_err *err)
{
	memset(tf, 0, sizeof *tf);
	tf->path = hp_xstrdup(path);
	hp_ytree *t = hp_ytree_load_file(path, err);
	return t && from_tree(path, t, tf, err);
}

bool hp_test_file_parse(const char *path, const char *text, size_t len, hp_test_file *tf,
                        hp_err *err)
{
	memset(tf, 0, sizeof *tf);
	tf->path = hp_xstrdup(path);
	hp_ytree *t = hp_ytree_parse(path, text, len, err);
	return t && from_tree(path, t, tf, err);
}

void hp_test_file_free(hp_test_file *tf)
{
	for (size_t i = 0; i < tf->ncases; i++)
		case_free(&tf->cases[i]);
	free(tf->cases);
	free(tf->path);
	memset(tf, 0, sizeof *tf);
}
