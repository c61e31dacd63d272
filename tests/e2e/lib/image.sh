# image.sh: unpacked image roots for the `check --root` end-to-end tests,
# sourced by a case's cmd. Everything is built under $T, as root (owners
# matter), and removed with $T.
#
#   image_require_root        exit 77 (skip) unless root
#   image_make DIR            a well-formed image: users root, hangar (999)
#                             and agent (1000); a root-owned driver PATH;
#                             hangar's directories; managed settings owned
#                             by root; su and passwd setuid root; /tmp;
#                             the harness (sandbox_harness: claude and node
#                             in /usr/bin), /usr/bin/env,
#                             the driver's python3 (Debian's layout)
#                             and hangar's harness.env
#   image_check DIR [ARG...]  hangar-policy check --provider docker --root
#                             DIR (the built-in policy) with the image's
#                             PATH; prints the rules that did not pass (result,
#                             id, evidence), how many passed, the decision
#                             and the exit status, with DIR shown as $IMG
#   report_rules              that filter, on a text report on stdin
#   image_snapshot DIR        every entry under DIR: path, type, owner,
#                             group, mode, size, links and a content hash
#                             (what "nothing changed" compares)

IMAGE_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

image_require_root() {
	if [ "$(id -u)" != 0 ]; then
		echo "needs root (image owners and modes)" >&2
		exit 77
	fi
}

image_make() {
	d=$1
	mkdir -p "$d"
	chmod 0755 "$d"
	for x in etc etc/claude-code usr usr/bin usr/sbin usr/local usr/local/bin \
		usr/local/sbin var var/lib home root; do
		mkdir -p "$d/$x"
		chmod 0755 "$d/$x"
	done
	chmod 0700 "$d/root"
	ln -s usr/bin "$d/bin"
	ln -s usr/sbin "$d/sbin"
	mkdir -m 1777 "$d/tmp"
	cat >"$d/etc/passwd" <<-'END'
		root:x:0:0:root:/root:/bin/sh
		daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
		hangar:x:999:999:hangar driver:/var/lib/hangar:/usr/sbin/nologin
		agent:x:1000:1000:agent:/home/agent:/bin/sh
	END
	cat >"$d/etc/group" <<-'END'
		root:x:0:
		daemon:x:1:
		sudo:x:27:
		hangar:x:999:
		agent:x:1000:
	END
	cat >"$d/etc/shadow" <<-'END'
		root:*:20000:0:99999:7:::
		daemon:*:20000:0:99999:7:::
		hangar:!:20000:0:99999:7:::
		agent:!:20000:0:99999:7:::
	END
	chmod 0640 "$d/etc/shadow"
	printf 'passwd: files\ngroup: files\nshadow: files\nsudoers: files\n' >"$d/etc/nsswitch.conf"
	printf 'root ALL=(ALL:ALL) ALL\n' >"$d/etc/sudoers"
	chmod 0440 "$d/etc/sudoers"
	echo '{}' >"$d/etc/claude-code/managed-settings.json"
	chmod 0644 "$d/etc/claude-code/managed-settings.json"
	for p in su passwd; do
		printf '#!/bin/sh\n' >"$d/usr/bin/$p"
		chmod 4755 "$d/usr/bin/$p"
	done
	printf '#!/bin/sh\n' >"$d/usr/bin/ls"
	chmod 0755 "$d/usr/bin/ls"
	install -d -o 999 -g 999 -m 0700 "$d/var/lib/hangar" "$d/var/lib/hangar-ctl"
	install -d -o 999 -g 999 -m 0755 "$d/var/lib/hangar/harness"
	install -d -o 1000 -g 1000 -m 0755 "$d/home/agent"
	install -o 999 -g 999 -m 0600 /dev/null "$d/var/lib/hangar/harness.env"
	image_elf >"$d/usr/bin/env"
	chmod 0755 "$d/usr/bin/env"
	. "$SRC/tests/e2e/lib/sandbox.sh"
	sandbox_harness "$d" /usr/bin
	# the machine's own node names a loader the image does not have
	image_elf >"$d/usr/bin/node"
	# the driver's python3, as Debian installs it (prefix /usr): its
	# landmark, lib-dynload and site directory, all root's
	mkdir -p "$d/usr/lib/python3.11/lib-dynload" "$d/usr/lib/python3/dist-packages"
	: >"$d/usr/lib/python3.11/os.py"
	image_elf >"$d/usr/bin/python3.11"
	chmod 0755 "$d/usr/bin/python3.11"
	ln -s python3.11 "$d/usr/bin/python3"
	chmod -R go-w "$d/usr/lib"
}

# image_elf: a minimal ELF program of this machine on stdout, 120 bytes: the
# header and one PT_LOAD, no loader and no dynamic section (what
# command_files reads of a static program).
image_elf() {
	case $(uname -m) in
	aarch64) m='\267\000' ;;
	*) m='\076\000' ;;
	esac
	z8='\000\000\000\000\000\000\000\000'
	printf "\177ELF\002\001\001\000$z8\003\000$m\001\000\000\000$z8"
	printf "\100\000\000\000\000\000\000\000$z8\000\000\000\000"
	printf '\100\000\070\000\001\000\000\000\000\000\000\000'
	printf "\001\000\000\000\005\000\000\000$z8$z8$z8"
	printf "\170\000\000\000\000\000\000\000\170\000\000\000\000\000\000\000"
	printf "\000\020\000\000\000\000\000\000"
}

report_rules() {
	awk '
		/^rules that did not pass:/ { inrules = 1; next }
		inrules && /^$/ { inrules = 0 }
		inrules && /^  [a-z]+ +[a-z0-9-]+: / { print; next }
		inrules && /^ +evidence: / { print; next }
		/^[0-9]+ of [0-9]+ rules passed\./ || /^decision for / { print }
	'
}

image_check() {
	d=$1
	shift
	env -u HANGAR_AGENT_USER -u HANGAR_UID_SPLIT -u HANGAR_PROVIDER PATH="$IMAGE_PATH" \
		$HP check --provider docker --root "$d" "$@" >"$T/image-check.out" 2>"$T/image-check.err"
	rc=$?
	sed "s|$d|\$IMG|g" "$T/image-check.out" | report_rules
	sed "s|$d|\$IMG|g" "$T/image-check.err" >&2
	echo "exit $rc"
}

image_snapshot() {
	(cd "$1" && find . -xdev -printf '%p %y %U %G %m %s %n %l\n' | LC_ALL=C sort &&
		find . -xdev -type f -exec md5sum {} + | LC_ALL=C sort)
}
