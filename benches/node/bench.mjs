// Strict decode and encode in Node: bijoubuf's TypeScript implementation against
// protobuf-es (@bufbuild/protobuf, reflection over the schemas' descriptor set, as its
// generated code does) and protobufjs (its runtime-generated codecs from the .proto files),
// on the message benchmark datasets. Each peer works on its own bytes of the same logical
// value (benches/src/bin/messages-node-data.rs writes them).
//
// Run with benches/node/run.sh, which prepares the data and the generated code.

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import os from "node:os";

import { createFileRegistry, fromBinary, toBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import protobuf from "protobufjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");
// BENCH_GEN: another build of the generated code and runtime (to compare two versions).
const gen = process.env.BENCH_GEN ?? join(root, "typescript/dist/gen/benches");

// [dataset, message type, generated module, its export]: the modules are the schemas'
// packages (one module per package).
const DATASETS = [
  ["telemetry", "telemetry.SpanBatch", "telemetry", "SpanBatch"],
  ["cas", "cas.Index", "cas", "Index"],
  ["numeric", "numeric.SeriesBatch", "numeric", "SeriesBatch"],
  ["wide", "wide.WideBatch", "wide", "WideBatch"],
  ["gm1-proto3", "benchmarks.proto3.GoogleMessage1", "benchmarks.proto3", "GoogleMessage1"],
  ["gm1-proto2", "benchmarks.proto2.GoogleMessage1", "benchmarks.proto2", "GoogleMessage1"],
];
const SCHEMAS = ["telemetry", "cas", "numeric", "wide", "google_message1_proto3", "google_message1_proto2"];
// `node bench.mjs telemetry numeric` runs only those datasets.
const only = process.argv.slice(2);

const fds = fromBinary(FileDescriptorSetSchema, readFileSync(join(here, "data/benches.binpb")));
const registry = createFileRegistry(fds);
const pbjsRoot = new protobuf.Root();
pbjsRoot.loadSync(
  SCHEMAS.map((n) => join(root, "benches/schemas", `${n}.proto`)),
  { keepCase: false },
);

/**
 * The median of `runs` timings of `fn` repeated for about `ms` milliseconds each, in µs of
 * CPU time per call (`BENCH_STAT=min` for the fastest run instead).
 */
function time(fn, ms = 300, runs = 9) {
  for (let i = 0; i < 20; i++) fn(); // warm-up and JIT
  let n = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    if (performance.now() - t0 > ms / 10) break;
    n *= 2;
  }
  n *= 10; // about `ms` per run
  const samples = [];
  for (let r = 0; r < runs; r++) {
    // CPU time of this process, not wall time: on a shared machine the wall clock also
    // counts the time other processes held the core.
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) fn();
    const c = process.cpuUsage(c0);
    samples.push((c.user + c.system) / n);
  }
  if (process.env.BENCH_STAT === "min") return Math.min(...samples);
  samples.sort((a, b) => a - b);
  return samples[(runs - 1) >> 1];
}

const rows = [];
for (const [name, full, module, short] of DATASETS) {
  if (only.length > 0 && !only.includes(name)) continue;
  const bij = new Uint8Array(readFileSync(join(here, `data/${name}.bijoubuf`)));
  const pb = new Uint8Array(readFileSync(join(here, `data/${name}.protobuf`)));
  const mod = await import(join(gen, `${module}.js`));
  const T = mod[short];
  const value = T.decode(bij);
  if (Buffer.compare(Buffer.from(T.encode(value)), Buffer.from(bij)) !== 0) {
    throw new Error(`${name}: bijoubuf re-encoding differs`);
  }
  const esDesc = registry.getMessage(full);
  const esValue = fromBinary(esDesc, pb);
  const pbjsType = pbjsRoot.lookupType(full);
  const pbjsValue = pbjsType.decode(pb);
  const r = {
    name,
    bijoubufDecode: time(() => T.decode(bij)),
    bijoubufEncode: time(() => T.encode(value)),
    esDecode: time(() => fromBinary(esDesc, pb)),
    esEncode: time(() => toBinary(esDesc, esValue)),
    pbjsDecode: time(() => pbjsType.decode(pb)),
    pbjsEncode: time(() => pbjsType.encode(pbjsValue).finish()),
  };
  rows.push(r);
  console.error(`${name} done`);
}

const f = (x) => x.toFixed(x < 10 ? 2 : 1);
const ratio = (peer, ours) => (peer / ours).toFixed(2);
console.log(`- node: ${process.version}; ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"})`);
console.log(`- cells: ${process.env.BENCH_STAT === "min" ? "fastest" : "median"} of 9 runs`);
console.log(`- load (1/5/15 min) at the end: ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}`);
console.log("");
console.log("| dataset | bijoubuf strict decode | protobuf-es decode | protobufjs decode | bijoubuf encode | protobuf-es encode | protobufjs encode |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
  console.log(
    `| ${r.name} | ${f(r.bijoubufDecode)} | ${f(r.esDecode)} (${ratio(r.esDecode, r.bijoubufDecode)}×) | ${f(r.pbjsDecode)} (${ratio(r.pbjsDecode, r.bijoubufDecode)}×) | ${f(r.bijoubufEncode)} | ${f(r.esEncode)} (${ratio(r.esEncode, r.bijoubufEncode)}×) | ${f(r.pbjsEncode)} (${ratio(r.pbjsEncode, r.bijoubufEncode)}×) |`,
  );
}
