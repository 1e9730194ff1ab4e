# rules for scripts (see top-level Makefile.am)
