# A short seeded fault campaign (scripts/fault_campaign.sh): random link,
# switch and leaf failures and restores under ibsim, OpenSM with turnadd,
# the tables read back and checked after each (< 60 s).
campaign_test_scripts = tests/integration/fault_campaign_short.sh

TESTS += $(campaign_test_scripts)
dist_noinst_SCRIPTS += $(campaign_test_scripts)
