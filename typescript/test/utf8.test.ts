import assert from "node:assert/strict";
import { test } from "node:test";

import { DecodeError, EncodeError, compareCodePoints, firstInvalidUtf8 } from "../src/index.js";
import { decodeKey, decodeUtf8 } from "../src/utf8.js";
import { Customer, hex } from "./schema.js";

test("the ill-formed sequences SPEC §7 names are refused at their first byte", () => {
  const cases: [string, number][] = [
    ["61 62 C0 AF 63", 2], // overlong
    ["ED A0 80", 0], // surrogate
    ["F4 90 80 80", 0], // above U+10FFFF
    ["61 E2 82", 1], // truncated
    ["61 80", 1], // stray continuation byte
    ["E0 80 80", 0], // overlong three-byte
    ["F0 80 80 80", 0], // overlong four-byte
    ["C1 BF", 0],
    ["F5 80 80 80", 0],
    ["FF", 0],
  ];
  for (const [bytes, at] of cases) {
    const b = hex(bytes);
    assert.equal(firstInvalidUtf8(b, 0, b.length), at, bytes);
  }
  for (const ok of ["", "68 C3 A9", "EF BB BF", "00", "F0 9F 98 80", "F4 8F BF BF", "ED 9F BF", "EE 80 80"]) {
    const b = hex(ok);
    assert.equal(firstInvalidUtf8(b, 0, b.length), -1, ok);
  }
});

test("the validator agrees with a fatal TextDecoder on random short byte strings", () => {
  // A deterministic generator biased towards the bytes that start and continue sequences.
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 8;
  const pool = [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff];
  const fatal = new TextDecoder("utf-8", { fatal: true });
  for (let i = 0; i < 20000; i++) {
    const b = Uint8Array.from({ length: next() % 6 }, () => pool[next() % pool.length]!);
    let ok = true;
    try {
      fatal.decode(b);
    } catch {
      ok = false;
    }
    const at = firstInvalidUtf8(b, 0, b.length);
    assert.equal(at === -1, ok, `bytes ${Array.from(b)}`);
    if (at >= 0) {
      // The prefix before the reported byte is well-formed.
      assert.doesNotThrow(() => fatal.decode(b.subarray(0, at)));
    }
  }
});

test("strings compare by code point, not by UTF-16 unit (SPEC §6.4)", () => {
  assert.ok(compareCodePoints("\uFF21", "\u{1F600}") < 0); // Ａ before 😀
  assert.ok("\uFF21" > "\u{1F600}"); // while UTF-16 order says otherwise
  assert.ok(compareCodePoints("a", "ab") < 0);
  assert.equal(compareCodePoints("x", "x"), 0);
  assert.ok(compareCodePoints("\u{10000}", "\u{FFFF}") > 0);
});

test("the decoder refuses ill-formed strings at the validator's offset, short or long", () => {
  // Short ASCII strings take the fast path, the others Node's non-fatal decoder (whose
  // result is kept only without U+FFFD) or a fatal TextDecoder: all must accept and refuse
  // the same strings, at the same offset. EF BF BD is U+FFFD itself, well-formed.
  const bad = ["C0 AF", "ED A0 80", "ED BF BF", "F4 90 80 80", "E2 82", "80", "E0 80 80", "F0 80 80 80", "C1 BF", "F5 80 80 80", "FF", "C2", "E0 9F BF", "F0 8F BF BF", "F0 9F 98", "EF BF BD 80"];
  const good = ["68 C3 A9", "EF BB BF", "00", "7F", "F0 9F 98 80", "F4 8F BF BF", "ED 9F BF", "EE 80 80", "EF BF BD", "EF BF BE"];
  const plain = new TextDecoder("utf-8", { ignoreBOM: true });
  for (const pad of [0, 5, 31, 40, 200]) {
    for (const tail of [0, 3]) {
      for (const [list, ok] of [
        [bad, false],
        [good, true],
      ] as const) {
        for (const seq of list) {
          const body = Uint8Array.from([...new Array<number>(pad).fill(0x61), ...hex(seq), ...new Array<number>(tail).fill(0x62)]);
          const input = Uint8Array.from([0x02, body.length, ...body]);
          const what = `${pad} + ${seq} + ${tail}`;
          if (ok) {
            assert.equal(Customer.decode(input).name, plain.decode(body), what);
          } else {
            assert.throws(
              () => Customer.decode(input),
              (e: unknown) =>
                e instanceof DecodeError && e.code === "invalid-utf8" && e.offset === 2 + firstInvalidUtf8(body, 0, body.length),
              what,
            );
          }
        }
      }
    }
  }
});

test("the encoder writes every string as TextEncoder does and refuses lone surrogates, short or long", () => {
  const te = new TextEncoder();
  const parts = ["a", "é", "€", "\u{1F600}", "\uFEFF", "\u007F", "\u0080", "\u07FF", "\u0800", "\uFFFF", "\u{10FFFF}"];
  for (const pad of [0, 10, 16, 17, 24, 25, 60]) {
    for (const part of parts) {
      for (const s of ["x".repeat(pad) + part, part + "y".repeat(pad), "z".repeat(pad)]) {
        if (s === "") continue; // the default: no record
        const body = te.encode(s);
        assert.deepEqual(Customer.encode({ name: s }), Uint8Array.from([0x02, body.length, ...body]), s);
      }
    }
    for (const lone of ["\uD800", "\uDBFF", "\uDC00", "\uDFFF", "\uDC00\uD800"]) {
      for (const s of ["x".repeat(pad) + lone, lone + "y".repeat(pad), "a".repeat(pad) + lone + "b".repeat(pad)]) {
        assert.throws(() => Customer.encode({ name: s }), (e: unknown) => e instanceof EncodeError && e.code === "invalid-utf8", JSON.stringify(s));
      }
    }
  }
});

test("map keys through the key cache decode as without it, colliding and ill-formed ones included", () => {
  // Keys of one length with the same first, middle and last bytes share a cache slot.
  const keys = ["abxcd", "aexcd", "abxcd", "aéxcd", "service.name", "service.name", "a", "", "k".repeat(32), "k".repeat(33)];
  const enc = new TextEncoder();
  const parts: Uint8Array[] = keys.map((k) => enc.encode(k));
  // Ill-formed: a stray continuation byte, and a key sharing a cached key's slot whose
  // bytes differ from it only where the cache does not hash.
  parts.push(hex("61 62 80 63 64"), hex("61 62 78 63 64"), hex("61 C0 78 63 64"));
  for (let round = 0; round < 3; round++) {
    for (const p of parts) {
      // At an offset inside a larger input, as a decoder sees it.
      const buf = new Uint8Array(p.length + 3);
      buf.set(p, 2);
      assert.deepEqual(decodeKey(buf, 2, 2 + p.length), decodeUtf8(buf, 2, 2 + p.length), [...p].join(" "));
    }
  }
  assert.equal(decodeKey(hex("61 62 80 63 64"), 0, 5), 2);
});
