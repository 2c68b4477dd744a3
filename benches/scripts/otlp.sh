#!/usr/bin/env bash
# The OpenTelemetry (and GoogleMessage1 batch) measurements, run by hand; nothing is
# written into the repository, everything goes to stdout and target/otlp/.
#
#   benches/scripts/otlp.sh [PART...] [-- BENCH-ARGS...]
#
# PART is any of (all by default):
#   time     the benchmark (benches/otlp.rs): libraries alternated round by round, thread
#            CPU time, ratios peer ÷ bijoubuf
#   count    instructions and I1 misses per input under cachegrind (valgrind), from the
#            driver bin otlp-profile: the difference of 3 and 1 iterations, halved, so
#            setup and the first, cold run are not counted
#   code     machine-code bytes of the generated decode/encode functions of the main OTLP
#            messages (symbol sizes in the release driver, `nm -S`), per library
#   source   bytes of Rust generated for the OTLP protos (owned types; with twins/views)
#
# Environment: OTLP_DRIVER=PATH counts and sizes an otlp-profile binary built earlier
# instead of building one; OTLP_OPS="OP..." counts only those operations; BIJOUBUF_CLI=PATH
# generates the source with a CLI binary built earlier.
#
# The machine's load is printed before and after: on a shared machine prefer the counts
# and the ratios, never the absolute times.
set -euo pipefail
cd "$(dirname "$0")/../.."

parts=()
bench_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --) shift; bench_args=("$@"); break ;;
    time | count | code | source) parts+=("$1") ;;
    *) echo "unknown part $1" >&2; exit 2 ;;
  esac
  shift
done
[ ${#parts[@]} -eq 0 ] && parts=(time count code source)
has() { [[ " ${parts[*]} " == *" $1 "* ]]; }

target="${CARGO_TARGET_DIR:-target}"
out="$target/otlp"
mkdir -p "$out"
workloads=(otlp-traces otlp-metrics otlp-logs gm1-batch64)
ops=(bijou-decode prost-decode buffa-decode bijou-borrowed-decode buffa-view-decode
  bijou-encode prost-encode buffa-encode)
# OTLP_OPS="..." counts only these operations (the peers' counts do not change with
# bijoubuf's code).
[ -n "${OTLP_OPS:-}" ] && read -r -a ops <<< "$OTLP_OPS"

echo "# $(date -u '+%Y-%m-%d %H:%M') UTC, commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- crates benches || echo ' with uncommitted changes')"
echo "# load (1/5/15 min) before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $(rustc --version)"

if has time; then
  echo
  echo "## time: cargo bench -p bijoubuf-benches --bench otlp -- ${bench_args[*]:-}"
  cargo bench -q -p bijoubuf-benches --bench otlp -- "${bench_args[@]}" | tee "$out/time.md"
fi

# OTLP_DRIVER=path measures a driver built earlier (kept aside, e.g. from another branch).
driver="${OTLP_DRIVER:-$target/release/otlp-profile}"
if [ -z "${OTLP_DRIVER:-}" ] && { has count || has code; }; then
  # With the bench target, so that features unify as in `cargo bench` (no second build).
  cargo build -q --release -p bijoubuf-benches --bin otlp-profile --bench otlp
fi

if has count; then
  echo
  echo "## count: valgrind --tool=cachegrind --I1=32768,8,64 (32 KiB, 8-way, 64-byte lines), per input"
  echo
  echo "| workload | operation | instructions | I1 misses |"
  echo "|---|---|---:|---:|"
  count() { # workload op iterations -> "Ir I1mr"
    valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 \
      --cachegrind-out-file=/dev/null "$driver" "$1" "$2" "$3" 2>&1 |
      awk '/I *refs:/ {gsub(",", "", $4); ir=$4} /I1 *misses:/ {gsub(",", "", $4); m=$4} END {print ir, m}'
  }
  for w in "${workloads[@]}"; do
    for op in "${ops[@]}"; do
      read -r ir1 m1 < <(count "$w" "$op" 1)
      read -r ir2 m2 < <(count "$w" "$op" 3)
      printf '| %s | %s | %d | %d |\n' "$w" "$op" $(((ir2 - ir1) / 2)) $(((m2 - m1) / 2))
    done
  done | tee "$out/count.md"
fi

if has code; then
  echo
  echo "## code: machine-code bytes per function (nm -S on the release driver)"
  syms="$(mktemp)"
  nm -S -C -t d --size-sort "$driver" |
    awk '{ size = $2 + 0; $1 = $2 = $3 = ""; sub(/^ +/, ""); print size "\t" $0 }' > "$syms"
  # bijoubuf's generated functions are trait methods named by type: every one of the
  # messages that carry the data, largest first.
  echo
  echo "bijoubuf, the generated functions of the main messages and their twins:"
  echo
  grep -E 'msg::bijou::opentelemetry::proto::[a-z]+::v1::(span::)?(Span|LogRecord|HistogramDataPoint|NumberDataPoint|Metric|KeyValue|AnyValue)(Ref)? as ' "$syms" |
    grep -v 'otlp::Pb>' | sort -rn | sed -E 's/bijoubuf_benches::msg::bijou::opentelemetry::proto::[a-z]+::v1:://' | tee "$out/code.txt"
  echo
  echo "totals over every OTLP message (bytes, functions):"
  echo
  # Twins are the `…Ref` types (`EntityRef` is an owned message, `EntityRefRef` its twin).
  owned() { grep -E '::EntityRef as |[a-z0-9_]+::[A-Za-z0-9]*[^f] as |[^y]Ref as ' "$syms" | grep -Ev '[A-Za-z]Ref as ' | cat - <(grep -E '::EntityRef as ' "$syms"); }
  twins() { grep -E 'Ref as ' "$syms" | grep -v '::EntityRef as '; }
  total() { grep -E "$1" | grep -Ev 'drop_in_place|Clone|Debug|PartialEq|otlp::Pb>' |
    awk -v n="$2" '{ s += $1; c++ } END { printf "| %s | %d | %d |\n", n, s, c }'; }
  {
    echo "| library, functions | bytes | functions |"
    echo "|---|---:|---:|"
    owned | total 'msg::bijou::opentelemetry.*decode' "bijoubuf owned, decode"
    twins | total 'msg::bijou::opentelemetry.*decode' "bijoubuf twins, decode"
    owned | total 'msg::bijou::opentelemetry.*(write|size|encode)' "bijoubuf owned, encode (size and write)"
    total 'msg::pb::opentelemetry' "prost, named functions (merge_field, encode_raw, encoded_len)" < "$syms"
    total 'msg::buffa_types::opentelemetry' "buffa, named functions (write_to, compute_size, …)" < "$syms"
  } | tee -a "$out/code.txt"
  echo
  echo "the largest functions of the peers' decode paths (generic instantiations are not"
  echo "named by their type in legacy symbol mangling; this binary holds OTLP and GoogleMessage1):"
  echo
  grep -E '^[0-9]+\s(prost::encoding::message::merge|<[^>]* as prost::message::Message>::merge_field|buffa::message::Message::(decode_from_slice|merge_length_delimited)|buffa::view::MessageView::decode_view)' "$syms" |
    sort -rn | head -8 | tee -a "$out/code.txt"
  rm "$syms"
fi

if has source; then
  echo
  echo "## source: bytes of generated Rust for opentelemetry/proto/{common,resource,trace,metrics,logs}"
  echo
  otlp=(benches/schemas/opentelemetry/proto/{common,resource,trace,metrics,logs}/v1/*.proto)
  # Owned types only: the CLI's default output (no borrowed twins).
  gen="$(mktemp -d)"
  # BIJOUBUF_CLI=path uses a CLI binary built earlier.
  cli=(cargo run -q --locked -p bijoubuf-cli --)
  [ -n "${BIJOUBUF_CLI:-}" ] && cli=("$BIJOUBUF_CLI")
  "${cli[@]}" compile --no-lint -I benches/schemas --rust-out "$gen/owned" "${otlp[@]}" >/dev/null
  "${cli[@]}" compile --no-lint -I benches/schemas --rust-out "$gen/twins" \
    --rust-borrowed .opentelemetry "${otlp[@]}" >/dev/null
  # the build script's output, for prost and buffa
  built=""
  for d in $(ls -td "$target"/*/build/bijoubuf-benches-*/out); do
    [ -e "$d/buffa/opentelemetry.proto.trace.v1.trace.rs" ] && { built=$d; break; }
  done
  row() { # name files... -> bytes, lines, bytes without `//` comment lines
    local name=$1
    shift
    printf '| %s | %d | %d | %d |\n' "$name" "$(cat "$@" | wc -c)" "$(cat "$@" | wc -l)" \
      "$(cat "$@" | grep -v '^ *//' | wc -c)"
  }
  {
    echo "| generated | bytes | lines | bytes without comment lines |"
    echo "|---|---:|---:|---:|"
    row "bijoubuf, owned types" "$gen"/owned/*.rs
    row "bijoubuf, owned + borrowed twins" "$gen"/twins/*.rs
    row "prost" "$built"/prost/opentelemetry.*
    row "buffa, owned (+ oneof and mod files)" $(ls "$built"/buffa/opentelemetry.* | grep -v __view)
    row "buffa, views" "$built"/buffa/opentelemetry.*__view*
  } | tee "$out/source.md"
  rm -r "$gen"
fi

echo
echo "# load (1/5/15 min) after: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%H:%M') UTC"
