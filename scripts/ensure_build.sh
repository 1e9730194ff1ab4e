# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# Sourced by the one-command scripts (demo, benchmarks): ensure_build
# installs the missing Debian packages (install-deps.sh) and
# builds the tree into $top/_build when it is not built yet (else brings
# it up to date), then sets `build` to that directory.  $top is the
# source tree.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then	# run, not sourced: --help
	sed -n '4,/^[^#]/{/^#/!d;/^# shellcheck/d;s/^# \{0,1\}//;p}' "$0"
	exit 0
fi
# shellcheck disable=SC2154 # top: set by the sourcing script
ensure_build() {
	bash "$top/scripts/install-deps.sh"
	build=$top/_build
	if [[ ! -x $build/scripts/lftcheck ||
		! -e $build/plugin/.libs/libturnadd.so ]]; then
		(cd "$top" && autoreconf -fi)
		mkdir -p "$build"
		(cd "$build" && ../configure && make -j"$(nproc)")
	else
		make -C "$build" -j"$(nproc)"
	fi
}
