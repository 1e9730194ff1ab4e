# Port-major LID ordering (see lid_assign/README).
#
# liblidassign: the order itself, no OpenSM header (also linked into
# libturnadd.so, hence -fPIC).  liblidnet: netfile and guid2lid file
# reading/writing, for the command-line tool and the tests.
noinst_LTLIBRARIES += lid_assign/liblidassign.la
lid_assign_liblidassign_la_CFLAGS = $(AM_CFLAGS) -fPIC
# the spine sets (plugin/core/ta_spine_sets.h) come from the core's library
lid_assign_liblidassign_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugin/core
lid_assign_liblidassign_la_SOURCES = \
	lid_assign/lid_order.c lid_assign/lid_order.h \
	lid_assign/lid_work.h lid_assign/lid_gcd.h \
	lid_assign/lid_groups.c \
	lid_assign/lid_chunks.c lid_assign/lid_chunks.h \
	lid_assign/lid_groups_lmc.c lid_assign/lid_groups_lmc.h \
	lid_assign/lid_claims.c \
	lid_assign/lid_dfly.c lid_assign/lid_dfly.h \
	lid_assign/lid_df.c lid_assign/lid_df.h \
	lid_assign/lid_layout_text.c \
	lid_assign/lid_layout.c \
	lid_assign/lid_place.c

noinst_LTLIBRARIES += lid_assign/liblidnet.la
lid_assign_liblidnet_la_SOURCES = \
	lid_assign/lid_netfile.c lid_assign/lid_netfile.h \
	lid_assign/lid_netline.c lid_assign/lid_netline.h \
	lid_assign/lid_netfab.c lid_assign/lid_netfab.h \
	lid_assign/lid_g2l.c lid_assign/lid_g2l.h

bin_PROGRAMS += lid_assign/turnadd-lids
lid_assign_turnadd_lids_SOURCES = lid_assign/turnadd_lids.c
lid_assign_turnadd_lids_LDADD = lid_assign/liblidnet.la \
	lid_assign/liblidassign.la plugin/core/libtacore.la

EXTRA_DIST += lid_assign/README

# Unit tests of the order, the netfile reader and the guid2lid files.
check_PROGRAMS += tests/unit/test_lid_order
tests_unit_test_lid_order_SOURCES = tests/unit/test_lid_order.c
tests_unit_test_lid_order_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/lid_assign -I$(top_srcdir)/plugin/core
tests_unit_test_lid_order_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(SAN_CFLAGS)
tests_unit_test_lid_order_LDADD = lid_assign/liblidnet.la \
	lid_assign/liblidassign.la plugin/core/libtacore_checked.la \
	$(CHECK_LIBS) -lm
tests_unit_test_lid_order_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_lid_order

# Group-major LIDs on Dragonfly+: recognition and layout.
check_PROGRAMS += tests/unit/test_lid_dfly
tests_unit_test_lid_dfly_SOURCES = tests/unit/test_lid_dfly.c
tests_unit_test_lid_dfly_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/lid_assign -I$(top_srcdir)/ibsim_topos \
	-I$(top_srcdir)/plugin/core
tests_unit_test_lid_dfly_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(SAN_CFLAGS)
tests_unit_test_lid_dfly_LDADD = lid_assign/liblidassign.la \
	ibsim_topos/libtopo.la plugin/core/libtacore_checked.la \
	$(CHECK_LIBS) -lm
tests_unit_test_lid_dfly_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_lid_dfly

# LMC: the layout and the routing core's spine choice together.
check_PROGRAMS += tests/unit/test_lmc_layout
tests_unit_test_lmc_layout_SOURCES = tests/unit/test_lmc_layout.c \
	tests/unit/route_verify.c tests/unit/route_verify.h
tests_unit_test_lmc_layout_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/lid_assign -I$(top_srcdir)/ibsim_topos
tests_unit_test_lmc_layout_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_lmc_layout_LDADD = lid_assign/liblidassign.la \
	ibsim_topos/libtopo.la $(UNIT_LDADD)
tests_unit_test_lmc_layout_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_lmc_layout

# The spine sets' count against the stated bound on many fat-tree
# shapes (lid_assign/README, "LMC"): not a test.
noinst_PROGRAMS += tests/bench/lmc_sets_survey
tests_bench_lmc_sets_survey_SOURCES = tests/bench/lmc_sets_survey.c
tests_bench_lmc_sets_survey_LDADD = plugin/core/libtacore.la -lm

# Group-major LIDs on dragonflies: recognition and layout.
check_PROGRAMS += tests/unit/test_lid_df
tests_unit_test_lid_df_SOURCES = tests/unit/test_lid_df.c
tests_unit_test_lid_df_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/lid_assign -I$(top_srcdir)/ibsim_topos \
	-I$(top_srcdir)/plugin/core
tests_unit_test_lid_df_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(SAN_CFLAGS)
tests_unit_test_lid_df_LDADD = lid_assign/liblidassign.la \
	ibsim_topos/libtopo.la plugin/core/libtacore_checked.la \
	$(CHECK_LIBS) -lm
tests_unit_test_lid_df_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_lid_df
