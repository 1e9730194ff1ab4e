# The measurements and the documents that say how each was made
# (results/README.md); the design document.  quality.csv, roots.csv,
# tables.md and the quality figures are listed in scripts/local.mk.
EXTRA_DIST += plugin/DESIGN.md results/README.md \
	results/mads.md \
	results/dragonfly.md \
	results/faults/engines.md \
	results/faults/README.md \
	results/faults/long-100/table.txt \
	results/layers.md \
	results/multicast.md \
	results/mutation.md \
	results/quality.md \
	results/quality/RUN.md \
	results/quality/dragonfly/README.md \
	results/quality/dragonfly/quality.csv \
	results/quality/dragonfly/roots.csv \
	results/quality/dragonfly/tables.md \
	results/quality/joined_cut.md \
	results/quality/random-vls4/quality.csv \
	results/quality/random-vls4/tables.md \
	results/quality/spliced.txt \
	results/quality/tp_candidate.md \
	results/speed.md \
	results/speed/core.txt \
	results/speed/dfp-10496/medians.csv \
	results/speed/dfp-10496/ratios.csv \
	results/speed/dfp-10496/speed.csv \
	results/speed/ft3-32768/medians.csv \
	results/speed/ft3-32768/ratios.csv \
	results/speed/ft3-32768/reroute/bench.csv \
	results/speed/ft3-32768/reroute/summary.csv \
	results/speed/ft3-32768/speed.csv \
	results/speed/ft3-32768/speed.png \
	results/speed/large.txt \
	results/speed/large/medians.csv \
	results/speed/large/ratios.csv \
	results/speed/large/speed.csv \
	results/speed/large/speed.png \
	results/speed/medians.csv \
	results/speed/memory.txt \
	results/speed/memory/medians.csv \
	results/speed/memory/ratios.csv \
	results/speed/memory/speed.csv \
	results/speed/memory/speed.png \
	results/speed/memory/table.txt \
	results/speed/profile.txt \
	results/speed/ratios.csv \
	results/speed/rerun-11664/medians.csv \
	results/speed/rerun-11664/ratios.csv \
	results/speed/rerun-11664/speed.csv \
	results/speed/scale/medians.csv \
	results/speed/scale/ratios.csv \
	results/speed/scale/speed.csv \
	results/speed/scale/speed.png \
	results/speed/speed.csv \
	results/speed/speed.png \
	results/speed/table.txt
