# Integration test of turnadd's layers in OpenSM (option vls): path_sl,
# the SL dump, lftcheck --sl, SL-to-VL maps, resweeps, bad values.
TESTS += tests/integration/layers_sl.sh
dist_noinst_SCRIPTS += tests/integration/layers_sl.sh
