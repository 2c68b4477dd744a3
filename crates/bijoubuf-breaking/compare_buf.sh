#!/usr/bin/env bash
# Runs `buf breaking` and `bijoubuf breaking` on every case under tests/buf_cases and
# prints the markdown table of COMPARISON.md.
#
#   BUF=path/to/buf BIJOUBUF=path/to/bijoubuf ./compare_buf.sh
#
# buf comes from npm (`npm install @bufbuild/buf-linux-x64`, in a scratch directory);
# bijoubuf from `cargo build -p bijoubuf-cli`.
set -euo pipefail
: "${BUF:?set BUF to the buf binary}"
: "${BIJOUBUF:?set BIJOUBUF to the bijoubuf binary}"
cd "$(dirname "$0")/tests/buf_cases"
BUF=$(command -v "$BUF" || realpath "$BUF")
BIJOUBUF=$(command -v "$BIJOUBUF" || realpath "$BIJOUBUF")

buf_rules() { # case category
  (cd "$1/new" && "$BUF" breaking . --against ../old \
    --config "{\"version\":\"v2\",\"breaking\":{\"use\":[\"$2\"]}}" --error-format json || true) |
    jq -r '.type' | sort -u | paste -sd' ' -
}

ours() { # case category
  ("$BIJOUBUF" breaking --against "$1/old" --categories "$2" --format json "$1/new" || true) |
    jq -r '.[].rule' | sort -u | paste -sd' ' -
}

echo "| case | buf WIRE | buf WIRE_JSON (beyond WIRE) | ours canonical | ours forward | ours json |"
echo "|---|---|---|---|---|---|"
for c in */; do
  c=${c%/}
  wire=$(buf_rules "$c" WIRE)
  wire_json=$(buf_rules "$c" WIRE_JSON)
  extra=$(comm -13 <(tr ' ' '\n' <<<"$wire" | sort) <(tr ' ' '\n' <<<"$wire_json" | sort) | paste -sd' ' -)
  echo "| $c | ${wire:-–} | ${extra:-–} | $(ours "$c" canonical | sed 's/^$/–/') | $(ours "$c" forward | sed 's/^$/–/') | $(ours "$c" json | sed 's/^$/–/') |"
done
