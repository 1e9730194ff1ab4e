# rules for tests/integration (see top-level Makefile.am)
