import assert from "node:assert/strict";
import { test } from "node:test";

import { bijou64 } from "../src/index.js";
import { hex, show } from "./schema.js";

// SPEC §2.3: the tier edges.
const EDGES: [string, string][] = [
  ["0", "00"],
  ["1", "01"],
  ["247", "F7"],
  ["248", "F8 00"],
  ["249", "F8 01"],
  ["503", "F8 FF"],
  ["504", "F9 00 00"],
  ["505", "F9 00 01"],
  ["66039", "F9 FF FF"],
  ["66040", "FA 00 00 00"],
  ["66041", "FA 00 00 01"],
  ["16843255", "FA FF FF FF"],
  ["16843256", "FB 00 00 00 00"],
  ["16843257", "FB 00 00 00 01"],
  ["4311810551", "FB FF FF FF FF"],
  ["4311810552", "FC 00 00 00 00 00"],
  ["4311810553", "FC 00 00 00 00 01"],
  ["1103823438327", "FC FF FF FF FF FF"],
  ["1103823438328", "FD 00 00 00 00 00 00"],
  ["1103823438329", "FD 00 00 00 00 00 01"],
  ["282578800148983", "FD FF FF FF FF FF FF"],
  ["282578800148984", "FE 00 00 00 00 00 00 00"],
  ["282578800148985", "FE 00 00 00 00 00 00 01"],
  ["72340172838076919", "FE FF FF FF FF FF FF FF"],
  ["72340172838076920", "FF 00 00 00 00 00 00 00 00"],
  ["72340172838076921", "FF 00 00 00 00 00 00 00 01"],
  ["18446744073709551614", "FF FE FE FE FE FE FE FE 06"],
  ["18446744073709551615", "FF FE FE FE FE FE FE FE 07"],
  ["300", "F8 34"],
  ["4294967295", "FB FE FE FE 07"],
  ["4294967296", "FB FE FE FE 08"],
];

test("the tier edges encode and decode as SPEC §2.3 says", () => {
  for (const [value, bytes] of EDGES) {
    const v = BigInt(value);
    assert.equal(show(bijou64.encode(v)), bytes, `encode ${value}`);
    assert.equal(bijou64.sizeBigInt(v), hex(bytes).length, `size ${value}`);
    const d = bijou64.decode(hex(bytes));
    assert.deepEqual(d, { value: v, length: hex(bytes).length }, `decode ${bytes}`);
    if (v <= BigInt(Number.MAX_SAFE_INTEGER)) {
      assert.equal(show(bijou64.encode(Number(v))), bytes, `encode number ${value}`);
    }
  }
});

test("every tier-8 payload past FE FE FE FE FE FE FE 07 overflows (SPEC §2.4)", () => {
  for (const p of ["FE FE FE FE FE FE FE 08", "FE FE FE FE FE FE FF 00", "FF FF FF FF FF FF FF FF", "FF 00 00 00 00 00 00 00"]) {
    assert.equal(bijou64.decode(hex("FF " + p)), "varint-overflow", p);
  }
  assert.notEqual(bijou64.decode(hex("FF FE FE FE FE FE FE FD FF")), "varint-overflow");
});

test("a bijou64 cut short is truncated, whatever its tier", () => {
  assert.equal(bijou64.decode(hex("")), "truncated");
  for (let tag = 0xf8; tag <= 0xff; tag++) {
    const full = new Uint8Array(tag - 0xf6);
    full[0] = tag;
    for (let n = 1; n < full.length; n++) {
      assert.equal(bijou64.decode(full.subarray(0, n)), "truncated", `tag ${tag} cut at ${n}`);
    }
    assert.notEqual(bijou64.decode(full), "truncated");
  }
});

test("encode then decode is the identity on values around every edge", () => {
  for (const [value] of EDGES) {
    for (const d of [-2n, -1n, 0n, 1n, 2n]) {
      const v = BigInt(value) + d;
      if (v < 0n || v > bijou64.U64_MAX) continue;
      const b = bijou64.encode(v);
      assert.deepEqual(bijou64.decode(b), { value: v, length: b.length });
    }
  }
});

test("zigzag maps 0, -1, 1, -2, 2 to 0, 1, 2, 3, 4", () => {
  assert.deepEqual([0, -1, 1, -2, 2].map(bijou64.zigzag32), [0, 1, 2, 3, 4]);
  assert.deepEqual([0n, 1n, 2n, 3n, 4n].map(bijou64.unzigzag64), [0n, -1n, 1n, -2n, 2n]);
  assert.equal(bijou64.zigzag32(-2147483648), 4294967295);
  assert.equal(bijou64.zigzag64(-9223372036854775808n), bijou64.U64_MAX);
});

test("bigint conversions of safe integers agree with BigInt() at every edge", () => {
  const edges: number[] = [];
  for (const e of [0, 247, 248, 503, 504, 2 ** 31, 2 ** 32, 2 ** 47, 2 ** 48, 2 ** 52, 2 ** 53 - 1]) {
    for (const d of [-2, -1, 0, 1, 2]) if (e + d >= 0 && e + d <= Number.MAX_SAFE_INTEGER) edges.push(e + d);
  }
  for (let x = 1; x < 2 ** 53; x = x * 3 + 1) edges.push(x);
  for (const x of edges) {
    assert.equal(bijou64.bigFromNumber(x), BigInt(x), `${x}`);
    assert.equal(bijou64.bigFromSigned(x), BigInt(x), `${x}`);
    assert.equal(bijou64.bigFromSigned(-x), BigInt(-x), `-${x}`);
    assert.equal(bijou64.unzigzagToBig(x), bijou64.unzigzag64(BigInt(x)), `zigzag ${x}`);
  }
});
