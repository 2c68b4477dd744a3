// The browser run's page: checks the import map, the assert shim (it must fail when it
// should), runs every package test module (test/*.test.js), then the signed-envelope
// example (examples/signed.ts) against cases made by the Rust implementation when the
// runner was given some. The report is POSTed to the runner (run.mjs), which prints it.

import * as viaBare from "bijoubuf";
import * as viaPath from "/src/index.js";
import assert from "node:assert/strict";
import { runAll } from "node:test";

const report = { userAgent: navigator.userAgent, checks: [], tests: [] };

async function check(name, fn) {
  try {
    await fn();
    report.checks.push({ name, ok: true });
  } catch (e) {
    report.checks.push({ name, ok: false, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
  }
}

function refuses(fn) {
  try {
    fn();
  } catch (e) {
    if (e instanceof assert.AssertionError) return;
    throw e;
  }
  throw new Error("the assertion passed where it must fail");
}

const fromHex = (s) => Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16));
const toHex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

async function send(body) {
  await fetch("/report", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

async function main() {
  await check("the import map resolves the bare specifier to the package's modules", () => {
    assert.equal(viaBare.DecodeError, viaPath.DecodeError);
    assert.equal(typeof viaBare.MessageType, "function");
  });
  await check("a browser: no Node globals", () => {
    assert.equal(typeof globalThis.process, "undefined");
    assert.equal(typeof globalThis.Buffer, "undefined");
    assert.equal(typeof document, "object");
  });
  await check("the assert shim refuses what node:assert/strict refuses", () => {
    refuses(() => assert.equal(1, "1"));
    refuses(() => assert.equal(1n, 2n));
    refuses(() => assert.deepEqual(new Map([["a", 1n]]), new Map([["a", 2n]])));
    refuses(() => assert.deepEqual([1, 2], [1, 2, 3]));
    refuses(() => assert.deepEqual({ a: 1 }, { a: 1, b: undefined }));
    refuses(() => assert.deepEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 3)));
    refuses(() => assert.deepEqual([1], { 0: 1, length: 1 }));
    refuses(() => assert.ok(0));
    refuses(() => assert.match("abc", /x/));
    refuses(() => assert.throws(() => {}));
    refuses(() => assert.throws(() => { throw new TypeError("t"); }, RangeError));
    refuses(() => assert.throws(() => { throw new Error("t"); }, (e) => e.message === "u"));
    refuses(() => assert.doesNotThrow(() => { throw new Error("t"); }));
    assert.deepEqual(new Map([["a", [1n, Uint8Array.of(7)]]]), new Map([["a", [1n, Uint8Array.of(7)]]]));
    assert.throws(() => { throw new TypeError("t"); }, TypeError);
  });
  await check("the assert shim's rejects refuses what node:assert/strict's refuses", async () => {
    const refusesAsync = async (p) => {
      let threw = false;
      try {
        await p;
      } catch {
        threw = true;
      }
      assert.ok(threw, "the shim accepted what node:assert/strict refuses");
    };
    await refusesAsync(assert.rejects(Promise.resolve(1)));
    await refusesAsync(assert.rejects(Promise.reject(new TypeError("t")), RangeError));
    await refusesAsync(assert.rejects(async () => { throw new Error("t"); }, /u/));
    await assert.rejects(Promise.reject(new TypeError("t")), TypeError);
    await assert.rejects(async () => { throw new Error("t"); }, /t/);
  });

  const { tests, cases } = await (await fetch("/run.json")).json();
  for (const file of tests) {
    try {
      await import(`/${file}`);
      for (const r of await runAll()) report.tests.push({ file, ...r });
    } catch (e) {
      report.tests.push({ file, name: "(module failed to load)", ok: false, error: String(e?.stack ?? e) });
    }
  }

  if (cases?.signed) {
    const s = cases.signed;
    const ex = await import("/examples/signed.js");
    await check("signed example: the envelope signed here (WebCrypto Ed25519) is byte for byte Rust's", async () => {
      assert.equal(toHex(await ex.signTransfer(fromHex(s.seed), ex.demoTransfer())), s.signed);
    });
    await check("signed example: Rust's envelope verifies here, and its body is the demo transfer", async () => {
      const v = await ex.verifyTransfer(fromHex(s.public), fromHex(s.signed));
      assert.ok(v.ok, JSON.stringify(v.part));
      assert.deepEqual([v.transfer.payer, v.transfer.payee, v.transfer.amount], ["alice", "bob", 2500n]);
    });
    for (const t of s.tampered) {
      await check(`signed example: refused as Rust refuses it: ${t.name}`, async () => {
        const v = await ex.verifyTransfer(fromHex(s.public), fromHex(t.hex));
        assert.equal(v.ok, false, "accepted");
        if (v.part === "signature") {
          assert.equal("bad-signature", t.code);
        } else {
          assert.deepEqual(
            { code: v.error.code, offset: v.error.offset, path: v.error.path, message: v.error.message },
            { code: t.code, offset: t.offset, path: t.path, message: t.message },
          );
        }
      });
    }
  }
  document.getElementById("out").textContent = "done";
  await send(report);
}

window.addEventListener("error", (e) => send({ fatal: `error: ${e.message} at ${e.filename}:${e.lineno}` }));
window.addEventListener("unhandledrejection", (e) => send({ fatal: `unhandled rejection: ${e.reason?.stack ?? e.reason}` }));
main().catch((e) => send({ fatal: String(e?.stack ?? e) }));
