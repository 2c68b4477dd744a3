// The npm package as a user gets it: `npm pack` on a copy of the package holding no
// `dist/` (as a fresh clone), so `prepack` must build it; the tarball installed into a
// fresh project with no registry (`npm install --offline ./bijoubuf-x.tgz`; the package has
// no runtime dependencies); then the bare specifier `"bijoubuf"` imported from an ES
// module and type-checked from TypeScript with Node's own resolution (`exports`, `types`).
// Node-only (child processes, the file system): the browser run leaves `test/node/` out.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

/** The package directory: the nearest `package.json` named `bijoubuf` above this file. */
function packageDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === "bijoubuf") return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error("no package.json named bijoubuf above the test");
    dir = up;
  }
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" },
    shell: process.platform === "win32",
  });
}

// Used by the consumer below: SPEC Appendix A.1's Person, declared as generated code does.
const CONSUMER_MODULE = `
import { DecodeError, Kind, MessageType, bijou64 } from "bijoubuf";

const Person = new MessageType("consumer.Person", () => [
  { no: 1, name: "name", kind: Kind.String },
  { no: 2, name: "age", kind: Kind.Int32 },
]);
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(" ");
const bytes = Person.encode(Person.create({ name: "Ada", age: 36 }));
let refused = "accepted";
try {
  Person.decode(Uint8Array.from([0x02, 0x03, 0x41, 0x64, 0x61, 0x00, 0x00]));
} catch (e) {
  refused = e instanceof DecodeError ? e.message : "not a DecodeError: " + e;
}
console.log(JSON.stringify({
  encoded: hex(bytes),
  back: Person.decode(bytes),
  refused,
  tierTwo: bijou64.encodedLength(0xf8),
}));
`;

const CONSUMER_TS = `
import { DecodeError, Kind, MessageType, type MessageShape } from "bijoubuf";

interface Person extends MessageShape {
  name: string;
  age: number;
}
const Person = new MessageType<Person>("consumer.Person", () => [
  { no: 1, name: "name", kind: Kind.String },
  { no: 2, name: "age", kind: Kind.Int32 },
]);
const p: Person = Person.decode(Person.encode(Person.create({ name: "Ada", age: 36 })));
const age: number = p.age;
const e: DecodeError | undefined = undefined;
export { age, e };
`;

test("the packed tarball builds dist on prepack, installs offline into a fresh project, imports and type-checks", () => {
  const pkg = packageDir();
  const work = mkdtempSync(join(tmpdir(), "bijoubuf-pack-"));
  try {
    // A copy without dist/ (and without tests, examples or generated code).
    const stage = join(work, "package");
    for (const f of ["package.json", "README.md", "tsconfig.json", "src"]) cpSync(join(pkg, f), join(stage, f), { recursive: true });
    symlinkSync(join(pkg, "node_modules"), join(stage, "node_modules"), "junction");
    assert.ok(!existsSync(join(stage, "dist")));

    const packed = JSON.parse(run(npm, ["pack", "--json", "--pack-destination", work], stage)) as {
      filename: string;
      files: { path: string }[];
    }[];
    const files = packed[0]!.files.map((f) => f.path).sort();
    for (const f of ["package.json", "README.md", "dist/src/index.js", "dist/src/index.d.ts", "src/index.ts"]) {
      assert.ok(files.includes(f), `${f} is in the tarball: ${files.join(", ")}`);
    }
    assert.deepEqual(
      files.filter((f) => !/^(package\.json|README\.md|dist\/src\/[\w.]+\.(js|d\.ts)|src\/[\w.]+\.ts)$/.test(f)),
      [],
      "nothing else is packed (no tests, no node_modules)",
    );

    const consumer = join(work, "consumer");
    mkdirSync(consumer);
    writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    run(npm, ["install", "--offline", "--no-save", join(work, packed[0]!.filename)], consumer);
    assert.ok(existsSync(join(consumer, "node_modules/bijoubuf/dist/src/index.js")));

    writeFileSync(join(consumer, "main.mjs"), CONSUMER_MODULE);
    const out = JSON.parse(run(process.execPath, ["main.mjs"], consumer));
    assert.deepEqual(out, {
      encoded: "02 03 41 64 61 00 48", // SPEC Appendix A.1
      back: { name: "Ada", age: 36 },
      refused: "default-value-present: Person.age holds its default at byte 5",
      tierTwo: 2,
    });

    writeFileSync(join(consumer, "main.ts"), CONSUMER_TS);
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, noEmit: true, types: [] },
        files: ["main.ts"],
      }),
    );
    run(process.execPath, [join(pkg, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], consumer);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
