#!/usr/bin/env bash
# The Node message benchmarks: bijoubuf's TypeScript implementation against protobuf-es and
# protobufjs on the datasets of the Rust message benchmarks. Prepares the data (Rust writes
# each dataset's value as bijoubuf and protobuf bytes), the generated TypeScript and the
# descriptor set, then prints a Markdown table (µs of CPU time per operation, median of 9 runs).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo run -q --release -p bijoubuf-benches --bin messages-node-data -- benches/node/data
cargo run -q --release -p bijoubuf-cli -- compile -I benches/schemas \
  --ts-out typescript/gen/benches --ts-runtime ../../src/index.js \
  --descriptor-set-out benches/node/data/benches.binpb \
  benches/schemas/{telemetry,cas,wide,numeric,google_message1_proto3,google_message1_proto2}.proto >/dev/null
(cd typescript && npm ci --no-audit --no-fund >/dev/null && node node_modules/typescript/bin/tsc -p tsconfig.bench.json)
(cd benches/node && npm ci --no-audit --no-fund >/dev/null && node bench.mjs "$@")
