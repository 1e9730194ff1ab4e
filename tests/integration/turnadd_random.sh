#!/bin/bash
# SPDX-License-Identifier: MIT
# turnadd on random nets of 20-50 switches with 8-10 switch ports
# (parallel links included), several seeds.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=test_env.sh
. "$(dirname "$0")/test_env.sh"
need_fabric
need_turnadd
need_built "$TOPOGEN"
make_tmpdir

check_turnadd random20 "$NETS/random20.net"
for spec in "30 8 4 1" "50 8 2 2" "50 10 2 3" "40 9 3 4"; do
	read -r n ports hosts seed <<<"$spec"
	name=random$n-p$ports-s$seed
	"$TOPOGEN" random "$n" "$ports" "$hosts" "$seed" >"$TEST_TMP/$name.net"
	check_turnadd "$name" "$TEST_TMP/$name.net"
done
echo "$test_name: PASS"
