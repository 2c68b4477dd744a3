#!/usr/bin/env bash
# Decode time when the inputs differ, against one input decoded again, under three
# settings of glibc's allocator; run by hand, nothing is written into the repository.
#
#   benches/scripts/vary.sh [ITERATIONS [RUNS]]        (defaults 10000 and 3)
#
# For each OpenTelemetry workload and decode operation, `otlp-profile W OP ITERATIONS 4`
# (four different inputs, seeds 0–3, cycled) and `otlp-profile W OP ITERATIONS 4 0
# repeat` (four copies of seed 0's input) are run RUNS times, alternated, and the median
# process user time (`/usr/bin/time -f %U`) of each is printed with the difference
# "vary − repeat". Under three allocators:
#   glibc       glibc malloc as it comes
#   tcache      GLIBC_TUNABLES=glibc.malloc.tcache_count=65535: every freed block up to
#               1 KiB kept in the thread's cache, so (nearly) every malloc and free takes
#               the cache's short path and none the fast bins', small bins' or unsorted
#               bin's
#   pool-1000   benches/scripts/malloc-exp.c preloaded with MALLOC_POOL_FROM=1000: glibc
#               as it comes, but no request of 1,000 bytes or more reaches it (so no
#               large-bin request merges its fast bins, malloc_consolidate)
# The owned decode's own part of what varying inputs cost is the owned decode's
# difference less the borrowed decode's (which copies no strings and allocates far less).
#
# Environment: OTLP_DRIVER=PATH uses an otlp-profile built earlier; VARY_OPS="OP..." and
# VARY_WORKLOADS="W..." narrow the runs; VARY_ALLOCATORS="glibc tcache pool-1000" too.
# Process user time on a shared machine: compare only numbers from one run of the script.
set -euo pipefail
cd "$(dirname "$0")/../.."

iterations=${1:-10000}
runs=${2:-3}
ops=${VARY_OPS:-bijou-decode bijou-borrowed-decode buffa-decode buffa-view-decode}
workloads=${VARY_WORKLOADS:-otlp-traces otlp-metrics otlp-logs}
allocators=${VARY_ALLOCATORS:-glibc tcache pool-1000}

driver=${OTLP_DRIVER:-}
if [ -z "$driver" ]; then
  cargo build --release --locked -q -p bijoubuf-benches --bin otlp-profile
  driver=target/release/otlp-profile
fi
mkdir -p target/otlp
preload=target/otlp/malloc-exp.so
cc -O2 -shared -fPIC -o "$preload" benches/scripts/malloc-exp.c -ldl

# One timed run: prints the process user time in seconds.
user_time() {
  local alloc=$1
  shift
  local env=()
  case "$alloc" in
    glibc) ;;
    tcache) env=(GLIBC_TUNABLES=glibc.malloc.tcache_count=65535) ;;
    pool-1000) env=(MALLOC_POOL_FROM=1000 LD_PRELOAD="$preload") ;;
    *) echo "unknown allocator $alloc" >&2; exit 2 ;;
  esac
  { env "${env[@]}" /usr/bin/time -f %U "$driver" "$@" >/dev/null; } 2>&1 | tail -n 1
}

median() { tr ' ' '\n' | grep . | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

echo "load before: $(cat /proc/loadavg)"
printf '%-10s %-13s %-22s %8s %8s %8s\n' allocator workload operation repeat vary difference
for alloc in $allocators; do
  for w in $workloads; do
    for op in $ops; do
      rep=""
      var=""
      for _ in $(seq "$runs"); do
        rep="$rep $(user_time "$alloc" "$w" "$op" "$iterations" 4 0 repeat)"
        var="$var $(user_time "$alloc" "$w" "$op" "$iterations" 4)"
      done
      r=$(echo "$rep" | median)
      v=$(echo "$var" | median)
      printf '%-10s %-13s %-22s %8s %8s %+8.2f\n' "$alloc" "$w" "$op" "$r" "$v" \
        "$(echo "$v - $r" | bc -l)"
    done
  done
done
echo "load after: $(cat /proc/loadavg)"
