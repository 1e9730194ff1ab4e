# libFuzzer harnesses (fuzz/README); not built by make, only distributed.
EXTRA_DIST += fuzz/README fuzz/local.mk fuzz/run_fuzzers.sh \
	fuzz/fuzz_common.h fuzz/fuzz_log.h fuzz/fuzz_options.c fuzz/fuzz_traffic.c \
	fuzz/fuzz_netfile.c fuzz/fuzz_g2l.c fuzz/fuzz_core.c
EXTRA_DIST += \
	fuzz/corpus/core/ring5.bin \
	fuzz/corpus/core/tree8_traffic.bin \
	fuzz/corpus/core/random10_tp.bin
EXTRA_DIST += \
	fuzz/corpus/options/bad_root.conf \
	fuzz/corpus/options/bad_seed.conf \
	fuzz/corpus/options/bad_two_values.conf \
	fuzz/corpus/options/bad_unknown.conf \
	fuzz/corpus/options/empty.conf \
	fuzz/corpus/options/good_all.conf \
	fuzz/corpus/options/good_modes.conf
EXTRA_DIST += \
	fuzz/corpus/traffic/bad_guid.traffic \
	fuzz/corpus/traffic/bad_inf.traffic \
	fuzz/corpus/traffic/bad_name.traffic \
	fuzz/corpus/traffic/bad_undefined.traffic \
	fuzz/corpus/traffic/good.traffic \
	fuzz/corpus/traffic/good_default.traffic \
	fuzz/corpus/traffic/good_same_group.traffic
EXTRA_DIST += \
	fuzz/corpus/netfile/bad_alias.net \
	fuzz/corpus/netfile/bad_dup_port.net \
	fuzz/corpus/netfile/bad_include.net \
	fuzz/corpus/netfile/bad_mismatch.net \
	fuzz/corpus/netfile/bad_no_blank.net \
	fuzz/corpus/netfile/ft2-6x3.net \
	fuzz/corpus/netfile/guids.net \
	fuzz/corpus/netfile/ring8.net
EXTRA_DIST += \
	fuzz/corpus/g2l/bad_dup.g2l \
	fuzz/corpus/g2l/bad_high.g2l \
	fuzz/corpus/g2l/bad_range.g2l \
	fuzz/corpus/g2l/bad_short.g2l \
	fuzz/corpus/g2l/bad_zero.g2l \
	fuzz/corpus/g2l/good.g2l \
	fuzz/corpus/g2l/good_max.g2l
