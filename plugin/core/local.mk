# The routing core: no OpenSM header is included here.
noinst_LTLIBRARIES += plugin/core/libtacore.la
plugin_core_libtacore_la_CFLAGS = $(AM_CFLAGS) -fPIC
plugin_core_libtacore_la_LIBADD = -lm
plugin_core_libtacore_la_SOURCES = \
	plugin/core/ta_log.c plugin/core/ta_log.h \
	plugin/core/ta_graph.c plugin/core/ta_graph.h \
	plugin/core/ta_parse.c plugin/core/ta_parse.h \
	plugin/core/ta_options.c \
	plugin/core/ta_traffic.c plugin/core/ta_traffic.h \
	plugin/core/ta_cdg.c plugin/core/ta_cdg.h \
	plugin/core/ta_escape.c plugin/core/ta_escape.h \
	plugin/core/ta_cut_tree.c plugin/core/ta_cut_tree.h \
	plugin/core/ta_root.c plugin/core/ta_root.h \
	plugin/core/ta_intree.c plugin/core/ta_intree.h \
	plugin/core/ta_intree_weighted.c \
	plugin/core/ta_siblings.c plugin/core/ta_siblings.h \
	plugin/core/ta_keep.c plugin/core/ta_keep.h \
	plugin/core/ta_turn_traffic.c plugin/core/ta_turnadd.c \
	plugin/core/ta_turn_class.c plugin/core/ta_turn_class.h \
	plugin/core/ta_minor_pass.c plugin/core/ta_minor_pass.h \
	plugin/core/ta_minor_roots.c plugin/core/ta_minor_roots.h \
	plugin/core/ta_flow.c plugin/core/ta_flow.h \
	plugin/core/ta_perm.c plugin/core/ta_perm.h \
	plugin/core/ta_hot.c plugin/core/ta_hot.h \
	plugin/core/ta_prng.h \
	plugin/core/ta_turnadd.h \
	plugin/core/ta_turnprohib.c plugin/core/ta_turnprohib.h \
	plugin/core/ta_layers.c plugin/core/ta_layers.h \
	plugin/core/ta_layer_route.c \
	plugin/core/ta_engine.c plugin/core/ta_engine.h \
	plugin/core/ta_job.h plugin/core/ta_job_turns.c \
	plugin/core/ta_route_write.c plugin/core/ta_second_pass.c \
	plugin/core/ta_candidates.c \
	plugin/core/ta_period.c plugin/core/ta_period.h \
	plugin/core/ta_spine_sets.c plugin/core/ta_spine_sets.h \
	plugin/core/ta_spine_spread.c plugin/core/ta_spine_spread.h \
	plugin/core/ta_saved.c plugin/core/ta_saved.h \
	plugin/core/ta_fabric_key.c plugin/core/ta_fabric_key.h \
	plugin/core/ta_home.c plugin/core/ta_home.h \
	plugin/core/ta_restore.c plugin/core/ta_restore.h \
	plugin/core/ta_fail.h plugin/core/ta_fail_ways.c \
	plugin/core/ta_fail_relief.c plugin/core/ta_fail_layers.c \
	plugin/core/ta_held_lines.c plugin/core/ta_held_lines.h \
	plugin/core/ta_repair.c plugin/core/ta_repair.h \
	plugin/core/ta_adopt.c \
	plugin/core/ta_mcast.c plugin/core/ta_mcast.h

# The same core built with the sanitizers when configured with
# --enable-sanitizers, for the unit tests only: the plugin that opensm
# loads must not need the ASan runtime.
noinst_LTLIBRARIES += plugin/core/libtacore_checked.la
plugin_core_libtacore_checked_la_CFLAGS = $(AM_CFLAGS) $(SAN_CFLAGS)
plugin_core_libtacore_checked_la_LIBADD = -lm
plugin_core_libtacore_checked_la_SOURCES = $(plugin_core_libtacore_la_SOURCES)
