# rules for plugin (see top-level Makefile.am)
