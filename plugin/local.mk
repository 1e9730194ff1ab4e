# The OpenSM adapter: libturnadd.so, loaded by the stock opensm binary
# through "event_plugin_name turnadd".  OpenSM's own functions are
# resolved at load time from the opensm process (it exports them); the
# plugin is not linked against any OpenSM library.  Only the symbol
# osm_event_plugin is exported, so the core's names cannot clash with
# OpenSM's.
lib_LTLIBRARIES += plugin/libturnadd.la
plugin_libturnadd_la_SOURCES = \
	plugin/turnadd_osm.h \
	plugin/turnadd_plugin.c \
	plugin/turnadd_routing.c plugin/turnadd_routing.h \
	plugin/turnadd_config.c plugin/turnadd_config.h \
	plugin/turnadd_summary.c plugin/turnadd_summary.h \
	plugin/fabric_graph.c plugin/fabric_graph.h \
	plugin/hop_tables.c plugin/hop_tables.h \
	plugin/lft_write.c plugin/lft_write.h \
	plugin/mcast_trees.c plugin/mcast_trees.h \
	plugin/lft_read.c plugin/lft_read.h \
	plugin/lft_rows.c plugin/lft_rows.h \
	plugin/mem_report.c plugin/mem_report.h \
	plugin/log_bridge.c plugin/log_bridge.h \
	plugin/lid_osm_fabric.c plugin/lid_osm_fabric.h \
	plugin/lid_sweep.c plugin/lid_sweep.h \
	plugin/lid_fit.c plugin/lid_fit.h \
	plugin/sl_table.c plugin/sl_table.h \
	plugin/vl_caps.c plugin/vl_caps.h
plugin_libturnadd_la_CPPFLAGS = $(AM_CPPFLAGS) $(OSM_CPPFLAGS) $(IBUMAD_CFLAGS) \
	-I$(top_srcdir)/lid_assign
plugin_libturnadd_la_CFLAGS = $(AM_CFLAGS)
plugin_libturnadd_la_LDFLAGS = -module -avoid-version -shared \
	-export-symbols-regex '^osm_event_plugin$$'
plugin_libturnadd_la_LIBADD = plugin/core/libtacore.la \
	lid_assign/liblidassign.la

EXTRA_DIST += plugin/README
