# SPDX-License-Identifier: MIT
# Facts about an ibsim netfile, read from the file alone (not from the
# generator's code), printed as name=value lines for the tests to compare.
#
#   awk -f netfile_stats.awk NETFILE
#
# Every node: its header line `Switch PORTS "name"` or `Hca PORTS "name"`
# and one line `[port] "peer"[peer port]` per connected port.  Printed:
#   first_node          Switch or Hca: the kind of the first record
#   nodes switches hosts links (inter-switch links, counted once)
#   bad_ports           port lines outside 1..PORTS, ports used twice
#   bad_links           a link the other end does not list back, a peer
#                       that is no node, a self link, a host with more
#                       than one link or linked to a host
#   components          connected pieces of the whole graph
#   sw_ports_N          switches declaring N ports
#   sw_unused_ports     declared but unconnected switch ports
#   sw_link_ends        min-max inter-switch link ends of a switch
#   sw_hosts            min-max hosts on a switch
#   parallel_links      links beyond the first between the same switches
#   For names starting "tA-" and "tB-" (two trees; X is A or B):
#   tX_hosts tX_switches
#   tX_components       pieces of tree X without the links that leave it
#   tX_level_L          switches of tree X at level L: 1 = with hosts,
#                       2 = linked to a level-1 switch of the same tree,
#                       3 = the rest of the tree
#   tX_hosts_per_edge   min-max hosts on a level-1 switch
#   tX_ports_LEVEL      min-max inter-switch ports of a level-L switch
#                       going down (to level L-1) and up (to L+1), as
#                       "down/up" ranges
#   name_level_mismatch switches whose name (edge, agg, core) is not
#                       at level 1, 2, 3
#   other_nodes         nodes with neither prefix
#   join_links          links between a tA- and a tB- switch
#   join_levels         "LA-LB" level pairs of the join links, counted
#   join_same_name      join links whose ends have the same name after
#                       the prefix
#   join_multi          switches with more than one join link
#   join_per_pod        min-max joined switches per pod (the number after
#                       "edge"/"agg" in the name), over pods of tree A
#   joined_ports        "N-M" join-link switches declaring N..M ports

function peer_of(s, m) {
	# `[p]<tab>"name"[q]` -> sets PEER, PEER_PORT; returns the port p
	if (!match(s, /^\[[0-9]+\]/))
		return -1
	m = substr(s, 2, RLENGTH - 2) + 0
	s = substr(s, RLENGTH + 1)
	sub(/^[ \t]+/, "", s)
	if (!match(s, /^"[^"]*"\[[0-9]+\]/))
		return -1
	PEER = substr(s, 2, index(substr(s, 2), "\"") - 1)
	PEER_PORT = substr(s, length(PEER) + 4, RLENGTH - length(PEER) - 4) + 0
	return m
}

function find(x) {
	while (parent[x] != x) {
		parent[x] = parent[parent[x]]
		x = parent[x]
	}
	return x
}

function join_sets(a, b) {
	a = find(a)
	b = find(b)
	if (a != b)
		parent[a] = b
}

function tree_of(n) {
	return substr(n, 1, 3) == "tA-" ? "tA" : (substr(n, 1, 3) == "tB-" ? "tB" : "")
}

function range_add(key, v) {
	if (!(key in rmin) || v < rmin[key])
		rmin[key] = v
	if (!(key in rmax) || v > rmax[key])
		rmax[key] = v
}

function range_of(key) {
	return (key in rmin) ? rmin[key] "-" rmax[key] : "none"
}

/^(Switch|Hca|Ca)[ \t]/ {
	kind = $1 == "Switch" ? "Switch" : "Hca"
	if (!match($0, /"[^"]*"/)) {
		bad_links++
		cur = ""
		next
	}
	cur = substr($0, RSTART + 1, RLENGTH - 2)
	split($0, f, /[ \t]+/)
	if (!n_nodes)
		first_node = kind
	nodes[++n_nodes] = cur
	type[cur] = kind
	nports[cur] = f[2] + 0
	next
}

/^\[/ && cur != "" {
	p = peer_of($0)
	if (p < 1 || p > nports[cur] || ((cur, p) in peer)) {
		bad_ports++
		next
	}
	peer[cur, p] = PEER
	pport[cur, p] = PEER_PORT
	used[cur]++
	ports_list[cur] = ports_list[cur] " " p
}

END {
	for (i = 1; i <= n_nodes; i++) {
		n = nodes[i]
		parent[n] = n
		tparent[n] = n
	}
	# links: both ends must agree
	for (i = 1; i <= n_nodes; i++) {
		n = nodes[i]
		np = split(ports_list[n], pl, " ")
		for (j = 1; j <= np; j++) {
			p = pl[j]
			m = peer[n, p]
			q = pport[n, p]
			if (!(m in type) || peer[m, q] != n || pport[m, q] != p ||
			    m == n) {
				bad_links++
				continue
			}
			join_sets(n, m)
			if (type[n] == "Hca") {
				if (type[m] != "Switch" || used[n] != 1)
					bad_links++
				else
					hosts_on[m]++
				continue
			}
			if (type[m] != "Switch")
				continue
			nbr[n] = nbr[n] " " m
			ends[n]++
			if (n < m && ++pair[n, m] > 1)
				parallel++
			if (n < m)
				links++
		}
	}
	for (i = 1; i <= n_nodes; i++) {
		n = nodes[i]
		t = tree_of(n)
		if (t == "")
			other_nodes++
		if (type[n] == "Hca") {
			hosts++
			cnt[t "_hosts"]++
			continue
		}
		switches++
		cnt[t "_switches"]++
		sw_ports[nports[n]]++
		sw_unused += nports[n] - used[n]
		range_add("sw_link_ends", ends[n] + 0)
		range_add("sw_hosts", hosts_on[n] + 0)
		if (find(n) == n)
			components++
		level[n] = hosts_on[n] > 0 ? 1 : 0
		if (level[n] == 1)
			range_add(t "_hosts_per_edge", hosts_on[n])
	}
	for (i = 1; i <= n_nodes; i++) {
		n = nodes[i]
		if (type[n] == "Hca" && find(n) == n)
			components++
	}
	# levels and per-tree pieces, over links inside one tree
	for (i = 1; i <= n_nodes; i++) {
		n = nodes[i]
		if (type[n] != "Switch" || level[n])
			continue
		split(nbr[n], nb, " ")
		for (j in nb)
			if (level[nb[j]] == 1 && tree_of(nb[j]) == tree_of(n))
				level[n] = 2
	}
	for (i = 1; i <= n_nodes; i++) {
		n = nodes[i]
		if (type[n] == "Switch" && !level[n])
			level[n] = 3
	}
	for (i = 1; i <= n_nodes; i++) {
		n = nodes[i]
		if (type[n] != "Switch")
			continue
		t = tree_of(n)
		cnt[t "_level_" level[n]]++
		want = n ~ /^t[AB]-edge/ ? 1 : (n ~ /^t[AB]-agg/ ? 2 : (n ~ /^t[AB]-core/ ? 3 : 0))
		if (want != level[n])
			name_level_mismatch++
		nb_n = split(nbr[n], nb, " ")
		down = up = 0
		for (j = 1; j <= nb_n; j++) {
			m = nb[j]
			if (tree_of(m) != t) {
				join_links_ends++
				njoin[n]++
				rest = substr(n, 4)
				if (substr(m, 4) == rest)
					same_name_ends++
				jl[level[n] "-" level[m]]++
				continue
			}
			if (level[m] == level[n] - 1)
				down++
			else if (level[m] == level[n] + 1)
				up++
			else
				bad_levels++
			join_tree(n, m)
		}
		range_add(t "_ports_" level[n] "_down", down)
		range_add(t "_ports_" level[n] "_up", up)
		if (njoin[n] > 1)
			join_multi++
		if (njoin[n]) {
			range_add("joined_ports", nports[n])
			if (t == "tA" && match(n, /^tA-(edge|agg)[0-9]+-/)) {
				pod = n
				sub(/^tA-(edge|agg)/, "", pod)
				sub(/-.*/, "", pod)
				joined_pod[pod]++
			}
		}
	}
	for (i = 1; i <= n_nodes; i++) {
		n = nodes[i]
		t = tree_of(n)
		if (type[n] == "Switch" && t != "" && tfind(n) == n)
			cnt[t "_components"]++
		if (t == "tA" && match(n, /^tA-edge[0-9]+-/)) {
			pod = n
			sub(/^tA-edge/, "", pod)
			sub(/-.*/, "", pod)
			pods[pod] = 1
		}
	}
	for (pod in pods)
		range_add("join_per_pod", joined_pod[pod] + 0)

	print "first_node=" first_node
	print "nodes=" n_nodes + 0
	print "switches=" switches + 0
	print "hosts=" hosts + 0
	print "links=" links + 0
	print "bad_ports=" bad_ports + 0
	print "bad_links=" bad_links + 0
	print "bad_levels=" bad_levels + 0
	print "components=" components + 0
	for (p in sw_ports)
		print "sw_ports_" p "=" sw_ports[p]
	print "sw_unused_ports=" sw_unused + 0
	print "sw_link_ends=" range_of("sw_link_ends")
	print "sw_hosts=" range_of("sw_hosts")
	print "parallel_links=" parallel + 0
	print "other_nodes=" other_nodes + 0
	split("tA tB", trees, " ")
	for (i = 1; i <= 2; i++) {
		t = trees[i]
		print t "_hosts=" cnt[t "_hosts"] + 0
		print t "_switches=" cnt[t "_switches"] + 0
		print t "_components=" cnt[t "_components"] + 0
		for (l = 1; l <= 3; l++) {
			print t "_level_" l "=" cnt[t "_level_" l] + 0
			print t "_ports_" l "=" range_of(t "_ports_" l "_down") "/" \
				range_of(t "_ports_" l "_up")
		}
		print t "_hosts_per_edge=" range_of(t "_hosts_per_edge")
	}
	print "name_level_mismatch=" name_level_mismatch + 0
	print "join_links=" join_links_ends / 2
	s = ""
	for (k in jl)
		s = s (s == "" ? "" : ",") k ":" jl[k] / 2
	print "join_levels=" (s == "" ? "none" : s)
	print "join_same_name=" same_name_ends / 2
	print "join_multi=" join_multi + 0
	print "join_per_pod=" range_of("join_per_pod")
	print "joined_ports=" range_of("joined_ports")
}

function tfind(x) {
	while (tparent[x] != x) {
		tparent[x] = tparent[tparent[x]]
		x = tparent[x]
	}
	return x
}

function join_tree(a, b) {
	a = tfind(a)
	b = tfind(b)
	if (a != b)
		tparent[a] = b
}
