# Fabric topologies: generator library and CLI, and small sample nets.
noinst_LTLIBRARIES += ibsim_topos/libtopo.la
ibsim_topos_libtopo_la_CFLAGS = $(AM_CFLAGS) -fPIC
ibsim_topos_libtopo_la_SOURCES = \
	ibsim_topos/topo.h \
	ibsim_topos/topo_build.c ibsim_topos/topo_build.h \
	ibsim_topos/topo_prng.c ibsim_topos/topo_prng.h \
	ibsim_topos/topo_regular.c \
	ibsim_topos/topo_hyperx.c \
	ibsim_topos/topo_dragonfly.c \
	ibsim_topos/topo_dfplus.c \
	ibsim_topos/topo_fattree.c \
	ibsim_topos/topo_fattree3.c \
	ibsim_topos/topo_random.c \
	ibsim_topos/topo_ft3join.c \
	ibsim_topos/topo_ft3join_alt.c \
	ibsim_topos/topo_ft3join_rand.c \
	ibsim_topos/topo_free.c \
	ibsim_topos/topo_absent.c \
	ibsim_topos/topo_check.c \
	ibsim_topos/topo_write.c

noinst_PROGRAMS += ibsim_topos/topogen
ibsim_topos_topogen_SOURCES = ibsim_topos/topogen.c
ibsim_topos_topogen_LDADD = ibsim_topos/libtopo.la

# Sample fabrics; the first line of each says the topogen command.
EXTRA_DIST += \
	ibsim_topos/README \
	ibsim_topos/ring8.net \
	ibsim_topos/ft2-6x3.net \
	ibsim_topos/ft2-36x18.net \
	ibsim_topos/random20.net
