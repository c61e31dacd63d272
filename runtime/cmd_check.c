/* cmd_check.c: hangar-policy check: evaluate a policy against the live
 * sandbox, an image root (--root) or facts files (--facts), and print each
 * rule's result with its evidence. The decision per provider and turn
 * mode and the report formats are not part of this build yet: asking for
 * them says so and exits 2. The run itself is the library call
 * hp_session_run (session.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "eval.h"
#include "facts.h"
#include "policy.h"
#include "session.h"
#include "strv.h"

const char hp_help_check[] =
    "options in this build:\n"
    "  --root DIR         check the unpacked image root DIR, running nothing in it;\n"
    "                     probes that need a live sandbox are skipped\n"
    "  --facts F          answer every probe from the facts file F (docs/facts.md);\n"
    "                     repeatable, a later file's answer replaces an earlier one\n"
    "  --record F         write every fact observed to F, as a facts file\n"
    "  --role R           run only role R's checks (repeatable); without root, only\n"
    "                     the role whose identity this process has can run\n"
    "  --param NAME=VALUE override a param of the policy (repeatable)\n"
    "\n"
    "Without --root or --facts the running system is checked: as root, each role\n"
    "runs in a child process that has become that role's identity.\n"
    "POLICY is compiled bytecode; hangar-policy also accepts source. Each rule is\n"
    "printed as PASS, FAIL, ERROR (something could not be known) or SKIP, with the\n"
    "evidence that decided it: the assertion, where it is, what was observed.\n"
    "A question that cannot be answered is unknown, and unknown never passes.\n"
    "\n"
    "Not part of this build yet: --provider, --mode, --uid-split, --format,\n"
    "--output, and the default policy.\n"
    "\n"
    "exit status: 0 every rule passed, 1 a rule did not pass, 2 bad usage, a\n"
    "policy or facts file that cannot be read or is malformed, 4 the check could\n"
    "not run (an image root that cannot be opened, --record that cannot be\n"
    "written).\n";

static const char *const unbuilt[] = {"--provider", "--mode", "--uid-split",
                                      "--format",   "--output", NULL};

/* An option that takes a value, as "--opt V" or "--opt=V": the value, or
 * NULL when a is not that option. *i moves past a separate value. */
static const char *opt_value(const char *opt, int argc, char **argv, int *i, int *missing)
{
	size_t n = strlen(opt);
	const char *a = argv[*i];
	if (strncmp(a, opt, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = 1;
		return NULL;
	}
	return argv[++*i];
}

int hp_cmd_check(int argc, char **argv)
{
	hp_strv facts = {0}, names = {0}, values = {0};
	const char *policy = NULL, *root = NULL, *record = NULL;
	unsigned roles = 0;
	int rc = HP_EXIT_USAGE;
	hp_err err;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v;
		int missing = 0;
		for (const char *const *u = unbuilt; *u; u++)
			if (strcmp(a, *u) == 0 ||
			    (strncmp(a, *u, strlen(*u)) == 0 && a[strlen(*u)] == '=')) {
				hp_cli_error("check", "%s is not part of this build yet", *u);
				goto out;
			}
		if ((v = opt_value("--facts", argc, argv, &i, &missing))) {
			hp_strv_push(&facts, v);
		} else if ((v = opt_value("--root", argc, argv, &i, &missing))) {
			if (root) {
				rc = hp_cli_usage_error("check", "--root given twice");
				goto out;
			}
			root = v;
		} else if ((v = opt_value("--record", argc, argv, &i, &missing))) {
			if (record) {
				rc = hp_cli_usage_error("check", "--record given twice");
				goto out;
			}
			record = v;
		} else if ((v = opt_value("--role", argc, argv, &i, &missing))) {
			if (!hp_session_role_bit(v, &roles, &err)) {
				rc = hp_cli_usage_error("check", "%s", err.msg);
				goto out;
			}
		} else if ((v = opt_value("--param", argc, argv, &i, &missing))) {
			const char *eq = strchr(v, '=');
			if (!eq || eq == v) {
				rc = hp_cli_usage_error("check",
				                        "--param takes NAME=VALUE, not '%s'", v);
				goto out;
			}
			char *name = hp_xstrndup(v, (size_t)(eq - v));
			hp_strv_push(&names, name);
			free(name);
			hp_strv_push(&values, eq + 1);
		} else if (missing) {
			rc = hp_cli_usage_error("check", "%s needs a value", a);
			goto out;
		} else if (a[0] == '-' && a[1]) {
			rc = hp_cli_usage_error("check", "unknown option '%s'", a);
			goto out;
		} else if (policy) {
			rc = hp_cli_usage_error("check", "one policy at a time ('%s' and '%s')",
			                        policy, a);
			goto out;
		} else {
			policy = a;
		}
	}
	if (root && facts.n) {
		rc = hp_cli_usage_error("check", "--root and --facts cannot be used together");
		goto out;
	}
	if (!policy) {
		hp_cli_error("check",
		             "the default policy is not part of this build yet: name a POLICY");
		goto out;
	}
	hp_bc *bc = hp_policy_load(policy, &err);
	if (!bc) {
		if (err.msg[0])
			hp_cli_error("check", "%s", err.msg);
		goto out;
	}
	hp_facts *f = NULL;
	bool ok = true;
	if (facts.n) {
		f = hp_facts_new();
		for (size_t i = 0; i < facts.n && ok; i++)
			if (!(ok = hp_facts_load_file(f, facts.v[i], &err)))
				hp_cli_error("check", "%s", err.msg);
	}
	hp_param_override *ov = hp_xcalloc(names.n ? names.n : 1, sizeof *ov);
	for (size_t i = 0; i < names.n; i++)
		ov[i] = (hp_param_override){names.v[i], values.v[i]};
	hp_session_opts so;
	hp_session_opts_default(&so);
	so.source = f ? HP_SESSION_FACTS : root ? HP_SESSION_ROOTFS : HP_SESSION_LIVE;
	so.root_dir = root;
	so.facts = f ? hp_facts_backend(f) : NULL;
	so.params = ov;
	so.nparams = names.n;
	so.roles = roles;
	so.record = record;
	hp_session s;
	hp_session_status st = ok ? hp_session_run(bc, &so, &s, &err) : HP_SESSION_USAGE;
	if (ok && st != HP_SESSION_OK)
		hp_cli_error("check", "%s", err.msg);
	if (ok && (st == HP_SESSION_OK || s.eval.rules)) {
		hp_buf b = {0};
		hp_eval_print(&b, &s.eval);
		if (s.offline)
			hp_buf_printf(&b, "checked offline (an image root): %zu check%s need%s a live "
			                  "sandbox\n",
			              s.live_needed, s.live_needed == 1 ? "" : "s",
			              s.live_needed == 1 ? "s" : "");
		fwrite(b.data, 1, b.len, stdout);
		hp_buf_free(&b);
		rc = HP_EXIT_OK;
		for (uint32_t i = 0; i < bc->nrules; i++)
			if (s.eval.rules[i].result != HP_RESULT_PASS)
				rc = HP_EXIT_FINDINGS;
	}
	if (ok && st == HP_SESSION_FAILED)
		rc = HP_EXIT_CANNOT_RUN;
	if (ok)
		hp_session_free(&s);
	free(ov);
	hp_facts_free(f);
	hp_bc_free(bc);
out:
	hp_strv_free(&facts);
	hp_strv_free(&names);
	hp_strv_free(&values);
	return rc;
}
