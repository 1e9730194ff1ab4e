# Manual pages of the installed checking tools: lftcheck(8), lftread(8).
dist_man_MANS += scripts/man/lftcheck.8 scripts/man/lftread.8
