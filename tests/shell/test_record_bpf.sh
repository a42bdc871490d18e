# test_record_bpf.sh - test_record.sh's programs (tar, cp -a, git, a
# database, two threads, a command that fails or is killed, the roots,
# privacy) recorded by the bpf tracer, each recording compiled and
# replayed at N=1 and N=8 with no outcome difference.  Skipped, saying
# why, where the bpf tracer cannot run.
TRACER=bpf
. "$TOP/tests/shell/test_record.sh"
