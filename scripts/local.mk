# Fabric harness: the independent LFT checker and the ibsim/OpenSM scripts.
noinst_PROGRAMS += scripts/lftcheck
scripts_lftcheck_SOURCES = \
	scripts/lftcheck.c \
	scripts/lc_input.c scripts/lc_input.h \
	scripts/lc_fabric.c scripts/lc_fabric.h \
	scripts/lc_parse.h scripts/lc_parse_topo.c scripts/lc_parse_lft.c \
	scripts/lc_hosts.c scripts/lc_hosts.h \
	scripts/lc_routes.c scripts/lc_routes.h \
	scripts/lc_cdg.c scripts/lc_cdg.h \
	scripts/lc_check.c scripts/lc_check.h

dist_noinst_SCRIPTS += scripts/fabric_lib.sh scripts/route_check.sh
