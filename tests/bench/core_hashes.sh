#!/bin/bash
# SPDX-License-Identifier: MIT
#
# core_hashes.sh: prints core_bench's route hashes (bring-up, resweep
# after a failure, restore) on a set of fabrics: fat trees (full,
# oversubscribed, parallel links, absent hosts, 3-level), random nets
# with a switch gone, tori, meshes, rings and joined fat trees, the
# modes turn_prohibition and no_prohibition, a seed.  Run it
# before and after a change of the routing core and diff the outputs:
# speed work must leave every route and turn decision bit-identical.
#
#   core_hashes.sh BUILD_DIR [--big]
#
# --big adds the 5,832-host fabric (about 10 s) and the 11,664-host one
# (about 30 s on a loaded 2-core machine).
set -euo pipefail

bench=${1:?usage: core_hashes.sh BUILD_DIR [--big]}/tests/bench/core_bench
big=${2:-}

run() {
	echo "== $*"
	"$bench" -H -R "$@" | grep hash
}

run -g ft-spine0 fattree2 36 18 18 1
run -g ft-spine3 fattree2 24 12 24 1
run -g ft-spine0 fattree2 36 9 18 2
run -a 300 -g ft-spine0 fattree2 36 18 18 1
run -a 700 -g ft-spine5 fattree2 16 8 8 1
run -g dir0- fattree3 18 6 3 6 18
run -a 500 -g dir2- fattree3 18 6 3 6 18
run -g dir1- fattree3 4 4 2 4 4
run -p -g dir0- fattree3 18 6 3 6 18
run -p -a 200 -g ft-spine1 fattree2 36 18 18 1
for seed in 1 2 3 4; do
	run -g rnd-sw3 random 20 10 5 "$seed"
	run -g rnd-sw0 random 60 10 10 "$seed"
done
run -g rnd-sw7 random 100 10 10 1
run -a 400 -g rnd-sw2 random 40 8 4 5
run -g ring-sw2 ring 8 2
run -g mesh-sw4 mesh 5 4 2
run -g torus-sw0 torus 6 5 2
run -g torus-sw7 torus 4 4 1
for lv in top middle bottom; do
	run -g tA-core0 ft3join 8 "$lv"
	run -g tB-agg1- ft3join-alt 8 "$lv"
done
if [ "$big" = --big ]; then
	run -g dir0- fattree3 18 18 9 18 18
	run -g dir3- fattree3 18 36 18 18 18
	run -p -g dir5- fattree3 18 36 18 18 18
fi
# the other modes and a seed
for m in tp np; do
	run -m "$m" -g rnd-sw3 random 30 10 5 2
	run -m "$m" -g ft-spine1 fattree2 12 6 6 1
done
run -s 7 -g rnd-sw1 random 40 10 5 3
run -s 3 -g dir1- fattree3 18 6 3 6 18
