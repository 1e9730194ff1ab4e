# rules for lid_assign (see top-level Makefile.am)
