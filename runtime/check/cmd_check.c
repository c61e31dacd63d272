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
#include "check/color.h"
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
    "POLICY is compiled bytecode (hangar-policy also accepts source; '-' is\n"
    "standard input); without it the policy built into this executable is\n"
    "used. Without --root or --facts the running system is checked: as root,\n"
    "each role runs in a child process that has become that role's identity.\n"
    "Nothing on the system is changed. A question that cannot be answered is\n"
    "unknown, and unknown never passes.\n"
    "\n"
    "exit status (for the mode asked):\n"
    "  0  split: the driver runs as its own user\n"
    "  1  single-user: driver and agent share a user\n"
    "  3  refuse: the turn does not run\n"
    "  2  bad usage, or a policy, bytecode or facts file that does not load\n"
    "  4  the check could not run (an image root that cannot be opened, a\n"
    "     record or report that cannot be written)\n";

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

/* --container: a recording made live in one container, as its own user,
 * of one role. */
static bool container_ok(const char *name, bool offline, unsigned roles, hp_err *err)
{
	size_t n = strlen(name);
	bool ok = n > 0 && n <= 253;
	for (size_t i = 0; ok && i < n; i++)
		ok = (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
		     (name[i] >= '0' && name[i] <= '9') || name[i] == '-' || name[i] == '_' ||
		     name[i] == '.';
	if (!ok) {
		hp_err_set(err, "--container '%s' is not a container's name", name);
		return false;
	}
	if (offline) {
		hp_err_set(err, "--container records a live container: not with --root, --facts or "
		                "--document");
		return false;
	}
	if (!roles || (roles & (roles - 1))) {
		hp_err_set(err, "--container needs exactly one --role: the role of the container's "
		                "own user");
		return false;
	}
	if (geteuid() == 0) {
		hp_err_set(err, "--container records what the container's own user sees: run it "
		                "as that user, not as root");
		return false;
	}
	return true;
}

int hp_cmd_check(int argc, char **argv)
{
	hp_strv facts = {0}, names = {0}, values = {0}, documents = {0};
	const char *policy = NULL, *root = NULL, *record = NULL, *output = NULL;
	const char *provider_flag = NULL, *uid_split = NULL, *container = NULL;
	static const char *const formats[] = {"text", "json", "junit", "sarif"};
	hp_mode mode = HP_MODE_ASK;
	hp_report_format format = HP_FMT_TEXT;
	bool quiet = false;
	hp_strv waiver_files = {0}, only = {0}, skip = {0};
	unsigned roles = 0;
	int rc = HP_EXIT_USAGE;
	hp_err err;
	hp_opts o;
	hp_opts_begin(&o, argc, argv);
	for (int id; (id = hp_opts_next(&o)) != HP_OPT_END;) {
		const char *v = o.arg;
		switch (id) {
		case HP_OPT_STOP:
			rc = o.rc;
			goto out;
		case HP_OPT_check_provider:
			provider_flag = v;
			break;
		case HP_OPT_check_mode: {
			int m = hp_lookup_name(hp_mode_names, HP_MODE_COUNT, v);
			if (m < 0) {
				rc = hp_cli_bad_value("check", "--mode", v, hp_mode_names,
				                      HP_MODE_COUNT);
				goto out;
			}
			mode = (hp_mode)m;
			break;
		}
		case HP_OPT_check_uid_split:
			uid_split = v;
			break;
		case HP_OPT_check_format: {
			int fm = hp_lookup_name(formats, 4, v);
			if (fm < 0) {
				rc = hp_cli_bad_value("check", "--format", v, formats, 4);
				goto out;
			}
			format = (hp_report_format)fm;
			break;
		}
		case HP_OPT_check_waivers:
			hp_strv_push(&waiver_files, v);
			break;
		case HP_OPT_check_only:
			split_ids(v, &only);
			break;
		case HP_OPT_check_skip:
			split_ids(v, &skip);
			break;
		case HP_OPT_check_output:
			output = v;
			break;
		case HP_OPT_check_quiet:
			quiet = true;
			break;
		case HP_OPT_check_facts:
			hp_strv_push(&facts, v);
			break;
		case HP_OPT_check_document:
			hp_strv_push(&documents, v);
			break;
		case HP_OPT_check_container:
			if (container) {
				rc = hp_cli_usage_error("check", "--container given twice");
				goto out;
			}
			container = v;
			break;
		case HP_OPT_check_root:
			if (root) {
				rc = hp_cli_usage_error("check", "--root given twice");
				goto out;
			}
			root = v;
			break;
		case HP_OPT_check_record:
			if (record) {
				rc = hp_cli_usage_error("check", "--record given twice");
				goto out;
			}
			record = v;
			break;
		case HP_OPT_check_role:
			if (!hp_session_role_bit(v, &roles, &err)) {
				rc = hp_cli_usage_error("check", "%s", err.msg);
				goto out;
			}
			break;
		case HP_OPT_check_param: {
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
			break;
		}
		}
	}
	if (o.noperands > 1) {
		rc = hp_cli_usage_error("check", "one policy at a time ('%s' and '%s')",
		                        o.operands[0], o.operands[1]);
		goto out;
	}
	policy = o.noperands ? o.operands[0] : NULL;
	if (output && hp_cli_is_stdio(output))
		output = NULL;
	if (quiet && output) {
		rc = hp_cli_usage_error("check", "--quiet writes no report: --output has none to write");
		goto out;
	}
	if (record && hp_cli_is_stdio(record) && !quiet && !output) {
		rc = hp_cli_usage_error("check",
		                        "--record - and the report would both go to standard output "
		                        "(add --quiet or --output F)");
		goto out;
	}
	if (root && facts.n) {
		rc = hp_cli_usage_error("check", "--root and --facts cannot be used together");
		goto out;
	}
	size_t nstdin = policy && hp_cli_is_stdio(policy);
	for (size_t i = 0; i < facts.n; i++)
		nstdin += hp_cli_is_stdio(facts.v[i]);
	if (nstdin > 1) {
		rc = hp_cli_usage_error("check", "standard input ('-') named more than once");
		goto out;
	}
	if (container && !container_ok(container, root || facts.n || documents.n, roles, &err)) {
		rc = hp_cli_usage_error("check", "%s", err.msg);
		goto out;
	}
	/* The provider first: asking for it must not wait for a whole check.
	 * Facts and image roots carry no markers of a running sandbox, so there
	 * only --provider or HANGAR_PROVIDER say which. */
	hp_provider provider;
	if (!hp_probe_provider_detect(provider_flag, getenv,
	                        (facts.n || root || documents.n) ? NULL : "/", &provider,
	                        &err)) {
		hp_cli_error("check", "%s", err.msg);
		goto out;
	}
	hp_bc *bc = policy ? hp_policy_load_operand(policy, &err) : hp_default_policy_load(&err);
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
	hp_docset *docs = documents.n ? hp_probe_docset_new() : NULL;
	for (size_t i = 0; i < documents.n && ok; i++)
		if (!(ok = hp_probe_docset_add(docs, documents.v[i], &err)))
			hp_cli_error("check", "%s", err.msg);
	if (ok && facts.n) {
		f = hp_probe_facts_new();
		for (size_t i = 0; i < facts.n && ok; i++) {
			if (hp_cli_is_stdio(facts.v[i])) {
				/* --facts -: a recording piped in, as diff reads one */
				uint8_t *data;
				size_t len;
				ok = hp_cli_read_stdin(HP_FACTS_MAX_FILE, &data, &len, &err);
				if (ok) {
					ok = hp_probe_facts_load(f, HP_STDIN_NAME, (const char *)data,
					                         len, &err);
					free(data);
				}
			} else {
				ok = hp_probe_facts_load_file(f, facts.v[i], &err);
			}
			if (!ok)
				hp_cli_error("check", "%s", err.msg);
		}
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
		so.facts = hp_probe_facts_backend(f);
	else if (docs && !root)
		so.facts = hp_probe_docset_backend(docs, NULL); /* the documents alone */
	so.docs = so.facts && !f ? NULL : docs;
	so.params = ov;
	so.nparams = names.n;
	so.roles = roles;
	so.record = record;
	so.container = container;
	hp_session s;
	hp_session_status st = ok ? hp_session_run(bc, &so, &s, &err) : HP_SESSION_USAGE;
	if (ok && st != HP_SESSION_OK)
		hp_cli_error("check", "%s", err.msg);
	if (ok && (st == HP_SESSION_OK || s.eval.rules)) {
		hp_run_view run = {&s.eval, s.offline, s.live_needed, &s.notes, f};
		hp_verdict_opts vo = {.provider = provider,
		                      .mode = mode,
		                      .uid_split_flag = uid_split,
		                      .uid_split_env = getenv("HANGAR_UID_SPLIT"),
		                      .format = format,
		                      .colour = format == HP_FMT_TEXT && !output &&
		                                hp_color_for_fd(STDOUT_FILENO),
		                      .waivers = &waivers,
		                      .only = &only,
		                      .skip = &skip,
		                      .sidecar_env = getenv("HANGAR_K8S_DRIVER_SIDECAR"),
		                      .envd_env = getenv(HP_ENVD_SETTING),
		                      .container = container,
		                      .container_roles = roles,
		                      .container_uid = geteuid()};
		const char *penv = getenv("HANGAR_PROVIDER");
		vo.provider_source = provider_flag ? "--provider"
		                     : penv && *penv ? "HANGAR_PROVIDER"
		                                     : "the sandbox's markers";
		char *srcdesc = NULL, *base = NULL;
		if (!policy) {
			srcdesc = hp_xasprintf("built in (its source: %s)", hp_default_policy_source);
			base = hp_xstrdup(hp_default_policy_source);
			char *slash = strrchr(base, '/');
			if (slash)
				*slash = '\0';
		} else if (hp_cli_is_stdio(policy)) {
			srcdesc = hp_xstrdup("from standard input");
			base = hp_xstrdup("the current directory");
		} else {
			srcdesc = hp_xasprintf("from %s", policy);
			const char *slash = strrchr(policy, '/');
			base = hp_policy_is_bytecode(policy, &err) == 1
			           ? hp_xstrdup("the directory its source was compiled in")
			       : slash ? hp_xstrndup(policy, (size_t)(slash - policy))
			               : hp_xstrdup("the current directory");
		}
		vo.policy_source = srcdesc;
		vo.location_base = base;
		hp_buf b = {0};
		rc = hp_verdict(&run, &vo, &b);
		if (quiet) {
			/* the exit status alone */
		} else if (output) {
			if (!hp_safe_write(output, b.data, b.len, 0644, &err)) {
				hp_cli_error("check", "--output %s", err.msg);
				rc = HP_EXIT_CANNOT_RUN;
			}
		} else if (!hp_cli_write_stdout("check", b.data, b.len)) {
			rc = HP_EXIT_CANNOT_RUN;
		}
		hp_buf_free(&b);
		free(srcdesc);
		free(base);
	}
	if (ok && st == HP_SESSION_FAILED)
		rc = HP_EXIT_CANNOT_RUN;
	if (ok)
		hp_session_free(&s);
	free(ov);
	hp_probe_facts_free(f);
	hp_probe_docset_free(docs);
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
