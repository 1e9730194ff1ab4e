# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# campaign_lib.sh: what the drivers of many fault campaigns
# (campaign_configured.sh, campaign_mcast.sh) share.  Source it from a
# bash script that uses `set -euo pipefail`; it sets and reads the
# script's variables build, cycles, seed, out, topogen and camp_status.
#
#   camp_options "NAME..." ARG...  --NAME VALUE sets variable NAME, for
#                               build, cycles, seed, out and the NAMEs
#                               given (--a-b sets a_b); -h, --help or
#                               anything else: fab_usage
#   camp_setup PROG             build made absolute, topogen checked, out
#                               made (default a new /tmp/PROG.XXXXXX dir)
#   camp_run NAME WHAT ARG...   fault_campaign.sh on $out/NAME.net with
#                               the seed and cycles and ARGs, output in
#                               $out/NAME.txt and $out/NAME/; "campaign
#                               NAME (WHAT)..." to stderr; camp_status=1
#                               if it failed
#   camp_row FORMAT NAME ITEM...  printf FORMAT with NAME and the ITEMs:
#                               a column of NAME's summary.csv, A+B the
#                               sum of columns, A/B two columns shown
#                               as "a/b", =TEXT the text itself;
#                               camp_status=1 and a line saying so if
#                               the campaign left no summary.csv

CAMP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=fabric_lib.sh
. "$CAMP_DIR/fabric_lib.sh"
# shellcheck disable=SC2034 # the sourcing script's exit status
camp_status=0

camp_options() {
	local names=" build cycles seed out $1 " name
	shift
	while (($#)); do
		name=${1#--}
		name=${name//-/_}
		[[ $1 == --* && $names == *" $name "* ]] || fab_usage
		printf -v "$name" '%s' "${2:?}"
		shift 2
	done
}

camp_setup() {
	build=$(cd "$build" && pwd)
	topogen=$build/ibsim_topos/topogen
	[[ -x $topogen ]] || { echo "$1: $topogen not built" >&2; exit 2; }
	out=${out:-$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")}
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
}

# shellcheck disable=SC2154,SC2034 # seed, cycles, camp_status: the script's
camp_run() {
	local name=$1 what=$2
	shift 2
	printf 'campaign %s (%s)...\n' "$name" "$what" >&2
	"$CAMP_DIR/fault_campaign.sh" --build "$build" --net "$out/$name.net" \
		--seed "$seed" --cycles "$cycles" "$@" --out "$out/$name" \
		>"$out/$name.txt" 2>&1 || camp_status=1
}

# shellcheck disable=SC2034 # camp_status: the sourcing script's
camp_row() {
	local format=$1 name=$2 items
	shift 2
	if [[ ! -s $out/$name/summary.csv ]]; then
		printf '%-16s did not run (see %s)\n' "$name" "$out/$name.txt"
		camp_status=1
		return 0
	fi
	mapfile -t items < <(awk -F, -v want="$(printf '%s\n' "$@")" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		NR == 2 {
			n = split(want, w, "\n")
			for (i = 1; i <= n; i++) {
				if (w[i] ~ /^=/) {
					print substr(w[i], 2)
					continue
				}
				if (split(w[i], part, "/") == 2) {
					print $c[part[1]] "/" $c[part[2]]
					continue
				}
				k = split(w[i], part, "+")
				v = $c[part[1]]
				for (j = 2; j <= k; j++)
					v += $c[part[j]]
				print v
			}
		}' "$out/$name/summary.csv")
	# shellcheck disable=SC2059 # the format is the caller's
	printf "$format" "$name" "${items[@]}"
}
