/* cmd_check.c: hangar-policy check: decide, for a sandbox, what hangar does
 * with a turn in each mode (split, single-user, refuse) and report why. The
 * options choose the policy, the provider, the setting and where the
 * answers come from (the live sandbox, an image root, facts files); the
 * session (session.h) runs the checks, and verdict.h decides and renders.
 * This file only reads flags and moves results between them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/atomic_file.h"
#include "check/cli.h"
#include "check/commands.h"
#include "check/default_policy.h"
#include "probe/docset.h"
#include "probe/facts.h"
#include "check/policy.h"
#include "probe/provider_detect.h"
#include "check/session.h"
#include "lib/strv.h"
#include "check/verdict.h"

const char hp_help_check[] =
    "options:\n"
    "  --provider P       docker, kubernetes, e2b or cubesandbox; default: HANGAR_PROVIDER,\n"
    "                     else the sandbox's markers (/.dockerenv, KUBERNETES_SERVICE_HOST,\n"
    "                     E2B_SANDBOX); when none is certain the check asks for it (exit 2)\n"
    "  --mode M           the turn mode whose decision is the exit status: auto, ask,\n"
    "                     deny-risky or governed (default ask); the report covers all four\n"
    "  --uid-split S      auto, required or off; default HANGAR_UID_SPLIT, else the\n"
    "                     provider's default in the policy. Any other value is treated as\n"
    "                     required, with a warning\n"
    "  --root DIR         check the unpacked image root DIR, running nothing in it;\n"
    "                     probes that need a live sandbox are skipped, so nothing splits\n"
    "  --facts F          answer every probe from the facts file F (docs/facts.md);\n"
    "                     repeatable, a later file's answer replaces an earlier one\n"
    "  --document NAME=FILE  give the policy the YAML or JSON document FILE as NAME\n"
    "                     (repeatable; docs/documents.md): a Pod or a workload manifest.\n"
    "                     Without --facts or --root only the documents are checked:\n"
    "                     every other probe is skipped, so nothing splits\n"
    "  --record F         write every fact observed to F, as a facts file (a new file,\n"
    "                     0600, atomically; a path others could redirect is refused)\n"
    "  --role R           run only role R's checks (repeatable); without root, only\n"
    "                     the role whose identity this process has can run\n"
    "  --param NAME=VALUE override a param of the policy (repeatable)\n"
    "  --format F         the report's form (docs/report.md): text (default), json,\n"
    "                     junit (a test case per rule) or sarif (results at the rules)\n"
    "  --waivers F        accept the failures the waiver file F waives (docs/waivers.md);\n"
    "                     repeatable; an expired waiver is an error\n"
    "  --only RULE,...    check only these rules; every other rule is skipped\n"
    "  --skip RULE,...    skip these rules; a skipped rule never passes, so a mode\n"
    "                     it counts for is not split\n"
    "  --output F         write the report to F instead of standard output (a new file,\n"
    "                     0644, atomically; a path others could redirect is refused)\n"
    "\n"
    "POLICY is compiled bytecode (hangar-policy also accepts source); without it\n"
    "the policy built into this executable is used. Without --root or --facts the\n"
    "running system is checked: as root, each role runs in a child process that\n"
    "has become that role's identity. Nothing on the system is changed. A question\n"
    "that cannot be answered is unknown, and unknown never passes.\n"
    "\n"
    "exit status (for the mode asked):\n"
    "  0  split: the driver runs as its own user\n"
    "  1  single-user: driver and agent share a user\n"
    "  3  refuse: the turn does not run\n"
    "  2  bad usage, or a policy, bytecode or facts file that does not load\n"
    "  4  the check could not run (an image root that cannot be opened, a\n"
    "     record or report that cannot be written)\n";

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

/* RULE,RULE,... appended to ids (empty items ignored). */
static void split_ids(const char *v, hp_strv *ids)
{
	while (*v) {
		size_t n = strcspn(v, ",");
		if (n) {
			char *id = hp_xstrndup(v, n);
			hp_strv_push(ids, id);
			free(id);
		}
		v += n + (v[n] == ',');
	}
}

int hp_cmd_check(int argc, char **argv)
{
	hp_strv facts = {0}, names = {0}, values = {0}, documents = {0};
	const char *policy = NULL, *root = NULL, *record = NULL, *output = NULL;
	const char *provider_flag = NULL, *uid_split = NULL;
	hp_mode mode = HP_MODE_ASK;
	hp_report_format format = HP_FMT_TEXT;
	hp_strv waiver_files = {0}, only = {0}, skip = {0};
	unsigned roles = 0;
	int rc = HP_EXIT_USAGE;
	hp_err err;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v;
		int missing = 0;
		if ((v = opt_value("--provider", argc, argv, &i, &missing))) {
			provider_flag = v;
		} else if ((v = opt_value("--mode", argc, argv, &i, &missing))) {
			int m = hp_lookup_name(hp_mode_names, HP_MODE_COUNT, v);
			if (m < 0) {
				char modes[128];
				rc = hp_cli_usage_error(
				    "check", "--mode '%s' is not %s", v,
				    hp_names_text(modes, sizeof modes, hp_mode_names,
				                  HP_MODE_COUNT, "or"));
				goto out;
			}
			mode = (hp_mode)m;
		} else if ((v = opt_value("--uid-split", argc, argv, &i, &missing))) {
			uid_split = v;
		} else if ((v = opt_value("--format", argc, argv, &i, &missing))) {
			static const char *const formats[] = {"text", "json", "junit", "sarif"};
			int fm = hp_lookup_name(formats, 4, v);
			if (fm < 0) {
				rc = hp_cli_usage_error(
				    "check", "--format '%s' is not text, json, junit or sarif", v);
				goto out;
			}
			format = (hp_report_format)fm;
		} else if ((v = opt_value("--waivers", argc, argv, &i, &missing))) {
			hp_strv_push(&waiver_files, v);
		} else if ((v = opt_value("--only", argc, argv, &i, &missing))) {
			split_ids(v, &only);
		} else if ((v = opt_value("--skip", argc, argv, &i, &missing))) {
			split_ids(v, &skip);
		} else if ((v = opt_value("--output", argc, argv, &i, &missing))) {
			output = v;
		} else if ((v = opt_value("--facts", argc, argv, &i, &missing))) {
			hp_strv_push(&facts, v);
		} else if ((v = opt_value("--document", argc, argv, &i, &missing))) {
			hp_strv_push(&documents, v);
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
	/* The provider first: asking for it must not wait for a whole check.
	 * Facts and image roots carry no markers of a running sandbox, so there
	 * only --provider or HANGAR_PROVIDER say which. */
	hp_provider provider;
	if (!hp_provider_detect(provider_flag, getenv,
	                        (facts.n || root || documents.n) ? NULL : "/", &provider,
	                        &err)) {
		hp_cli_error("check", "%s", err.msg);
		goto out;
	}
	hp_bc *bc = policy ? hp_policy_load(policy, &err) : hp_default_policy_load(&err);
	if (!bc) {
		if (err.msg[0])
			hp_cli_error("check", "%s", err.msg);
		goto out;
	}
	if (!hp_verdict_knows_provider(bc, provider, &err)) {
		hp_cli_error("check", "%s", err.msg);
		hp_bc_free(bc);
		goto out;
	}
	hp_waivers waivers = {0};
	bool ok = hp_verdict_check_rules(bc, &only, "--only", &err) &&
	          hp_verdict_check_rules(bc, &skip, "--skip", &err);
	if (!ok) {
		rc = hp_cli_usage_error("check", "%s", err.msg);
		hp_bc_free(bc);
		goto out;
	}
	int64_t today = 0;
	if (waiver_files.n && !hp_today(&today, &err)) {
		hp_cli_error("check", "%s", err.msg);
		hp_bc_free(bc);
		goto out;
	}
	for (size_t i = 0; i < waiver_files.n && ok; i++)
		if (!(ok = hp_waivers_load_file(&waivers, waiver_files.v[i], today, &err)))
			hp_cli_error("check", "%s", err.msg);
	if (ok && !(ok = hp_waivers_check(&waivers, bc, &err)))
		hp_cli_error("check", "%s", err.msg);
	hp_facts *f = NULL;
	hp_docset *docs = documents.n ? hp_docset_new() : NULL;
	for (size_t i = 0; i < documents.n && ok; i++)
		if (!(ok = hp_docset_add(docs, documents.v[i], &err)))
			hp_cli_error("check", "%s", err.msg);
	if (ok && facts.n) {
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
	so.source = f || (docs && !root) ? HP_SESSION_FACTS
	            : root               ? HP_SESSION_ROOTFS
	                                 : HP_SESSION_LIVE;
	so.root_dir = root;
	if (f)
		so.facts = hp_facts_backend(f);
	else if (docs && !root)
		so.facts = hp_docset_backend(docs, NULL); /* the documents alone */
	so.docs = so.facts && !f ? NULL : docs;
	so.params = ov;
	so.nparams = names.n;
	so.roles = roles;
	so.record = record;
	hp_session s;
	hp_session_status st = ok ? hp_session_run(bc, &so, &s, &err) : HP_SESSION_USAGE;
	if (ok && st != HP_SESSION_OK)
		hp_cli_error("check", "%s", err.msg);
	if (ok && (st == HP_SESSION_OK || s.eval.rules)) {
		hp_run_view run = {&s.eval, s.offline, s.live_needed, &s.notes};
		hp_verdict_opts vo = {provider,
		                      mode,
		                      uid_split,
		                      getenv("HANGAR_UID_SPLIT"),
		                      format,
		                      format == HP_FMT_TEXT && !output && isatty(STDOUT_FILENO) &&
		                          !getenv("NO_COLOR"),
		                      &waivers,
		                      &only,
		                      &skip};
		hp_buf b = {0};
		rc = hp_verdict(&run, &vo, &b);
		if (output) {
			if (!hp_safe_write(output, b.data, b.len, 0644, &err)) {
				hp_cli_error("check", "--output %s", err.msg);
				rc = HP_EXIT_CANNOT_RUN;
			}
		} else if (fwrite(b.data, 1, b.len, stdout) != b.len || fflush(stdout) != 0) {
			rc = HP_EXIT_CANNOT_RUN;
		}
		hp_buf_free(&b);
	}
	if (ok && st == HP_SESSION_FAILED)
		rc = HP_EXIT_CANNOT_RUN;
	if (ok)
		hp_session_free(&s);
	free(ov);
	hp_facts_free(f);
	hp_docset_free(docs);
	hp_waivers_free(&waivers);
	hp_bc_free(bc);
out:
	hp_strv_free(&documents);
	hp_strv_free(&waiver_files);
	hp_strv_free(&only);
	hp_strv_free(&skip);
	hp_strv_free(&facts);
	hp_strv_free(&names);
	hp_strv_free(&values);
	return rc;
}
