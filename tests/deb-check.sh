#!/bin/sh
# tests/deb-check.sh: build the Debian package from a copy of the tree with
# dpkg-buildpackage -us -uc, unpack it into a fresh root with dpkg-deb -x,
# and check that the programs, man pages, policies and completions are
# where the package's own file list says, and that the unpacked program
# runs on the unpacked policies. `make deb-check` runs it; .ci/run calls
# that. The package's build runs make check too unless DEB_BUILD_OPTIONS
# has nocheck (CI sets it: the suite has run already).
set -eu
top=$(pwd)
need=""
command -v dpkg-buildpackage >/dev/null 2>&1 || need="$need dpkg-dev"
dpkg -s debhelper >/dev/null 2>&1 || need="$need debhelper"
if [ -n "$need" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "deb-check: needs$need (apt-get install$need)" >&2
		exit 1
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi
w=$(mktemp -d /tmp/hangar-policy-deb.XXXXXX)
trap 'rm -rf "$w"' EXIT
mkdir "$w/hangar-policy"
git ls-files -z | xargs -0 cp --parents -t "$w/hangar-policy"
cd "$w/hangar-policy"
echo "deb-check: dpkg-buildpackage -us -uc in $w"
dpkg-buildpackage -us -uc -b >"$w/build.log" 2>&1 || { tail -n 60 "$w/build.log"; exit 1; }
deb=$(ls "$w"/hangar-policy_*.deb)
echo "deb-check: built ${deb##*/}"
root=$w/root
dpkg-deb -x "$deb" "$root"
dpkg-deb -c "$deb" | awk '{ print $NF }' | sed 's|^\./|/|; s|/$||' | grep . | LC_ALL=C sort >"$w/listed"
(cd "$root" && find . | sed 's|^\.||' | grep . | LC_ALL=C sort) >"$w/found"
if ! cmp -s "$w/listed" "$w/found"; then
	echo "deb-check: the unpacked tree differs from the package's list:" >&2
	diff "$w/listed" "$w/found" >&2
	exit 1
fi
fail=0
for f in /usr/bin/hangar-policy /usr/bin/hangar-policy-runtime \
	/usr/share/man/man1/hangar-policy.1.gz /usr/share/man/man1/hangar-policy-runtime.1.gz \
	/usr/share/man/man5/hangar-policy.5.gz \
	/usr/share/hangar-policy/policies/default.hpol /usr/share/hangar-policy/policies/hangar.hpol \
	/usr/share/bash-completion/completions/hangar-policy \
	/usr/share/zsh/vendor-completions/_hangar-policy \
	/usr/share/vim/vimfiles/syntax/hpol.vim /usr/share/vim/vimfiles/ftdetect/hpol.vim \
	/usr/share/doc/hangar-policy/copyright; do
	if grep -qx "$f" "$w/listed"; then echo "  $f"; else echo "deb-check: missing $f" >&2; fail=1; fi
done
"$root/usr/bin/hangar-policy" --version
"$root/usr/bin/hangar-policy" lint "$root/usr/share/hangar-policy/policies"
"$root/usr/bin/hangar-policy-runtime" help --commands >/dev/null
zcat "$root/usr/share/man/man1/hangar-policy.1.gz" | grep -q '/usr/share/hangar-policy/policies' ||
	{ echo "deb-check: the man page does not name /usr/share/hangar-policy/policies" >&2; fail=1; }
# the package's compile lines had dpkg-buildflags' flags and the project's warnings
grep -- ' -c -o obj' "$w/build.log" >/dev/null 2>&1 || true
grep -m1 -- '-c -o build/obj/runtime/lib/buf.o' "$w/build.log" | grep -q -- '-Werror.*' &&
	grep -m1 -- '-c -o build/obj/runtime/lib/buf.o' "$w/build.log" | grep -q -- '-ffile-prefix-map=' ||
	{ echo "deb-check: the build did not use dpkg-buildflags with the project's warnings" >&2; fail=1; }
[ "$fail" = 0 ] && echo "deb-check: passed"
exit "$fail"
