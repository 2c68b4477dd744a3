// The well-known type helpers: Any packing with a type check, and Timestamp <-> Date.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  AnyTypeError,
  DecodeError,
  Kind,
  MessageType,
  anyIs,
  anyPack,
  anyTypeName,
  anyUnpack,
  timestampFromDate,
  timestampToDate,
  type AnyShape,
  type MessageShape,
} from "../src/index.js";
import { Customer, Person } from "./schema.js";

interface Stamp extends MessageShape {
  seconds: bigint;
  nanos: number;
}
// Field for field the shape of google.protobuf.Timestamp and Duration.
const Stamp = new MessageType<Stamp>("wellknown.Stamp", () => [
  { no: 1, name: "seconds", kind: Kind.Int64 },
  { no: 2, name: "nanos", kind: Kind.Int32 },
]);
const Span = new MessageType<Stamp>("wellknown.Span", () => [
  { no: 1, name: "seconds", kind: Kind.Int64 },
  { no: 2, name: "nanos", kind: Kind.Int32 },
]);

test("a type knows its type URL", () => {
  assert.equal(Person.typeName, "conformance.Person");
  assert.equal(Person.typeUrl, "type.googleapis.com/conformance.Person");
});

test("a packed value unpacks to itself and only as its type", () => {
  const v = Stamp.create({ seconds: -5n, nanos: 7 });
  const any = anyPack(Stamp, v);
  assert.equal(any.typeUrl, "type.googleapis.com/wellknown.Stamp");
  assert.deepEqual(any.value, Stamp.encode(v));
  assert.equal(anyTypeName(any), "wellknown.Stamp");
  assert.ok(anyIs(any, Stamp));
  assert.ok(!anyIs(any, Span));
  assert.deepEqual(anyUnpack(any, Stamp), v);
  // Span has Stamp's fields: without the check these bytes would decode as one.
  assert.deepEqual(Span.decode(any.value), v);
  assert.throws(
    () => anyUnpack(any, Span),
    (e: unknown) =>
      e instanceof AnyTypeError &&
      e.code === "any-type-mismatch" &&
      e.expected === "wellknown.Span" &&
      e.found === "type.googleapis.com/wellknown.Stamp" &&
      e.message ===
        'any-type-mismatch: expected wellknown.Span, the Any holds "type.googleapis.com/wellknown.Stamp"',
  );
});

test("only the name after the last slash counts", () => {
  const any: AnyShape = { typeUrl: "example.com/a/b/conformance.Customer", value: Customer.encode(Customer.create({ name: "c" })) };
  assert.equal(anyUnpack(any, Customer).name, "c");
  for (const url of ["conformance.Customer", "x/", "", "x/conformance.Customer/", "x/.conformance.Customer"]) {
    const bad = { ...any, typeUrl: url };
    assert.ok(!anyIs(bad, Customer), url);
    assert.throws(() => anyUnpack(bad, Customer), AnyTypeError, url);
  }
});

test("bytes that are not the type are a decode error", () => {
  // name holding its default (SPEC §5.1).
  const any = { typeUrl: Customer.typeUrl, value: Uint8Array.of(0x02, 0x00) };
  assert.throws(() => anyUnpack(any, Customer), (e: unknown) => e instanceof DecodeError && e.code === "default-value-present");
});

test("dates convert to timestamps and back at millisecond precision", () => {
  const cases: [string, bigint, number][] = [
    ["1970-01-01T00:00:00.000Z", 0n, 0],
    ["1969-12-31T23:59:59.999Z", -1n, 999_000_000],
    ["0001-01-01T00:00:00.000Z", -62135596800n, 0],
    ["9999-12-31T23:59:59.999Z", 253402300799n, 999_000_000],
    ["2023-11-14T22:13:20.123Z", 1700000000n, 123_000_000],
  ];
  for (const [iso, seconds, nanos] of cases) {
    const t = timestampFromDate(new Date(iso));
    assert.deepEqual(t, { seconds, nanos }, iso);
    assert.equal(timestampToDate(t).toISOString(), iso);
  }
  // Below the millisecond is dropped, towards the past.
  assert.equal(timestampToDate({ seconds: -1n, nanos: 999_999_999 }).toISOString(), "1969-12-31T23:59:59.999Z");
  assert.equal(timestampToDate({ seconds: 0n, nanos: 1 }).getTime(), 0);
});

test("out-of-range dates and timestamps are refused", () => {
  for (const d of [new Date(NaN), new Date("0000-12-31T23:59:59.999Z"), new Date("+010000-01-01T00:00:00.000Z")]) {
    assert.throws(() => timestampFromDate(d), RangeError, String(d.getTime()));
  }
  const bad: [bigint, number, string][] = [
    [-62135596801n, 999_999_999, "timestamp-out-of-range"],
    [253402300800n, 0, "timestamp-out-of-range"],
    [0n, -1, "nanos-out-of-range"],
    [0n, 1_000_000_000, "nanos-out-of-range"],
    [0n, 0.5, "nanos-out-of-range"],
  ];
  for (const [seconds, nanos, code] of bad) {
    assert.throws(
      () => timestampToDate({ seconds, nanos }),
      (e: unknown) => e instanceof RangeError && e.message.startsWith(code),
      `${seconds} ${nanos}`,
    );
  }
});
