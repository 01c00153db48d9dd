#!/bin/sh
# A stand-in for Nsight Compute (tests/integration/profile_round_test.cpp; CI has no GPU and no
# ncu): takes ncu's options as the judge passes them, writes a report in ncu's CSV form to the
# --log-file, then runs the program (the runner) as ncu would, so the round's real path runs.
# FAKE_NCU_MODE=silent writes no report; =garbled writes one without ncu's header.
set -u
log=""
while [ $# -gt 0 ]; do
  case "$1" in
    --log-file) log="$2"; shift 2 ;;
    --csv) shift ;;
    --print-units|--clock-control|--launch-count|--metrics) shift 2 ;;
    *) break ;;
  esac
done
[ -n "$log" ] || { echo "fake_ncu: no --log-file" >&2; exit 2; }
case "${FAKE_NCU_MODE:-report}" in
  silent) ;;
  garbled) echo '"Kernel","Value"' > "$log"; echo '"x","1"' >> "$log" ;;
  *) cat > "$log" <<'CSV'
==PROF== Connected to process 4242 (arena-runner)
==PROF== Profiling "vector_add_kernel": 0%....50%....100% - 9 passes
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
"0","4242","arena-runner","host","vector_add_kernel(const float *, const float *, float *, long)","1","13","(256, 1, 1)","(4096, 1, 1)","0","9.0","Command line profiler metrics","gpu__time_duration.sum","nsecond","12,345"
"0","4242","arena-runner","host","vector_add_kernel(const float *, const float *, float *, long)","1","13","(256, 1, 1)","(4096, 1, 1)","0","9.0","Command line profiler metrics","dram__throughput.avg.pct_of_peak_sustained_elapsed","%","87.5"
"0","4242","arena-runner","host","vector_add_kernel(const float *, const float *, float *, long)","1","13","(256, 1, 1)","(4096, 1, 1)","0","9.0","Command line profiler metrics","launch__registers_per_thread","register/thread","16"
"0","4242","arena-runner","host","vector_add_kernel(const float *, const float *, float *, long)","1","13","(256, 1, 1)","(4096, 1, 1)","0","9.0","Command line profiler metrics","lts__t_sector_hit_rate.pct","%","n/a"
"1","4242","arena-runner","host","tail_kernel","1","13","(32, 1, 1)","(1, 1, 1)","0","9.0","Command line profiler metrics","gpu__time_duration.sum","nsecond","1,024.5"
==PROF== Disconnected from process 4242
CSV
  ;;
esac
exec "$@"
