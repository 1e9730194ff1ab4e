#!/bin/bash
# SPDX-License-Identifier: MIT
# The manual pages format without a groff warning (groff -ww -man -z),
# and every tool's --version prints the one version of configure.ac.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
command -v groff >/dev/null 2>&1 || skip "groff not installed"
make_tmpdir
for page in plugin/man/turnadd.8 plugin/man/turnadd.conf.5 \
	lid_assign/man/turnadd-lids.8 scripts/man/lftcheck.8 \
	scripts/man/lftread.8; do
	groff -ww -man -z "$top_srcdir/$page" >"$TEST_TMP/out" 2>&1 ||
		fail "$page: groff failed"
	[[ ! -s $TEST_TMP/out ]] || {
		cat "$TEST_TMP/out" >&2
		fail "$page: groff warnings"
	}
done
version=$(sed -n "s/^PACKAGE_VERSION='\(.*\)'$/\1/p" "$top_builddir/config.log")
[[ -n $version ]] || fail "no PACKAGE_VERSION in config.log"
for tool in lid_assign/turnadd-lids scripts/lftcheck scripts/lftread \
	scripts/mcjoin scripts/mftread \
	scripts/madtally ibsim_topos/topogen; do
	need_built "$top_builddir/$tool"
	got=$("$top_builddir/$tool" --version)
	[[ $got == "$(basename "$tool") (turnadd) $version" ]] ||
		fail "$tool --version: '$got', expected version $version"
done
echo "$test_name: PASS"
