// `node:test` for the browser run (test/browser/run.mjs): the page's import map sends
// the package tests' `import { test } from "node:test"` here. Tests are collected as the
// test modules load and run one after another by `runAll`, in the real browser.

const registered = [];

/** Register a test, as `node:test`'s `test(name, fn)` does (the only form the tests use). */
export function test(name, fn) {
  if (typeof fn !== "function") throw new TypeError(`test ${name}: only test(name, fn) is supported here`);
  registered.push({ name, fn });
}

/** Run every test registered so far; returns one `{ name, ok, error? }` per test. */
export async function runAll() {
  const results = [];
  for (const { name, fn } of registered.splice(0)) {
    try {
      await fn();
      results.push({ name, ok: true });
    } catch (e) {
      results.push({ name, ok: false, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
    }
  }
  return results;
}

export default test;
