# Integration test of mode turn_prohibition (the paper's TP reference).
TESTS += tests/integration/turnprohib_random.sh
dist_noinst_SCRIPTS += tests/integration/turnprohib_random.sh
