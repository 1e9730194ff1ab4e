# Chunk groups (LMC 0, spine count not dividing the host ports): the
# layout and the routing core's spine choice together.
check_PROGRAMS += tests/unit/test_chunk_layout
tests_unit_test_chunk_layout_SOURCES = tests/unit/test_chunk_layout.c \
	tests/unit/route_verify.c tests/unit/route_verify.h
tests_unit_test_chunk_layout_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/lid_assign -I$(top_srcdir)/ibsim_topos
tests_unit_test_chunk_layout_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_chunk_layout_LDADD = lid_assign/liblidassign.la \
	ibsim_topos/libtopo.la $(UNIT_LDADD)
tests_unit_test_chunk_layout_LDFLAGS = $(SAN_CFLAGS)
TESTS += tests/unit/test_chunk_layout

# The same under real OpenSM and ibsim: LFT MADs of a spine failure.
TESTS += tests/integration/chunk_mads.sh
dist_noinst_SCRIPTS += tests/integration/chunk_mads.sh

# 3-level trees: the directors as the chunks' parts.
TESTS += tests/integration/chunk_mads3.sh
dist_noinst_SCRIPTS += tests/integration/chunk_mads3.sh
# the chunk arithmetic shared by plugin/core and lid_assign
EXTRA_DIST += plugin/core/ta_chunk_math.h
