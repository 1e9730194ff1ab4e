# A short seeded fault campaign (scripts/fault_campaign.sh): random link,
# switch and leaf failures, restores and SM takeovers under ibsim, OpenSM
# with turnadd, the tables read back and checked after each, throughput
# against a from-scratch reference (about 2 min).
campaign_test_scripts = tests/integration/fault_campaign_short.sh

TESTS += $(campaign_test_scripts)
dist_noinst_SCRIPTS += $(campaign_test_scripts)
# the parts of fault_campaign.sh and the quality campaigns' driver
dist_noinst_SCRIPTS += scripts/fault_events.sh scripts/campaign_step.sh \
	scripts/campaign_ref.sh scripts/campaign_report.sh \
	scripts/sm_pair_lib.sh scripts/campaign_fabrics.sh \
	scripts/campaign_quality.sh
