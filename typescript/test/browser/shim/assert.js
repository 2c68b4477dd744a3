// `node:assert/strict` for the browser run: the assertions the package tests use, with
// the strict semantics (`equal` is `Object.is`, `deepEqual` is deep-strict: same
// prototypes, own enumerable keys, Map and Set entries, typed array elements).

export class AssertionError extends Error {
  constructor(message) {
    super(message);
    this.name = "AssertionError";
  }
}

function show(v) {
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "string") return JSON.stringify(v);
  if (v instanceof Uint8Array) return `Uint8Array[${Array.from(v).join(",")}]`;
  if (v instanceof Map) return `Map(${[...v].map(([k, x]) => `${show(k)} => ${show(x)}`).join(", ")})`;
  try {
    return JSON.stringify(v, (_, x) => (typeof x === "bigint" ? `${x}n` : x)) ?? String(v);
  } catch {
    return String(v);
  }
}

function fail(message, fallback) {
  if (message instanceof Error) throw message;
  throw new AssertionError(message ?? fallback);
}

function deepStrictEqual(a, b, seen = new Map()) {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (seen.get(a) === b) return true;
  seen.set(a, b);
  if (ArrayBuffer.isView(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Date) return Object.is(a.getTime(), b.getTime());
  if (a instanceof RegExp) return String(a) === String(b);
  if (a instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !deepStrictEqual(v, b.get(k), seen)) return false;
    return true;
  }
  if (a instanceof Set) {
    if (a.size !== b.size) return false;
    for (const k of a) if (!b.has(k)) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k) || !deepStrictEqual(a[k], b[k], seen)) return false;
  }
  return true;
}

function matches(error, expected) {
  if (expected === undefined) return true;
  if (typeof expected === "function") {
    if (expected.prototype !== undefined && error instanceof expected) return true;
    if (Error.isPrototypeOf(expected) || expected === Error) return false;
    return expected(error) === true;
  }
  if (expected instanceof RegExp) return expected.test(String(error?.message ?? error));
  if (typeof expected === "object" && expected !== null) {
    return Object.keys(expected).every((k) =>
      expected[k] instanceof RegExp ? expected[k].test(error?.[k]) : deepStrictEqual(error?.[k], expected[k]),
    );
  }
  return false;
}

const assert = {
  AssertionError,
  ok(value, message) {
    if (!value) fail(message, `expected a truthy value, got ${show(value)}`);
  },
  equal(actual, expected, message) {
    if (!Object.is(actual, expected)) fail(message, `${show(actual)} !== ${show(expected)}`);
  },
  notEqual(actual, expected, message) {
    if (Object.is(actual, expected)) fail(message, `${show(actual)} === ${show(expected)}`);
  },
  deepEqual(actual, expected, message) {
    if (!deepStrictEqual(actual, expected)) fail(message, `not deep-equal:\n  ${show(actual)}\n  ${show(expected)}`);
  },
  match(string, regexp, message) {
    if (typeof string !== "string" || !regexp.test(string)) fail(message, `${show(string)} does not match ${regexp}`);
  },
  doesNotMatch(string, regexp, message) {
    if (typeof string !== "string" || regexp.test(string)) fail(message, `${show(string)} matches ${regexp}`);
  },
  fail(message) {
    fail(message, "failed");
  },
  throws(fn, expected, message) {
    if (typeof expected === "string") [expected, message] = [undefined, expected];
    try {
      fn();
    } catch (e) {
      if (!matches(e, expected)) fail(message, `the error does not match: ${show(e?.message ?? e)}`);
      return;
    }
    fail(message, "missing expected exception");
  },
  async rejects(promiseOrFn, expected, message) {
    if (typeof expected === "string") [expected, message] = [undefined, expected];
    try {
      await (typeof promiseOrFn === "function" ? promiseOrFn() : promiseOrFn);
    } catch (e) {
      if (!matches(e, expected)) fail(message, `the rejection does not match: ${show(e?.message ?? e)}`);
      return;
    }
    fail(message, "missing expected rejection");
  },
  doesNotThrow(fn, message) {
    try {
      fn();
    } catch (e) {
      fail(message, `unexpected exception: ${e?.message ?? e}`);
    }
  },
};
assert.strict = assert;
assert.strictEqual = assert.equal;
assert.notStrictEqual = assert.notEqual;
assert.deepStrictEqual = assert.deepEqual;

export default assert;
