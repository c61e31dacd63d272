# sandbox.sh: a throwaway sandbox for live end-to-end tests, sourced by a
# case's cmd. Everything happens in a private mount namespace: /etc is a
# bind-mounted copy, /run, /var/lib, /home and /usr/local are fresh tmpfs mounts, so
# the machine's own files are never touched and nothing outlives the test.
#
#   . "$SRC/tests/e2e/lib/sandbox.sh"
#   sandbox_require_root                # exit 77 (skip) unless root with unshare
#   sandbox_run '
#       sandbox_setup                   # a well-formed sandbox: split everywhere
#       echo "agent ALL=(ALL) NOPASSWD: ALL" >/etc/sudoers.d/agent
#       "$HP" check --provider docker
#   '
#
# The sandbox has: a driver user hangar (uid 999, gid 999, home
# /var/lib/hangar), an agent user agent (uid 1000, gid 1000, home
# /home/agent; any other uid-1000 account of the machine is removed from the
# copy), /var/lib/hangar and /var/lib/hangar-ctl owned by hangar (0700),
# /etc/claude-code/managed-settings.json owned by root (0644), the harness
# (sandbox_harness) in /usr/local and its environment file
# /var/lib/hangar/harness.env owned by hangar (0600), and the driver PATH
# below. The machine's own filesystems are remounted nosuid in the
# namespace (all but /usr/bin/sudo, bound on itself), so that the
# sandbox's image, for setuid_image, is what the test adds to its tmpfs
# mounts.

SANDBOX_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
SANDBOX_HANGAR_UID=999
SANDBOX_AGENT_UID=1000

sandbox_require_root() {
	if [ "$(id -u)" != 0 ]; then
		echo "needs root (private mount namespace, users)" >&2
		exit 77
	fi
	if ! command -v unshare >/dev/null 2>&1; then
		echo "needs unshare (util-linux)" >&2
		exit 77
	fi
}

# sandbox_run SCRIPT: run SCRIPT (sh) in a new private mount namespace, with
# this library sourced and the test's environment.
sandbox_run() {
	SANDBOX_LIB="$SRC/tests/e2e/lib/sandbox.sh" SANDBOX_SCRIPT=$1 \
		unshare -m --propagation private sh -c '. "$SANDBOX_LIB"; eval "$SANDBOX_SCRIPT"'
}

# sandbox_run_net SCRIPT: sandbox_run with a private network namespace as
# well, its loopback up and nothing else: a stand-in for envd can listen on
# 127.0.0.1 there without touching the machine's own ports.
sandbox_run_net() {
	if ! command -v ip >/dev/null 2>&1; then
		echo "needs ip (iproute2)" >&2
		exit 77
	fi
	SANDBOX_LIB="$SRC/tests/e2e/lib/sandbox.sh" SANDBOX_SCRIPT=$1 \
		unshare -m -n --propagation private sh -c \
		'. "$SANDBOX_LIB"; ip link set lo up || exit 1; eval "$SANDBOX_SCRIPT"'
}

# sandbox_envd MODE: start tests/tools/fake-envd on 127.0.0.1:49983 (inside
# sandbox_run_net), answering in MODE (401, 200, silent...), and wait until
# it listens; every request it reads is appended to $T/envd.log.
# sandbox_envd_stop ends it, and so does the sandbox's script when it exits
# (a case that never calls it left the stand-in running after the suite).
sandbox_envd() {
	rm -f "$T/envd.ready" "$T/envd.log"
	"$TOOLS/fake-envd" 49983 "$1" "$T/envd.ready" "$T/envd.log" &
	SANDBOX_ENVD_PID=$!
	trap sandbox_envd_stop EXIT
	while [ ! -e "$T/envd.ready" ]; do
		kill -0 "$SANDBOX_ENVD_PID" 2>/dev/null || return 1
		sleep 0.05
	done
}
sandbox_envd_stop() {
	[ -n "${SANDBOX_ENVD_PID:-}" ] || return 0
	kill "$SANDBOX_ENVD_PID" 2>/dev/null
	wait "$SANDBOX_ENVD_PID" 2>/dev/null
	SANDBOX_ENVD_PID=
}

sandbox_setup() {
	set -e
	# the case's own directory: unset, the copies would land in /
	: "${T:?sandbox_setup: T, the case's scratch directory, is not set}"
	etc=$(mktemp -d "$T/sandbox-etc.XXXXXX")
	cp -a /etc/. "$etc"
	# drop any account or group that would collide with the sandbox's users
	for f in passwd group shadow gshadow; do
		[ -f "$etc/$f" ] || continue
		awk -F: -v f="$f" '
			(f == "passwd" && ($3 == 999 || $3 == 1000)) { next }
			(f == "group" && ($3 == 999 || $3 == 1000)) { next }
			($1 == "hangar" || $1 == "agent") { next }
			{ print }' "$etc/$f" >"$etc/$f.new"
		cat "$etc/$f.new" >"$etc/$f"
		rm -f "$etc/$f.new"
	done
	# removed accounts must leave no shadow entries behind
	for f in shadow gshadow; do
		[ -f "$etc/$f" ] || continue
		src=passwd
		[ "$f" = gshadow ] && src=group
		awk -F: 'NR == FNR { keep[$1] = 1; next } ($1 in keep) { print }' \
			"$etc/$src" "$etc/$f" >"$etc/$f.new"
		cat "$etc/$f.new" >"$etc/$f"
		rm -f "$etc/$f.new"
	done
	echo "hangar:x:999:999:hangar driver:/var/lib/hangar:/usr/sbin/nologin" >>"$etc/passwd"
	echo "agent:x:1000:1000:agent:/home/agent:/bin/sh" >>"$etc/passwd"
	echo "hangar:x:999:" >>"$etc/group"
	echo "agent:x:1000:" >>"$etc/group"
	echo "hangar:!:20000:0:99999:7:::" >>"$etc/shadow"
	echo "agent:!:20000:0:99999:7:::" >>"$etc/shadow"
	rm -f "$etc/sudoers.d/"[!R]* 2>/dev/null || true
	mkdir -p "$etc/claude-code"
	echo '{}' >"$etc/claude-code/managed-settings.json"
	chown root:root "$etc/claude-code/managed-settings.json"
	chmod 0644 "$etc/claude-code/managed-settings.json"
	# the machine's own filesystems are not the sandbox's image: in this
	# namespace they ignore setuid, so setuid_image walks only what the
	# sandbox adds below (tmpfs mounts without nosuid)
	awk '$5 != "/etc" { print $5 }' /proc/self/mountinfo | while read -r mp; do
		mount -o remount,bind,nosuid "$(printf "$mp")" 2>/dev/null || true
	done
	mount --bind "$etc" /etc
	mount -o remount,bind,nosuid /etc
	# ...but for the machine's sudo, which the sudo probe runs as the agent
	for f in /usr/bin/sudo; do
		[ -u "$f" ] || continue
		mount --bind "$f" "$f"
		mount -o remount,bind,suid "$f"
	done

	mount -t tmpfs -o mode=0755 sandbox-var-lib /var/lib
	mkdir -p /var/lib/sudo
	chmod 0711 /var/lib/sudo
	install -d -o 999 -g 999 -m 0700 /var/lib/hangar /var/lib/hangar-ctl
	install -d -o 999 -g 999 -m 0755 /var/lib/hangar/harness
	# /run as a fresh image has it: root's, with nothing the machine's own
	# services (or a machine user with the agent's uid) left there
	mount -t tmpfs -o mode=0755 sandbox-run /run
	install -d -m 1777 /run/lock
	mount -t tmpfs -o mode=0755 sandbox-home /home
	install -d -o 1000 -g 1000 -m 0755 /home/agent
	mount -t tmpfs -o mode=0755 sandbox-usr-local /usr/local
	mkdir -p /usr/local/bin /usr/local/sbin
	sandbox_harness /
	# the harness's node is the sandbox's own: a node the machine has on
	# the PATH (command_files lists every one the driver could run) is
	# covered by a file nobody can execute, so what a case prints does
	# not depend on the machine
	: >"$T/sandbox-no-node"
	chmod 0644 "$T/sandbox-no-node"
	for f in /usr/sbin/node /usr/bin/node /sbin/node /bin/node; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		mount --bind "$T/sandbox-no-node" "$f"
	done
	install -o 999 -g 999 -m 0600 /dev/null /var/lib/hangar/harness.env
	# the check runs from the test's build tree: make sure the agent cannot
	# reach it there (it could otherwise replace the runtime mid-check)
	PATH=$SANDBOX_PATH
	export PATH
	unset HANGAR_AGENT_USER HANGAR_UID_SPLIT HANGAR_PROVIDER
	set +e
}

# sandbox_harness ROOT [BIN]: the harness as npm installs it globally,
# below ROOT: claude in BIN (default /usr/local/bin), a symlink into node's
# global modules to a script run by `#!/usr/bin/env node`, and node itself
# (a copy of true) in BIN, all root's.
sandbox_harness() {
	bin=${2:-/usr/local/bin}
	pkg=$1/usr/local/lib/node_modules/@anthropic-ai/claude-code
	mkdir -p "$pkg" "$1$bin"
	printf '#!/usr/bin/env node\n' >"$pkg/cli.js"
	chmod 0755 "$pkg/cli.js"
	echo '{"name": "@anthropic-ai/claude-code"}' >"$pkg/package.json"
	ln -sf /usr/local/lib/node_modules/@anthropic-ai/claude-code/cli.js "$1$bin/claude"
	cp /bin/true "$1$bin/node"
	chmod 0755 "$1$bin/node"
	chmod -R go-w "$1/usr/local/lib"
}

# sandbox_as_agent CMD...: run a command as the sandbox's agent, as a test's
# own adversary (not through hangar-policy).
sandbox_as_agent() {
	setpriv --reuid=1000 --regid=1000 --clear-groups -- "$@"
}
