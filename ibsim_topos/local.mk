# rules for ibsim_topos (see top-level Makefile.am)
