/* provider_detect.c: --provider, HANGAR_PROVIDER, or the sandbox's markers.
 *
 * Markers: Docker writes /.dockerenv into every container; Kubernetes puts
 * KUBERNETES_SERVICE_HOST into every pod's environment; E2B sets
 * E2B_SANDBOX=true and writes /run/e2b/.E2B_SANDBOX. CubeSandbox is
 * E2B-compatible and shows E2B's markers: they are read as e2b, whose policy
 * never splits, so the mistake can never produce a split. Only root can
 * create the file markers in an image whose / is root-owned, and the
 * environment is the check's own, not the agent's. */
#include "probe/provider_detect.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static bool marker_file(const char *root, const char *rel)
{
	char path[4096];
	int n = snprintf(path, sizeof path, "%s/%s", strcmp(root, "/") == 0 ? "" : root, rel);
	if (n < 0 || (size_t)n >= sizeof path)
		return false;
	struct stat st;
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool named(const char *origin, const char *name, hp_provider *out, hp_err *err)
{
	int p = hp_lookup_name(hp_provider_names, HP_PROVIDER_COUNT, name);
	if (p < 0) {
		char names[128];
		hp_err_set(err, "%s '%s' is not a provider (%s)", origin, name,
		           hp_names_text(names, sizeof names, hp_provider_names, HP_PROVIDER_COUNT,
		                         NULL));
		return false;
	}
	*out = (hp_provider)p;
	return true;
}

bool hp_probe_provider_detect(const char *flag, hp_getenv_fn env, const char *root, hp_provider *out,
                        hp_err *err)
{
	if (flag)
		return named("--provider", flag, out, err);
	const char *e = env("HANGAR_PROVIDER");
	if (e && *e)
		return named("HANGAR_PROVIDER", e, out, err);

	if (!root) {
		hp_err_set(err,
		           "facts and image roots carry no sandbox markers: say which provider "
		           "with --provider or HANGAR_PROVIDER");
		return false;
	}
	bool seen[HP_PROVIDER_COUNT] = {false};
	const char *k8s = env("KUBERNETES_SERVICE_HOST");
	const char *e2b = env("E2B_SANDBOX");
	seen[HP_PROVIDER_DOCKER] = marker_file(root, ".dockerenv");
	seen[HP_PROVIDER_KUBERNETES] = k8s && *k8s;
	seen[HP_PROVIDER_E2B] =
	    (e2b && strcmp(e2b, "true") == 0) || marker_file(root, "run/e2b/.E2B_SANDBOX");

	int found = -1, count = 0;
	for (int p = 0; p < HP_PROVIDER_COUNT; p++)
		if (seen[p]) {
			found = p;
			count++;
		}
	if (count == 1) {
		*out = (hp_provider)found;
		return true;
	}
	if (count == 0)
		hp_err_set(err,
		           "no sandbox provider is certain here (no /.dockerenv, "
		           "KUBERNETES_SERVICE_HOST or E2B_SANDBOX): say which with --provider");
	else
		hp_err_set(err,
		           "the markers of several sandbox providers are present (%s%s%s%s%s): "
		           "say which with --provider",
		           seen[0] ? "/.dockerenv" : "",
		           seen[0] && (seen[1] || seen[2]) ? ", " : "",
		           seen[1] ? "KUBERNETES_SERVICE_HOST" : "", seen[1] && seen[2] ? ", " : "",
		           seen[2] ? "E2B_SANDBOX" : "");
	return false;
}
