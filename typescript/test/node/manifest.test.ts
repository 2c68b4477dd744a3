// The conformance vectors' manifest (conformance/vectors/MANIFEST) against the tree, as
// conformance/README.md ("The vector pack") defines it: SPEC version, vectors per file
// and SHA-256 over the set. A vector changed without a new manifest fails here.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const REGENERATE =
  "cargo run -p bijoubuf-conformance --bin vectors-manifest -- --version NEW-VERSION";

/** The repository's conformance/: the first directory up from this compiled file
 * (dist/test/node/ or another output directory) that holds conformance/vectors/MANIFEST. */
const CONFORMANCE = ((): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "conformance/vectors/MANIFEST"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error("conformance/vectors/MANIFEST not found above this test");
    dir = up;
  }
  return join(dir, "conformance");
})();

/** Byte-wise order of ASCII paths (what the manifest's hash uses). */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** vectors/*.toml but known_divergences.toml, and schemas/**\/*.proto, relative to root. */
function setFiles(root: string): string[] {
  const out = readdirSync(join(root, "vectors"), { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".toml") && e.name !== "known_divergences.toml")
    .map((e) => `vectors/${e.name}`);
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
      if (e.isDirectory()) walk(`${rel}/${e.name}`);
      else if (e.name.endsWith(".proto")) out.push(`${rel}/${e.name}`);
    }
  };
  walk("schemas");
  return out.sort(byteOrder);
}

/** Throws, saying what differs and how to regenerate, unless MANIFEST matches the tree. */
function checkManifest(root: string): void {
  const fields = new Map<string, string>();
  const cases: string[] = [];
  readFileSync(join(root, "vectors/MANIFEST"), "utf8")
    .split("\n")
    .forEach((raw, i) => {
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) return;
      const w = line.split(/\s+/);
      if (w[0] === "cases" && w.length === 3) cases.push(`${w[1]} ${w[2]}`);
      else if (["spec", "version", "sha256"].includes(w[0]) && w.length === 2) fields.set(w[0], w[1]);
      else throw new Error(`MANIFEST line ${i + 1}: cannot read ${JSON.stringify(line)}`);
    });
  const version = fields.get("version");
  const stale = (what: string) =>
    new Error(
      `${what}: the conformance vectors or schemas changed since vectors/MANIFEST was written ` +
        `(pack version ${version}). Bump the version and regenerate it: ${REGENERATE}`,
    );
  const first = readFileSync(join(root, "SPEC.md"), "utf8").split("\n")[0].trim();
  if (first !== `# bijoubuf wire format, version ${fields.get("spec")}`) {
    throw stale(`MANIFEST says SPEC version ${fields.get("spec")}, SPEC.md begins ${first}`);
  }
  const sha = createHash("sha256");
  const counted: string[] = [];
  for (const rel of setFiles(root)) {
    const bytes = readFileSync(join(root, rel));
    sha.update(`${rel}\n${bytes.length}\n`);
    sha.update(bytes);
    if (rel.startsWith("vectors/")) {
      const n = bytes
        .toString("utf8")
        .split("\n")
        .filter((l) => l.trim() === "[[case]]").length;
      counted.push(`${rel.slice("vectors/".length)} ${n}`);
    }
  }
  if (counted.join(", ") !== cases.join(", ")) {
    throw stale(`vectors per file: MANIFEST has ${cases.join(", ")}; the tree ${counted.join(", ")}`);
  }
  const digest = sha.digest("hex");
  if (digest !== fields.get("sha256")) {
    throw stale(`SHA-256 over the set: MANIFEST has ${fields.get("sha256")}, the tree ${digest}`);
  }
}

test("the vectors' manifest matches the tree", () => {
  checkManifest(CONFORMANCE);
});

test("a vector changed without a new manifest fails the check", () => {
  const tmp = mkdtempSync(join(tmpdir(), "bijoubuf-manifest-"));
  try {
    const files = setFiles(CONFORMANCE);
    for (const rel of [...files, "vectors/MANIFEST", "SPEC.md"]) {
      cpSync(join(CONFORMANCE, rel), join(tmp, rel), { recursive: true });
    }
    checkManifest(tmp);
    writeFileSync(join(tmp, files[0]), readFileSync(join(tmp, files[0]), "utf8") + "\n");
    assert.throws(() => checkManifest(tmp), (e: Error) => {
      assert.match(e.message, /SHA-256 over the set/);
      assert.ok(e.message.includes("Bump the version") && e.message.includes(REGENERATE), e.message);
      return true;
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
