#!/usr/bin/env bash
# Run the varint shootout and regenerate benches/RESULTS.md from it.
#
#   benches/scripts/varint.sh                 # full run (criterion's default timing)
#   benches/scripts/varint.sh --quick         # 0.5 s warm-up, 1 s measurement per case
#   benches/scripts/varint.sh -- ARGS...      # extra criterion arguments
#
# The machine's load before and after the run is recorded in RESULTS.md, because other
# processes make the numbers noisier.
set -euo pipefail
cd "$(dirname "$0")/../.."

target="${CARGO_TARGET_DIR:-target}"
crit_args=()
if [ "${1:-}" = "--quick" ]; then
  crit_args=(--warm-up-time 0.5 --measurement-time 1)
  shift
fi
[ "${1:-}" = "--" ] && shift
crit_args+=("$@")

mkdir -p "$target/criterion"
info="$target/criterion/varint-run.txt"
{
  echo "run started: $(date -u '+%Y-%m-%d %H:%M') (UTC)"
  echo "load before the run (1/5/15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "criterion arguments: ${crit_args[*]:-(defaults)}"
  echo "rustc: $(rustc --version)"
} > "$info.tmp"

cargo bench -p bijoubuf-benches --bench varint -- "${crit_args[@]}"

{
  cat "$info.tmp"
  echo "load after the run (1/5/15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "run finished: $(date -u '+%Y-%m-%d %H:%M') (UTC)"
} > "$info"
rm -f "$info.tmp"

cargo run --release -p bijoubuf-benches --bin varint-results -- --criterion "$target/criterion"
