# Manual pages of the plugin: turnadd(8), turnadd.conf(5); installed by
# make install and by the Debian package.  The example options file
# (every line commented) is what the package installs as
# /etc/opensm/turnadd.conf.
dist_man_MANS += plugin/man/turnadd.8 plugin/man/turnadd.conf.5
EXTRA_DIST += plugin/man/turnadd.conf.example

# groff -ww clean, and --version of every tool is configure.ac's.
TESTS += tests/integration/man_pages.sh
dist_noinst_SCRIPTS += tests/integration/man_pages.sh
