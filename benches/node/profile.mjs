// One operation of one dataset in a loop, for `node --cpu-prof profile.mjs <dataset> <decode|encode>`:
// bijoubuf's TypeScript only, on the data benches/node/run.sh prepares.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const gen = join(here, "../../typescript/dist/gen/benches");
const MODULES = {
  telemetry: ["telemetry", "SpanBatch"],
  cas: ["cas", "Index"],
  numeric: ["numeric", "SeriesBatch"],
  wide: ["wide", "WideBatch"],
  "gm1-proto3": ["benchmarks.proto3", "GoogleMessage1"],
  "gm1-proto2": ["benchmarks.proto2", "GoogleMessage1"],
};
const [name = "telemetry", op = "decode", seconds = "3"] = process.argv.slice(2);
const [module, short] = MODULES[name];
const T = (await import(join(gen, `${module}.js`)))[short];
const bytes = new Uint8Array(readFileSync(join(here, `data/${name}.bijoubuf`)));
const value = T.decode(bytes);
const f = op === "decode" ? () => T.decode(bytes) : () => T.encode(value);
const until = performance.now() + Number(seconds) * 1000;
let n = 0;
while (performance.now() < until) {
  for (let i = 0; i < 100; i++) f();
  n += 100;
}
console.error(`${name} ${op}: ${n} calls`);
