# lib_load.sh - the words of a TAP line for a block that could not be
# judged for the machine's load (lib.sh's skip_load), which tests/run.sh
# looks for to run the program again alone: set here once, read by both.
# A skip's reason begins with LOAD_SKIP ("ok 7 - NAME # SKIP load: WHY");
# on CI, where the block fails instead, the failure's with LOAD_CI_FAIL
# ("not ok 7 - NAME: skipped for load on CI, which must be a quiet
# machine: WHY").  Neither holds a character special to grep -E.
LOAD_SKIP='load: '
LOAD_CI_FAIL='skipped for load on CI'
