# Manual page of turnadd-lids(8).
dist_man_MANS += lid_assign/man/turnadd-lids.8
