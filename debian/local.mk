# The Debian packaging (debian/README), distributed so a release tarball
# can be packaged too; debian/test-package.sh is run by scripts/test-all.sh.
EXTRA_DIST += debian/README debian/changelog debian/control \
	debian/copyright debian/docs debian/rules debian/source/format \
	debian/turnadd.triggers debian/local.mk
dist_noinst_SCRIPTS += debian/test-package.sh
