#!/bin/sh
# uid-split-check.sh: the checks of policies/hangar.hpol written the way a
# sandbox setup script does them today, in POSIX sh with coreutils, getent,
# sudo, setpriv and find, rule by rule (keep it in step with the policy: a
# rule added there is a block added here). It is the baseline
# `tests/bench/live-check.sh` measures hangar-policy against; it is not used
# by hangar-policy itself.
#
# Environment: HANGAR_USER (hangar), AGENT_USER (the uid-1000 user),
# DRIVER_PATH (the Debian default), HANGAR_HOME, HANGAR_CTL; SETUID_MOUNTS,
# when set, the mount points to scan whole for setuid-root, setgid-root and
# file-capability programs (the image-wide scan), else the PATH entries are.
# Prints one line per rule and exits 0 when all pass, 1 otherwise.
set -u
HANGAR_USER=${HANGAR_USER:-hangar}
AGENT_USER=${AGENT_USER:-$(getent passwd 1000 | cut -d: -f1)}
DRIVER_PATH=${DRIVER_PATH:-/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin}
HANGAR_HOME=${HANGAR_HOME:-/var/lib/hangar}
HANGAR_CTL=${HANGAR_CTL:-/var/lib/hangar-ctl}
ALLOWED_SETUID="passwd chsh chfn gpasswd newgrp sg mount umount su sudo sudoedit"
ALLOWED_SETUID_PATHS="/usr/bin/passwd /usr/bin/chsh /usr/bin/chfn /usr/bin/gpasswd /usr/bin/newgrp
/usr/bin/mount /usr/bin/umount /usr/bin/su /usr/bin/sudo /bin/su /bin/mount /bin/umount
/usr/lib/openssh/ssh-keysign /usr/lib/dbus-1.0/dbus-daemon-launch-helper"
ALLOWED_SETUID_PATHS=$(echo $ALLOWED_SETUID_PATHS)
ALLOWED_SETGID_PATHS="/usr/sbin/unix_chkpwd /sbin/unix_chkpwd /usr/sbin/pam_extrausers_chkpwd
/usr/bin/chage /usr/bin/expiry /usr/bin/wall /usr/bin/write /usr/bin/bsd-write /usr/bin/ssh-agent
/usr/bin/crontab /usr/bin/dotlockfile /usr/lib/x86_64-linux-gnu/utempter/utempter
/usr/lib/aarch64-linux-gnu/utempter/utempter"
ALLOWED_SETGID_PATHS=$(echo $ALLOWED_SETGID_PATHS)
NOLOGIN_SHELLS="/usr/sbin/nologin /sbin/nologin /bin/false /usr/bin/false"
PRIVILEGED_GROUPS="sudo wheel admin root docker disk lxd incus-admin"
IDENTITY_FILES="/etc/passwd /etc/group /etc/shadow /etc/gshadow /etc/nsswitch.conf /etc/login.defs
/etc/environment /etc/sudoers /etc/sudo.conf /etc/ld.so.cache /etc/ld.so.conf"
IDENTITY_DIRS="/etc/sudoers.d /etc/pam.d /etc/security /etc/ld.so.conf.d /etc/userdb"
LIBRARY_DIRS="/lib /lib64 /usr/lib /usr/lib64 /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu
/usr/local/lib"
LIBRARY_SUBTREES="glibc-hwcaps tls haswell xeon_phi x86_64 security gconv sudo"
MODULE_DIRS="/usr/libexec/sudo"
failed=0

# writable_entries DIR: an entry of DIR whose file (a symlink's target) the
# agent can write or owns, if any
writable_entries() {
	as_agent find -L "$1" -mindepth 1 -maxdepth 1 \( -writable -o -user "$agent_uid" \) \
		-print -quit 2>/dev/null
}
# tree_writable PATH: anything at or below PATH the agent can write or owns
# (a link into procfs leads each reader to its own files: /etc/mtab)
tree_writable() {
	[ -e "$1" ] || return 1
	[ -n "$(as_agent find -L "$1" \( -fstype proc -o -samefile /dev/null \) -prune -o \( -writable -o -user "$agent_uid" \) -print -quit 2>/dev/null)" ]
}
# conf_dirs FILE: the directories an ld.so.conf file and its includes name
conf_dirs() {
	[ -f "$1" ] || return 0
	sed 's/#.*//' "$1" | while read -r word rest; do
		case $word in
		include)
			for pat in $rest; do
				case $pat in /*) ;; *) pat=$(dirname "$1")/$pat ;; esac
				for f in $pat; do conf_dirs "$f"; done
			done
			;;
		hwcap | "") ;;
		*) echo "$word" ;;
		esac
	done
}
# loader_dirs: those, and the directories of the libraries ld.so.cache holds
loader_dirs() {
	{
		conf_dirs /etc/ld.so.conf
		ldconfig -p 2>/dev/null | sed -n 's|.* => \(.*\)/[^/]*$|\1|p'
	} | sort -u
}
# writable_up PATH: 0 when the agent can write PATH or a directory above it
writable_up() {
	wu=$1
	while :; do
		[ -e "$wu" ] && as_agent test -w "$wu" && return 0
		[ "$wu" = / ] && return 1
		wu=$(dirname "$wu")
	done
}

result() { # rule ok?
	if [ "$2" = 0 ]; then echo "pass $1"; else echo "fail $1"; failed=1; fi
}

hangar_uid=$(id -u "$HANGAR_USER" 2>/dev/null)
agent_uid=$(id -u "$AGENT_USER" 2>/dev/null)
hangar_gid=$(id -g "$HANGAR_USER" 2>/dev/null)
agent_gid=$(id -g "$AGENT_USER" 2>/dev/null)
as_agent() { setpriv --reuid="$agent_uid" --regid="$agent_gid" --init-groups --inh-caps=-all --bounding-set=-all --no-new-privs -- "$@"; }
as_agent_sudo() { setpriv --reuid="$agent_uid" --regid="$agent_gid" --init-groups -- "$@"; }
as_hangar() {
	setpriv --reuid="$hangar_uid" --regid="$hangar_gid" --init-groups \
		--inh-caps=+setuid,+setgid,+kill --ambient-caps=+setuid,+setgid,+kill -- "$@"
}

# hangar-user
ok=0
[ -n "$hangar_uid" ] && [ "$hangar_uid" != 0 ] && [ "$hangar_uid" != "$agent_uid" ] &&
	[ "$hangar_gid" != "$agent_gid" ] || ok=1
result hangar-user $ok

# agent-no-sudo: sudo run live as the agent (both questions), and sudoers
ok=0
as_agent_sudo env -i PATH=/usr/bin:/bin sudo -n -k true </dev/null >/dev/null 2>&1 && ok=1
as_agent_sudo env -i PATH=/usr/bin:/bin sudo -n -k -l </dev/null >/dev/null 2>&1 && ok=1
if grep -rqsE "^[[:space:]]*($AGENT_USER|%|ALL)" /etc/sudoers /etc/sudoers.d 2>/dev/null; then
	for g in $(id -nG "$AGENT_USER"); do
		grep -rqsE "^[[:space:]]*(%$g|$AGENT_USER|ALL)[[:space:]]" /etc/sudoers /etc/sudoers.d && ok=1
	done
fi
result agent-no-sudo $ok

# newgrp_open GROUP: 0 when newgrp lets the agent into GROUP without a
# password it lacks: a group password, an administrator, the agent among
# gshadow's members (newgrp's list when gshadow has an entry)
newgrp_open() {
	line=$(getent group "$1") || return 1
	gs=$(getent gshadow "$1")
	if [ -n "$gs" ]; then
		pw=$(printf '%s' "$gs" | cut -d: -f2)
		[ -n "$(printf '%s' "$gs" | cut -d: -f3)" ] && return 0
		case ",$(printf '%s' "$gs" | cut -d: -f4)," in *",$AGENT_USER,"*) return 0 ;; esac
	else
		pw=$(printf '%s' "$line" | cut -d: -f2)
	fi
	case $pw in '' | x | '!'* | '*'*) return 1 ;; *) return 0 ;; esac
}

# agent-no-privileged-group: no second account with the agent's uid (newgrp
# takes the first name for it), none of its groups privileged, and no way
# into one with newgrp
ok=0
[ "$(getent passwd | awk -F: -v u="$agent_uid" '$3 == u { print $1 }' | tr '\n' ' ')" = "$AGENT_USER " ] || ok=1
for g in $(id -nG "$AGENT_USER" 2>/dev/null); do
	case " $PRIVILEGED_GROUPS " in *" $g "*) ok=1 ;; esac
done
for g in $PRIVILEGED_GROUPS; do
	gid=$(getent group "$g" | cut -d: -f3)
	[ -z "$gid" ] || [ "$(getent group | awk -F: -v g="$gid" '$3 == g { print $1 }' | tr '\n' ' ')" = "$g " ] || ok=1
	newgrp_open "$g" && ok=1
done
result agent-no-privileged-group $ok

# setuid-root, setgid-root and file-capability programs in each PATH entry
setuid_in() { # dir: their names, one a line
	find "$1" -maxdepth 1 -type f \( \( -perm -4000 -user root \) -o \( -perm -2000 -group root \) \) \
		-perm /111 2>/dev/null | sed 's|.*/||'
	getcap "$1"/* 2>/dev/null | sed 's| .*||; s|.*/||'
}

# locked PW: 0 when the password field is locked (! or * first)
locked() { case $1 in '!'* | '*'*) return 0 ;; *) return 1 ;; esac; }
pw_of() { # user: its password field (etc/passwd's unless it is x)
	f=$(getent passwd "$1" | cut -d: -f2)
	[ "$f" = x ] && f=$(getent shadow "$1" | cut -d: -f2)
	printf '%s' "$f"
}

# agent-no-root-password: one uid-0 account, its password locked
ok=0
[ "$(getent passwd | awk -F: '$3 == 0 { print $1 }' | tr '\n' ' ')" = "root " ] || ok=1
locked "$(pw_of root)" || ok=1
result agent-no-root-password $ok

# agent-no-setuid: setuid-root, setgid-root and file-capability programs
# off the allowed list, and set-id programs to anyone but the agent off
# the allowed lists, or, allowed, setting a user but root or one of the
# driver's groups
ok=0
hangar_gids=$(id -G "$HANGAR_USER" 2>/dev/null)
home_gid=$(stat -c %g "$HANGAR_HOME" 2>/dev/null)
ctl_gid=$(stat -c %g "$HANGAR_CTL" 2>/dev/null)
setid_check() { # path mode uid gid, one a line
	while read -r f m u g; do
		allowed=0
		case " $ALLOWED_SETUID_PATHS $ALLOWED_SETGID_PATHS " in *" $f "*) allowed=1 ;; esac
		su=$((0$m & 04000)) sg=$((0$m & 02000))
		if [ $allowed = 0 ]; then
			[ $su != 0 ] && [ "$u" != "$agent_uid" ] && ok=1
			[ $sg != 0 ] && [ "$g" != "$agent_gid" ] && ok=1
		fi
		[ $su != 0 ] && [ "$u" != 0 ] && [ "$u" != "$agent_uid" ] && ok=1
		if [ $sg != 0 ]; then
			for hg in $hangar_gids $home_gid $ctl_gid; do [ "$g" = "$hg" ] && ok=1; done
		fi
	done
}
if [ -n "${SETUID_MOUNTS:-}" ]; then
	# every file, by path, on each mount without nosuid
	for m in $SETUID_MOUNTS; do
		find "$m" -xdev -type f \( \( -perm -4000 -user root \) -o \( -perm -2000 -group root \) \) \
			-perm /111 2>/dev/null
		getcap -r "$m" 2>/dev/null | sed 's| .*||'
	done | sort -u >"${TMPDIR:-/tmp}/setuid.$$"
	while read -r f; do
		case " $ALLOWED_SETUID_PATHS " in *" $f "*) ;; *) ok=1 ;; esac
	done <"${TMPDIR:-/tmp}/setuid.$$"
	rm -f "${TMPDIR:-/tmp}/setuid.$$"
	for m in $SETUID_MOUNTS; do
		find "$m" -xdev -type f \( -perm -4000 -o -perm -2000 \) -perm /111 \
			-printf '%p %m %U %G\n' 2>/dev/null
	done >"${TMPDIR:-/tmp}/setid.$$"
	setid_check <"${TMPDIR:-/tmp}/setid.$$"
	rm -f "${TMPDIR:-/tmp}/setid.$$"
else
	IFS=:
	for dir in $DRIVER_PATH; do
		unset IFS
		for f in $(setuid_in "$dir"); do
			case " $ALLOWED_SETUID " in *" $f "*) ;; *) ok=1 ;; esac
		done
		IFS=:
	done
	unset IFS
	for dir in $(echo "$DRIVER_PATH" | tr : " "); do
		find "$dir" -maxdepth 1 -type f \( -perm -4000 -o -perm -2000 \) -perm /111 \
			-printf '%p %m %U %G\n' 2>/dev/null
	done >"${TMPDIR:-/tmp}/setid.$$"
	setid_check <"${TMPDIR:-/tmp}/setid.$$"
	rm -f "${TMPDIR:-/tmp}/setid.$$"
fi
result agent-no-setuid $ok

# agent-no-way-to-driver: no second account with hangar's uid, hangar's
# password not empty, its shell one that runs nothing, no group shared
# with the agent, and none of the agent's groups owning hangar's dirs
ok=0
[ "$(getent passwd | awk -F: -v u="$hangar_uid" '$3 == u { print $1 }' | tr '\n' ' ')" = "$HANGAR_USER " ] || ok=1
locked "$(pw_of "$HANGAR_USER")" || ok=1
# su's PAM stack: a module that lets su in without the target's password
for svc in su su-l; do
	[ -f "/etc/pam.d/$svc" ] || continue
	grep -Eq '^[[:space:]]*auth[[:space:]].*(pam_permit|pam_wheel\.so.*trust)' "/etc/pam.d/$svc" && ok=1
done
# any account su takes (its password not locked) with a sudoers grant or
# a privileged group
for u in $(getent passwd | cut -d: -f1); do
	locked "$(pw_of "$u")" && continue
	for g in $(id -nG "$u" 2>/dev/null); do
		case " $PRIVILEGED_GROUPS " in *" $g "*) ok=1 ;; esac
	done
	grep -rqsE "^[[:space:]]*$u[[:space:]]" /etc/sudoers /etc/sudoers.d && ok=1
done
case " $NOLOGIN_SHELLS " in *" $(getent passwd "$HANGAR_USER" | cut -d: -f7) "*) ;; *) ok=1 ;; esac
for g in $(id -G "$AGENT_USER" 2>/dev/null); do
	for hg in $(id -G "$HANGAR_USER" 2>/dev/null); do [ "$g" = "$hg" ] && ok=1; done
	[ "$g" = "$home_gid" ] && ok=1
	[ "$g" = "$ctl_gid" ] && ok=1
done
# newgrp into any group with hangar's gids or owning its directories
for gid in $(id -G "$HANGAR_USER" 2>/dev/null) $home_gid $ctl_gid; do
	for g in $(getent group | awk -F: -v g="$gid" '$3 == g { print $1 }'); do
		newgrp_open "$g" && ok=1
	done
done
result agent-no-way-to-driver $ok

# path-not-agent-writable: each PATH entry and every directory above it
ok=0
IFS=:
for dir in $DRIVER_PATH; do
	unset IFS
	d=$(readlink -f "$dir" 2>/dev/null || echo "$dir")
	while :; do
		if [ -e "$d" ]; then
			as_agent test -w "$d" && ok=1
			[ "$(stat -c %u "$d")" = "$agent_uid" ] && ok=1
		fi
		[ "$d" = / ] && break
		d=$(dirname "$d")
	done
	[ -d "$dir" ] && [ -n "$(writable_entries "$dir")" ] && ok=1
	IFS=:
done
unset IFS
result path-not-agent-writable $ok

# system-files: no ld.so.preload; the identity files, their directories
# and entries, and the library directories (those the loader's
# configuration names too) and their entries, none writable by the agent,
# nor any directory above them; nothing below them in the trees su and
# sudo load from
ok=0
[ -e /etc/ld.so.preload ] || [ -L /etc/ld.so.preload ] && ok=1
for f in $IDENTITY_FILES; do
	writable_up "$f" && ok=1
done
# nscd's and systemd-userdb's sockets: only root may create them
for f in /var/run/nscd/socket /run/systemd/userdb/io.systemd.Multiplexer; do
	d=$(dirname "$f")
	writable_up "$d" && ok=1
done
# and every other file in /etc, a link's target included
tree_writable /etc && ok=1
for d in $IDENTITY_DIRS $LIBRARY_DIRS $(loader_dirs); do
	writable_up "$d" && ok=1
	[ -d "$d" ] && [ -n "$(writable_entries "$d")" ] && ok=1
done
for d in $LIBRARY_DIRS $(loader_dirs); do
	for t in $LIBRARY_SUBTREES; do
		tree_writable "$d/$t" && ok=1
	done
done
for d in $MODULE_DIRS; do
	tree_writable "$d" && ok=1
	writable_up "$d" && ok=1
done
result system-files $ok

# driver-environment: what LD_LIBRARY_PATH and PYTHONPATH list, what
# LD_PRELOAD and LD_AUDIT name with a slash, and PYTHONHOME, PYTHONUSERBASE,
# PYTHONSTARTUP, BASH_ENV and ENV, none the agent's to change; an empty or
# relative entry is the working directory
ok=0
env_path_bad() { # path
	case $1 in /*) ;; *) return 0 ;; esac
	writable_up "$1" && return 0
	tree_writable "$1" && return 0
	return 1
}
for v in LD_LIBRARY_PATH PYTHONPATH; do
	eval "val=\${$v-}"
	[ -n "$val" ] || continue
	IFS=':;'
	for d in $val""; do
		unset IFS
		env_path_bad "$d" && ok=1
	done
	unset IFS
	case $val in [:\;]* | *[:\;] | *[:\;][:\;]*) ok=1 ;; esac
done
for v in LD_PRELOAD LD_AUDIT; do
	eval "val=\${$v-}"
	for f in $(printf '%s' "$val" | tr ':' ' '); do
		case $f in */*) env_path_bad "$f" && ok=1 ;; esac
	done
done
for v in PYTHONHOME PYTHONUSERBASE PYTHONSTARTUP BASH_ENV ENV; do
	eval "val=\${$v-}"
	[ -n "$val" ] && env_path_bad "$val" && ok=1
done
result driver-environment $ok

# driver-keeps-caps
ok=0
amb=$(as_hangar grep CapAmb /proc/self/status 2>/dev/null | awk '{print $2}')
[ "$amb" = "00000000000000e0" ] || ok=1
result driver-keeps-caps $ok

# agent-no-caps
ok=0
caps=$(as_agent grep -E '^Cap(Inh|Eff|Prm|Amb):' /proc/self/status | awk '{print $2}' | sort -u)
[ "$caps" = "0000000000000000" ] || ok=1
[ "$(as_agent grep NoNewPrivs /proc/self/status | awk '{print $2}')" = 1 ] || ok=1
result agent-no-caps $ok

# agent-reaches-nothing
ok=0
# exec: the canary must be hangar's process itself, not a root subshell
# waiting for it
(exec setpriv --reuid="$hangar_uid" --regid="$hangar_gid" --init-groups -- sleep 30) &
canary=$!
# until it is hangar's (no fixed sleep: that would only pad the script)
n=0
while [ "$(awk '/^Uid:/ { print $2 }' /proc/$canary/status 2>/dev/null)" != "$hangar_uid" ] &&
	[ $n -lt 1000 ]; do n=$((n + 1)); done
as_agent kill -0 "$canary" 2>/dev/null && ok=1
as_agent sh -c "head -c1 /proc/$canary/mem" >/dev/null 2>&1 && ok=1
kill "$canary" 2>/dev/null
wait "$canary" 2>/dev/null
result agent-reaches-nothing $ok

# hangar-dirs
ok=0
as_agent test -r "$HANGAR_CTL" && ok=1
for d in "$HANGAR_CTL" "$HANGAR_HOME"; do
	while :; do
		as_agent test -w "$d" && ok=1
		[ "$d" = / ] && break
		d=$(dirname "$d")
	done
done
[ "$(stat -c %u "$HANGAR_HOME" 2>/dev/null)" = "$hangar_uid" ] || ok=1
[ "$(stat -c %u "$HANGAR_CTL" 2>/dev/null)" = "$hangar_uid" ] || ok=1
case $(stat -c %a "$HANGAR_CTL" 2>/dev/null) in ?00 | 700) ;; *) ok=1 ;; esac
# anything below hangar-home the agent owns or may write, or that a
# symlink there leads to
[ -n "$(as_agent find -L "$HANGAR_HOME" \( -writable -o -user "$agent_uid" \) -print -quit 2>/dev/null)" ] && ok=1
# hangar's home in passwd, where the driver's tools read their startup files
home=$(getent passwd "$HANGAR_USER" | cut -d: -f6)
case $home in /*) ;; *) ok=1 ;; esac
writable_up "$home" && ok=1
tree_writable "$home" && ok=1
[ -n "$(find "$home" \( -user "$agent_uid" -o -perm -0002 \) -print -quit 2>/dev/null)" ] && ok=1
result hangar-dirs $ok

# harness-settings: Claude Code's system directory and hangar's harness
# directory, each whole; the environment file; the harness's executable as
# the driver's PATH finds it, each symlink to it, its interpreter and its
# package and node_modules directories
ok=0
harness_tree() { # path: fails when the agent could change it or create it
	t=$1
	if [ -e "$t" ]; then
		o=$(stat -c %u "$t" 2>/dev/null)
		[ "$o" = 0 ] || [ "$o" = "$hangar_uid" ] || ok=1
		[ -n "$(as_agent find -L "$t" \( -writable -o -user "$agent_uid" \) -print -quit 2>/dev/null)" ] && ok=1
	fi
	writable_up "$(dirname "$t")" && ok=1
}
for f in /etc/claude-code "$HANGAR_HOME/harness" "$HANGAR_HOME/harness.env"; do
	harness_tree "$f"
done
exe=$(PATH=$DRIVER_PATH command -v claude 2>/dev/null)
if [ -n "$exe" ]; then
	real=$(readlink -f "$exe")
	harness_tree "$exe"
	harness_tree "$real"
	interp=$(head -c 128 "$real" 2>/dev/null | sed -n '1s/^#! *//p' | awk '{ print ($1 ~ /env$/) ? $2 : $1 }')
	[ -n "$interp" ] && harness_tree "$(PATH=$DRIVER_PATH command -v "$interp" || echo "$interp")"
	d=$(dirname "$real")
	while [ "$d" != / ]; do
		[ -d "$d/node_modules" ] && harness_tree "$d/node_modules"
		[ -f "$d/package.json" ] && harness_tree "$d"
		d=$(dirname "$d")
	done
fi
result harness-settings $ok

# driver-interpreter: python3 as the driver's PATH finds it and its real
# file; pyvenv.cfg above and beside it and a build directory's markers
# (present: a layout not checked here); for each version (the real file's
# name, else every lib/python3.N above it), each lib/python3.N from the real
# directory up to the prefix (the first with os.py or os.pyc), the prefix's
# python3N.zip, for the prefix /usr Debian's site directories and
# /etc/python3.N and /etc/python3, and each directory a .pth file's path
# line adds
ok=0
exe=$(PATH=$DRIVER_PATH command -v python3 2>/dev/null)
if [ -z "$exe" ]; then
	ok=1
else
	real=$(readlink -f "$exe")
	harness_tree "$exe"
	harness_tree "$real"
	d=$(dirname "$exe")
	rdir=$(dirname "$real")
	for c in "${d%/*}/pyvenv.cfg" "$d/pyvenv.cfg" "$rdir/pybuilddir.txt" \
		"$rdir/Modules/Setup.local"; do
		[ -e "$c" ] && ok=1
		harness_tree "$c"
	done
	case ${real##*/} in
	python3.[0-9]*) vers=${real##*/python} ;;
	*)
		vers= p=$rdir
		while :; do
			for v in "${p%/}"/lib/python3.[0-9]*; do
				[ -d "$v" ] && vers="$vers ${v##*/python}"
			done
			[ "$p" = / ] && break
			p=$(dirname "$p")
		done
		[ -n "$vers" ] || ok=1
		;;
	esac
	for v in $vers; do
		p=$rdir prefix=
		while :; do
			harness_tree "${p%/}/lib/python$v"
			if [ -f "${p%/}/lib/python$v/os.py" ] || [ -f "${p%/}/lib/python$v/os.pyc" ]; then
				prefix=$p
				break
			fi
			[ "$p" = / ] && break
			p=$(dirname "$p")
		done
		if [ -z "$prefix" ]; then
			ok=1
			continue
		fi
		harness_tree "${prefix%/}/lib/python3${v#3.}.zip"
		sites=${prefix%/}/lib/python$v/site-packages
		if [ "$prefix" = /usr ]; then
			for t in /usr/local/lib/python$v/dist-packages /usr/lib/python3/dist-packages \
				/etc/python$v /etc/python3; do
				harness_tree "$t"
			done
			sites="$sites /usr/lib/python$v/dist-packages /usr/local/lib/python$v/dist-packages
				/usr/lib/python3/dist-packages"
		fi
		# each directory a .pth file's path line adds (not an import line)
		for s in $sites; do
			for pth in "$s"/*.pth; do
				[ -f "$pth" ] || continue
				# not in a pipeline: harness_tree sets ok in this shell
				lines=$(sed -e 's/[[:space:]]*$//' -e '/^#/d' -e '/^import[ \t]/d' \
					-e '/^[[:space:]]*$/d' "$pth")
				set -f
				IFS='
'
				for line in $lines; do
					case $line in /*) ;; *) line=$s/$line ;; esac
					[ -e "$line" ] && harness_tree "$line"
				done
				unset IFS
				set +f
			done
		done
	done
fi
result driver-interpreter $ok

exit $failed
