#!/usr/bin/env bash
# Run the message benchmarks and regenerate the message sections of benches/RESULTS.md.
#
#   benches/scripts/messages.sh                 # full run (criterion's default timing)
#   benches/scripts/messages.sh --quick         # 0.5 s warm-up, 1 s measurement per case
#   benches/scripts/messages.sh -- ARGS...      # extra criterion arguments
#   benches/scripts/messages.sh --callgrind ... # also count instructions per operation
#                                               # (valgrind; repeatable on a busy machine)
#   benches/scripts/messages.sh --callgrind-only # only count instructions, keep the last
#                                               # criterion run's medians
#
# The machine's load before and after the run is recorded, because other processes make
# the numbers noisier. The varint sections of RESULTS.md are left as they are.
set -euo pipefail
cd "$(dirname "$0")/../.."

target="${CARGO_TARGET_DIR:-target}"
crit_args=()
callgrind=0
bench=1
if [ "${1:-}" = "--callgrind" ]; then
  callgrind=1
  shift
elif [ "${1:-}" = "--callgrind-only" ]; then
  callgrind=1
  bench=0
  shift
fi
if [ "${1:-}" = "--quick" ]; then
  crit_args=(--warm-up-time 0.5 --measurement-time 1)
  shift
fi
[ "${1:-}" = "--" ] && shift
crit_args+=("$@")

mkdir -p "$target/criterion"
if [ "$bench" = 1 ]; then
  info="$target/criterion/messages-run.txt"
  {
    echo "run started: $(date -u '+%Y-%m-%d %H:%M') (UTC)"
    echo "load before the run (1/5/15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "criterion arguments: ${crit_args[*]:-(defaults)}"
    echo "rustc: $(rustc --version)"
  } > "$info.tmp"

  cargo bench -p bijoubuf-benches --bench messages --bench messages_scaling -- "${crit_args[@]}"

  {
    cat "$info.tmp"
    echo "load after the run (1/5/15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "run finished: $(date -u '+%Y-%m-%d %H:%M') (UTC)"
  } > "$info"
  rm -f "$info.tmp"
fi

if [ "$callgrind" = 1 ]; then
  # Instructions per operation: only the profiled loop (`timed`) is collected.
  cargo build --release -p bijoubuf-benches --bin messages-profile
  profile="$target/release/messages-profile"
  counts="$target/criterion/messages-instructions.txt"
  out_dir="$(mktemp -d)"
  n=5
  echo "# counted $(date -u '+%Y-%m-%d %H:%M') (UTC) at commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- crates benches || echo ' with uncommitted changes')" > "$counts.tmp"
  for ds in telemetry cas wide numeric gm1-proto3 gm1-proto2; do
    for op in bijou-encode bijou-encoded-len bijou-decode bijou-decode-preserve bijou-borrowed-decode \
      prost-encode prost-encoded-len prost-decode prost-decode-reencode-compare \
      bilrost-encode bilrost-decode-distinguished \
      buffa-encode buffa-encoded-len buffa-decode buffa-view-decode; do
      case "$ds/$op" in
        wide/bilrost* | gm1-*/bilrost*) continue ;;   # no bilrost peer
        gm1-*/*) ;;
        */buffa*) continue ;;                          # buffa only on GoogleMessage1
      esac
      # Single GoogleMessage1 values are small: more iterations for a steady count.
      iters=$n
      case "$ds" in gm1-*) iters=$((n * 100)) ;; esac
      ir=$(valgrind --tool=callgrind --toggle-collect='*timed*' \
        --callgrind-out-file="$out_dir/$ds-$op.out" "$profile" "$ds" "$op" "$iters" 2>&1 |
        awk '/Collected/ {print $4}')
      echo "$ds $op $((ir / iters))" >> "$counts.tmp"
    done
  done
  mv "$counts.tmp" "$counts"
  echo "callgrind profiles kept in $out_dir"
fi

cargo run --release -p bijoubuf-benches --bin messages-results -- --criterion "$target/criterion"
