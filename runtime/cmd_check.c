/* cmd_check.c: hangar-policy check, first form: evaluate a policy from
 * facts files alone (no root, no system looked at) and print each rule's
 * result with its evidence. The decision per provider and turn mode, the
 * live and rootfs backends and the report formats are not part of this
 * build yet: asking for them says so and exits 2. Evaluation itself is the
 * library call hp_eval_run (eval.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "eval.h"
#include "facts.h"
#include "policy.h"
#include "strv.h"

const char hp_help_check[] =
    "options in this build:\n"
    "  --facts F          answer every probe from the facts file F (docs/facts.md);\n"
    "                     repeatable, a later file's answer replaces an earlier one\n"
    "  --param NAME=VALUE override a param of the policy (repeatable)\n"
    "\n"
    "POLICY is compiled bytecode; hangar-policy also accepts source. Each rule is\n"
    "printed as PASS, FAIL, ERROR (something could not be known) or SKIP, with the\n"
    "evidence that decided it: the assertion, where it is, what was observed.\n"
    "A question no fact answers is unknown, and unknown never passes.\n"
    "\n"
    "Not part of this build yet: --provider, --mode, --uid-split, --root, --record,\n"
    "--role, --format, --output, checking the live system, and the default policy.\n"
    "\n"
    "exit status: 0 every rule passed, 1 a rule did not pass, 2 bad usage, a\n"
    "policy or facts file that cannot be read or is malformed.\n";

static const char *const unbuilt[] = {"--provider", "--mode",   "--uid-split", "--root", "--record",
                                      "--role",     "--format", "--output",    NULL};

int hp_cmd_check(int argc, char **argv)
{
	hp_strv facts = {0}, names = {0}, values = {0};
	const char *policy = NULL;
	int rc = HP_EXIT_USAGE;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = NULL;
		for (const char *const *u = unbuilt; *u; u++)
			if (strcmp(a, *u) == 0 ||
			    (strncmp(a, *u, strlen(*u)) == 0 && a[strlen(*u)] == '=')) {
				hp_cli_error("check", "%s is not part of this build yet", *u);
				goto out;
			}
		if (strcmp(a, "--facts") == 0 || strcmp(a, "--param") == 0) {
			if (i + 1 >= argc) {
				rc = hp_cli_usage_error("check", "%s needs a value", a);
				goto out;
			}
			v = argv[++i];
		} else if (strncmp(a, "--facts=", 8) == 0 || strncmp(a, "--param=", 8) == 0) {
			v = a + 8;
		}
		if (v && a[2] == 'f') {
			hp_strv_push(&facts, v);
		} else if (v) {
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
	if (!policy) {
		hp_cli_error("check",
		             "the default policy is not part of this build yet: name a POLICY");
		goto out;
	}
	if (!facts.n) {
		hp_cli_error(
		    "check",
		    "checking the live system is not part of this build yet: give --facts F");
		goto out;
	}
	hp_err err;
	hp_bc *bc = hp_policy_load(policy, &err);
	if (!bc) {
		if (err.msg[0])
			hp_cli_error("check", "%s", err.msg);
		goto out;
	}
	hp_facts *f = hp_facts_new();
	bool ok = true;
	for (size_t i = 0; i < facts.n && ok; i++)
		if (!(ok = hp_facts_load_file(f, facts.v[i], &err)))
			hp_cli_error("check", "%s", err.msg);
	hp_param_override *ov = hp_xcalloc(names.n ? names.n : 1, sizeof *ov);
	for (size_t i = 0; i < names.n; i++)
		ov[i] = (hp_param_override){names.v[i], values.v[i]};
	hp_eval ev;
	if (ok && !hp_eval_run(bc, hp_facts_backend(f), ov, names.n, NULL, &ev, &err)) {
		hp_cli_error("check", "%s", err.msg);
		ok = false;
	}
	if (ok) {
		hp_buf b = {0};
		hp_eval_print(&b, &ev);
		fwrite(b.data, 1, b.len, stdout);
		hp_buf_free(&b);
		rc = HP_EXIT_OK;
		for (uint32_t i = 0; i < bc->nrules; i++)
			if (ev.rules[i].result != HP_RESULT_PASS)
				rc = HP_EXIT_FINDINGS;
		hp_eval_free(&ev);
	}
	free(ov);
	hp_facts_free(f);
	hp_bc_free(bc);
out:
	hp_strv_free(&facts);
	hp_strv_free(&names);
	hp_strv_free(&values);
	return rc;
}
