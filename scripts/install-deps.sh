#!/usr/bin/env bash
# Installs the Debian 12 packages needed to build, test, demo and benchmark
# turnadd (gnuplot-nox: the benchmarks' plots; debhelper, dpkg-dev,
# devscripts, lintian: the Debian package and its test; groff-base: the
# man page check).
# Run as root (or through sudo) on a fresh machine; safe to run again.
#
#   bash scripts/install-deps.sh    (no options; -h, --help: this text)
#
# Prints "install-deps: all packages present", or the packages it
# installs (apt-get update, apt-get install --no-install-recommends;
# through sudo when not root).  Exit status 0, or apt-get's on failure.
set -euo pipefail
# -h, --help: the comment above
[[ ${1:-} != -h && ${1:-} != --help ]] ||
	{ sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0; }

packages=(
	build-essential autoconf automake libtool pkg-config
	opensm libopensm-dev libibumad-dev ibsim-utils infiniband-diags
	check valgrind gnuplot-nox
	debhelper devscripts dpkg-dev lintian groff-base
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then
	echo "install-deps: all packages present"
	exit 0
fi
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
