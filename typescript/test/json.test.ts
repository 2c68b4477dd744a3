import assert from "node:assert/strict";
import { test } from "node:test";

import { EncodeError, JsonError, Kind, MessageType, Presence, base64Decode, toJsonValue } from "../src/index.js";
import { Node, Order, Reading, show } from "./schema.js";

// Hand-written descriptions in the form the code generator emits.

const Color = { COLOR_UNSPECIFIED: 0, COLOR_RED: 1, COLOR_ALIAS: 1, COLOR_NEG: -1 } as const;
const colorType = { typeName: "j.Color", values: Color };

interface All {
  i32: number;
  i64: bigint;
  u32: number;
  u64: bigint;
  sf64: bigint;
  flag: boolean;
  color: number;
  fl: number;
  db: number;
  str: string;
  by: Uint8Array;
  snakeCase: number;
  opt?: number;
  colors: number[];
  byKey: Map<bigint, string>;
  pick?: { case: "a"; value: number } | { case: "b"; value: string };
}
const All = new MessageType<All>("j.All", () => [
  { no: 1, name: "i32", kind: Kind.Int32 },
  { no: 2, name: "i64", kind: Kind.Int64 },
  { no: 3, name: "u32", kind: Kind.Uint32 },
  { no: 4, name: "u64", kind: Kind.Uint64 },
  { no: 5, name: "sf64", kind: Kind.Sfixed64 },
  { no: 6, name: "flag", kind: Kind.Bool },
  { no: 7, name: "color", kind: Kind.Enum, enumType: colorType },
  { no: 8, name: "fl", kind: Kind.Float },
  { no: 9, name: "db", kind: Kind.Double },
  { no: 10, name: "str", kind: Kind.String },
  { no: 11, name: "by", kind: Kind.Bytes },
  { no: 12, name: "snake_case", prop: "snakeCase", kind: Kind.Int32 },
  { no: 13, name: "opt", kind: Kind.Int32, presence: Presence.Explicit },
  { no: 14, name: "colors", kind: Kind.Enum, enumType: colorType, repeated: true },
  { no: 15, name: "by_key", prop: "byKey", mapKey: Kind.Int64, kind: Kind.String },
  { no: 16, name: "a", kind: Kind.Int32, oneof: "pick" },
  { no: 17, name: "b", kind: Kind.String, oneof: "pick" },
]);

const G = "google.protobuf.";
const Timestamp = new MessageType<object>(G + "Timestamp", () => [
  { no: 1, name: "seconds", kind: Kind.Int64 },
  { no: 2, name: "nanos", kind: Kind.Int32 },
]);
const Duration = new MessageType<object>(G + "Duration", () => [
  { no: 1, name: "seconds", kind: Kind.Int64 },
  { no: 2, name: "nanos", kind: Kind.Int32 },
]);
const FieldMask = new MessageType<object>(G + "FieldMask", () => [
  { no: 1, name: "paths", kind: Kind.String, repeated: true },
]);
const Int64Value = new MessageType<object>(G + "Int64Value", () => [{ no: 1, name: "value", kind: Kind.Int64 }]);
const nullValue = { typeName: G + "NullValue", values: { NULL_VALUE: 0 } };
const Value: MessageType<object> = new MessageType<object>(G + "Value", () => [
  { no: 1, name: "null_value", prop: "nullValue", kind: Kind.Enum, enumType: nullValue, oneof: "kind" },
  { no: 2, name: "number_value", prop: "numberValue", kind: Kind.Double, oneof: "kind" },
  { no: 3, name: "string_value", prop: "stringValue", kind: Kind.String, oneof: "kind" },
  { no: 4, name: "bool_value", prop: "boolValue", kind: Kind.Bool, oneof: "kind" },
  { no: 5, name: "struct_value", prop: "structValue", kind: Kind.Message, msg: Struct, oneof: "kind" },
  { no: 6, name: "list_value", prop: "listValue", kind: Kind.Message, msg: ListValue, oneof: "kind" },
]);
const Struct: MessageType<object> = new MessageType<object>(G + "Struct", () => [
  { no: 1, name: "fields", mapKey: Kind.String, kind: Kind.Message, msg: Value },
]);
const ListValue: MessageType<object> = new MessageType<object>(G + "ListValue", () => [
  { no: 1, name: "values", kind: Kind.Message, msg: Value, repeated: true },
]);
const Any = new MessageType<object>(G + "Any", () => [
  { no: 1, name: "type_url", prop: "typeUrl", kind: Kind.String },
  { no: 2, name: "value", kind: Kind.Bytes },
]);
const Wkt = new MessageType<object>("j.Wkt", () => [
  { no: 1, name: "ts", kind: Kind.Message, msg: Timestamp, presence: Presence.Explicit },
  { no: 2, name: "dur", kind: Kind.Message, msg: Duration, presence: Presence.Explicit },
  { no: 3, name: "mask", kind: Kind.Message, msg: FieldMask, presence: Presence.Explicit },
  { no: 4, name: "big", kind: Kind.Message, msg: Int64Value, presence: Presence.Explicit },
  { no: 5, name: "st", kind: Kind.Message, msg: Struct, presence: Presence.Explicit },
  { no: 6, name: "val", kind: Kind.Message, msg: Value, presence: Presence.Explicit },
  { no: 7, name: "any", kind: Kind.Message, msg: Any, presence: Presence.Explicit },
  { no: 8, name: "vals", kind: Kind.Message, msg: Value, repeated: true },
]);

/** The JSON error's path and text, or "ok". */
function jsonRefusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof JsonError) return `${e.path}: ${e.detail}`;
    throw e;
  }
  return "ok";
}

/** Parse, print, parse again: the same encoding each time; returns the printed text. */
function roundTrip<T extends object>(t: MessageType<T>, json: string): string {
  const v = t.fromJson(json);
  const bytes = t.encode(v);
  const printed = t.toJson(v);
  const again = t.fromJson(printed);
  assert.equal(show(t.encode(again)), show(bytes), `${json} → ${printed}`);
  // Decoding the bytes prints the same JSON.
  assert.equal(t.toJson(t.decode(bytes)), printed);
  return printed;
}

test("scalars print in proto3 JSON's forms, in field-number order, defaults left out", () => {
  const printed = roundTrip(
    All,
    `{"str": "é\\n", "i64": -5, "u64": "18446744073709551615", "sf64": "-9223372036854775808",
      "u32": 4294967295, "i32": -2147483648, "flag": true, "color": "COLOR_RED",
      "fl": 0.1, "db": 1e21, "by": "3q2-7w", "snake_case": 7, "opt": 0, "colors": [1, 5, "COLOR_NEG"],
      "byKey": {"10": "b", "-1": "a"}, "b": "x", "i32": 0}`.replace(', "i32": 0}', "}"),
  );
  assert.equal(
    printed,
    '{"i32":-2147483648,"i64":"-5","u32":4294967295,"u64":"18446744073709551615",' +
      '"sf64":"-9223372036854775808","flag":true,"color":"COLOR_RED","fl":0.1,"db":1e+21,' +
      '"str":"é\\n","by":"3q2+7w==","snakeCase":7,"opt":0,"colors":["COLOR_RED",5,"COLOR_NEG"],' +
      '"byKey":{"-1":"a","10":"b"},"b":"x"}',
  );
  assert.equal(roundTrip(All, '{"i32": 0, "str": "", "flag": false, "fl": 0, "by": ""}'), "{}");
});

test("floats: NaN, infinities, minus zero and the number spellings", () => {
  assert.equal(
    roundTrip(All, '{"fl": "NaN", "db": "-Infinity"}'),
    '{"fl":"NaN","db":"-Infinity"}',
  );
  assert.equal(roundTrip(All, '{"fl": -0.0, "db": -0}'), '{"fl":-0.0,"db":-0.0}');
  assert.equal(roundTrip(All, '{"fl": 1, "db": 1}'), '{"fl":1.0,"db":1.0}');
  assert.equal(roundTrip(All, '{"fl": 1e-7, "db": 1.5e-7}'), '{"fl":1e-07,"db":1.5e-7}');
  assert.equal(roundTrip(All, '{"fl": "3.4028235e38", "db": 123456789012345680}'),
    '{"fl":3.4028235e+38,"db":1.2345678901234568e+17}');
  assert.match(jsonRefusal(() => All.fromJson('{"fl": 3.5e38}')), /^\$\.fl: .* out of range for float/);
  assert.match(jsonRefusal(() => All.fromJson('{"db": "inf"}')), /is not a number/);
  assert.match(jsonRefusal(() => All.fromJson('{"db": 1e400}')), /number out of range/);
});

/**
 * `float` values and the text Python `protobuf` 7.36's `json_format` prints for them (checked
 * by hand, value by value; the Rust implementation's test holds the same table). Before, 1e20
 * came out as 21 digits, which JSON tools read as an integer.
 */
const FLOATS_AS_PROTOBUF_PRINTS_THEM: [number, string][] = [
  [1.0, "1.0"], [0.1, "0.1"], [0.3, "0.3"], [1e-5, "1e-05"], [2.5e-5, "2.5e-05"],
  [0.0001, "0.0001"], [4.2e-4, "0.00042"], [0.00012345, "0.00012345"],
  [1e15, "1000000000000000.0"], [9.999999e15, "9999999000000000.0"], [1e16, "1e+16"],
  [1e20, "1e+20"], [3.4028235e38, "3.4028235e+38"], [-3.4028235e38, "-3.4028235e+38"],
  [1.1754944e-38, "1.1754944e-38"], [16777216, "16777216.0"], [123456.79, "123456.79"],
  [1234567.9, "1234567.9"], [1.5e-7, "1.5e-07"], [0.5, "0.5"], [100, "100.0"], [-2.5, "-2.5"],
  [1e7, "10000000.0"], [65504, "65504.0"], [-1e-10, "-1e-10"], [3.1415927, "3.1415927"],
  // Halfway between two shortest spellings: the even one (toExponential takes the larger:
  // 0.29101563). Powers of two whose eight-digit rounding reads back as another f32: nine
  // digits, as Python does (the shortest spelling that reads back has eight: 1.2621775e-29).
  ...([
    [0x3e950000, "0.29101562"], [0x4980002a, "1048581.2"], [0x431c5400, "156.32812"],
    [0x3c880000, "0.016601562"], [0x39800000, "0.00024414062"], [0x3b200000, "0.0024414062"],
    [0x0f800000, "1.26217745e-29"], [0x6b000000, "1.54742505e+26"],
    [0x6c800000, "1.23794004e+27"], [0x50000000, "8589935000.0"], [0x3f000001, "0.50000006"],
    // Its shortest spelling, 7.038531e-26, reads as the next f32 through a double.
    [0x15ae43fd, "7.0385307e-26"],
  ] as [number, string][]).map(([bits, text]): [number, string] => [f32FromBits(bits), text]),
];

function f32FromBits(bits: number): number {
  const v = new DataView(new ArrayBuffer(4));
  v.setUint32(0, bits);
  return v.getFloat32(0);
}

test("floats print as protobuf prints them", () => {
  for (const [x, text] of FLOATS_AS_PROTOBUF_PRINTS_THEM) {
    const v = All.create({ fl: Math.fround(x) });
    assert.equal(All.toJson(v), `{"fl":${text}}`, String(x));
    assert.equal(All.fromJson(`{"fl":${text}}`).fl, Math.fround(x), text);
  }
  // The smallest subnormal: the shortest digits (Python starts from six: 1.4013e-45).
  assert.equal(All.toJson(All.create({ fl: Math.fround(1e-45) })), '{"fl":1e-45}');
  // `double` is unchanged.
  assert.equal(roundTrip(All, '{"db": 1e20}'), '{"db":1e+20}');
});

test("integers: numbers or strings, exact, in range", () => {
  const v = All.fromJson('{"i64": "-9223372036854775808", "u64": 1e3, "i32": "5.0", "u32": "+7"}');
  assert.equal(v.i64, -(1n << 63n));
  assert.equal(v.u64, 1000n);
  assert.equal(v.i32, 5);
  assert.equal(v.u32, 7);
  // A uint64 above 2^53 given as a JSON number stays exact.
  assert.equal(All.fromJson('{"u64": 18446744073709551615}').u64, (1n << 64n) - 1n);
  for (const [json, why] of [
    ['{"i32": 2147483648}', "$.i32: 2147483648 is out of range for int32"],
    ['{"u64": -1}', "$.u64: -1 is out of range for uint64"],
    ['{"i64": "9223372036854775808"}', "$.i64: 9223372036854775808 is out of range for int64"],
    ['{"i32": 1.5}', "$.i32: expected an integer"],
    ['{"i32": "0x10"}', "$.i32: expected an integer"],
    ['{"i32": true}', "$.i32: expected an integer, found a bool"],
    ['{"color": 2147483648}', "$.color: enum number 2147483648 is outside the int32 range"],
    ['{"color": "BLUE"}', '$.color: "BLUE" is not a value of j.Color'],
    ['{"byKey": {"1": "a", "01": "b"}}', '$.byKey.01: the same map key twice'],
    ['{"byKey": {"x": "a"}}', "$.byKey.x: expected an integer"],
  ] as const) {
    assert.equal(jsonRefusal(() => All.fromJson(json)), why, json);
  }
});

test("names, null, duplicates, oneofs", () => {
  // The schema name and the JSON name both work; null is absent.
  assert.equal(All.fromJson('{"snake_case": 3}').snakeCase, 3);
  assert.equal(All.fromJson('{"snakeCase": 3, "opt": null}').opt, undefined);
  for (const [json, why] of [
    ['{"snakeCase": 1, "snake_case": 2}', '$.snake_case: field snake_case is also given as "snakeCase"'],
    ['{"a": 1, "b": "x"}', '$.b: oneof pick already has a member set ("a")'],
    ['{"nope": 1}', '$.nope: j.All has no field named "nope" (did you mean "opt"?)'],
    ['{"snakeCas": 1}', '$.snakeCas: j.All has no field named "snakeCas" (did you mean "snakeCase"?)'],
    ['{"colors": [null]}', "$.colors[0]: expected an enum name or number, found null"],
    ['{"colors": 1}', "$.colors: expected an array, found a number"],
    // Paths after siblings that read well: each step is taken back.
    ['{"opt": null, "colors": [1], "byKey": {"1": "a", "2": 5}}', "$.byKey.2: expected a string, found a number"],
    ['{"colors": [1, "COLOR_RED", "X"]}', '$.colors[2]: "X" is not a value of j.Color'],
  ] as const) {
    assert.equal(jsonRefusal(() => All.fromJson(json)), why, json);
  }
  // JSON.parse would keep the last of two equal keys; proto3 JSON text refuses them.
  assert.equal(jsonRefusal(() => All.fromJson('{"i32": 1, "i32": 2}')), ': duplicate key "i32" in the object at $');
  assert.match(jsonRefusal(() => All.fromJson('{"i32": 1,}')), /expected a member name/);
  assert.match(jsonRefusal(() => All.fromJson('{"str": "\\ud800"}')), /lone leading surrogate/);
  // A value JSON.parse returned works too.
  assert.equal(All.fromJson({ i64: 5, color: "COLOR_NEG" }).color, -1);
});

test("bytes: standard or URL-safe base64, canonical padding or none", () => {
  assert.deepEqual(base64Decode("3q2+7w=="), new Uint8Array([0xde, 0xad, 0xbe, 0xef]));
  assert.deepEqual(base64Decode("3q2-7w"), new Uint8Array([0xde, 0xad, 0xbe, 0xef]));
  assert.deepEqual(base64Decode(""), new Uint8Array(0));
  for (const bad of ["3q2+7w=", "3q2-7w==x", "3q2+7x==", "a", "a===", "3q2+_w==", "AA=A"]) {
    assert.equal(base64Decode(bad), undefined, bad);
  }
  assert.equal(jsonRefusal(() => All.fromJson('{"by": "a"}')), "$.by: bytes must be standard or URL-safe base64");
});

test("the well-known types' JSON forms", () => {
  const printed = roundTrip(
    Wkt,
    `{"ts": "1969-12-31T23:59:59.000001+00:00", "dur": "-0.5s", "mask": "user.displayName,b",
      "big": "-3", "st": {"z": [1, "a", null, {"t": true}], "a": 1.5}, "val": null,
      "any": {"@type": "type.example/google.protobuf.Duration", "value": "2s"},
      "vals": [{"k": []}, 0]}`,
  );
  assert.equal(
    printed,
    '{"ts":"1969-12-31T23:59:59.000001Z","dur":"-0.500s","mask":"user.displayName,b","big":"-3",' +
      '"st":{"a":1.5,"z":[1.0,"a",null,{"t":true}]},"val":null,' +
      '"any":{"@type":"type.example/google.protobuf.Duration","value":"2s"},"vals":[{"k":[]},0.0]}',
  );
  // An Any holding an ordinary message carries its fields beside "@type".
  assert.equal(
    roundTrip(Wkt, '{"any": {"@type": "x/conformance.Person", "name": "Ada", "age": 36}}'),
    '{"any":{"@type":"x/conformance.Person","name":"Ada","age":36}}',
  );
  assert.equal(roundTrip(Wkt, '{"ts": "0001-01-01T00:00:00Z", "any": {}}'), '{"ts":"0001-01-01T00:00:00Z","any":{}}');
  for (const [json, why] of [
    ['{"ts": "2023-02-29T00:00:00Z"}', "$.ts: not an RFC 3339 timestamp between years 1 and 9999"],
    ['{"ts": "2023-11-14T22:13:20.1234567890Z"}', "$.ts: not an RFC 3339 timestamp between years 1 and 9999"],
    ['{"ts": 5}', "$.ts: expected an RFC 3339 timestamp string, found a number"],
    ['{"dur": "1.5"}', '$.dur: not a duration such as "1.5s" within ±10000 years'],
    ['{"dur": "315576000001s"}', '$.dur: not a duration such as "1.5s" within ±10000 years'],
    ['{"any": {"name": "x"}}', '$.any: an Any with fields needs "@type"'],
    ['{"any": {"@type": "nohost"}}', '$.any: type URL "nohost" is not of the form "<host>/<message full name>"'],
    ['{"any": {"@type": "x/no.Such"}}', '$.any: type URL "x/no.Such" names no message of the schema'],
    ['{"any": {"@type": "x/google.protobuf.Duration", "seconds": 1}}',
      '$.any: an Any holding google.protobuf.Duration has exactly one other key, "value"'],
    ['{"st": []}', "$.st: expected an object, found an array"],
  ] as const) {
    assert.equal(jsonRefusal(() => Wkt.fromJson(json)), why, json);
  }
});

test("values proto3 JSON cannot spell are refused on output", () => {
  const cases: [object, string][] = [
    [{ ts: { seconds: 253402300800n, nanos: 0 } }, "$.ts: Timestamp 253402300800s 0ns is outside 0001-01-01 to 9999-12-31"],
    [{ dur: { seconds: 1n, nanos: -1 } }, "$.dur: Duration 1s -1ns is out of range or mixes signs"],
    [{ mask: { paths: ["fooBar"] } }, '$.mask[0]: FieldMask path "fooBar" has no proto3 JSON spelling that reads back as it'],
    [{ mask: { paths: ["a_1"] } }, '$.mask[0]: FieldMask path "a_1" has no proto3 JSON spelling that reads back as it'],
    [{ val: {} }, "$.val: a google.protobuf.Value with no kind set"],
    [
      { vals: [{ kind: { case: "boolValue", value: true } }], st: { fields: new Map([["ok", { kind: { case: "stringValue", value: "" } }], ["b c", {}]]) } },
      '$.st["b c"]: a google.protobuf.Value with no kind set',
    ],
    [{ val: { kind: { case: "numberValue", value: NaN } } }, "$.val: a Value number must be finite (JSON has no NaN or Infinity)"],
    [{ val: { kind: { case: "nullValue", value: 3 } } }, "$.val: Value.null_value 3 has no JSON form (only NULL_VALUE, 0, is null)"],
    [{ any: { typeUrl: "x/google.protobuf.Duration", value: new Uint8Array([0x07]) } }, "$.any: the Any value does not decode"],
  ];
  for (const [v, why] of cases) {
    const got = jsonRefusal(() => Wkt.toJson(Wkt.create(v)));
    assert.ok(got.startsWith(why), `${got} does not start with ${why}`);
  }
  // Nesting deeper than the default depth limit has no JSON form either.
  let n: object = Order.create();
  for (let i = 0; i < 100; i++) n = Wkt.create({ any: { typeUrl: "x/j.Wkt", value: Wkt.encode(n as never) } });
  assert.match(jsonRefusal(() => Wkt.toJson(n)), /nest deeper than 100/);
});

test("the encoder's refusals stay the encoder's: JSON reads, encoding refuses", () => {
  // Reading.sensor is required: the JSON reads, the encoder refuses.
  const r = Reading.fromJson('{"value": 1.5}');
  assert.throws(() => Reading.encode(r), (e: unknown) => e instanceof EncodeError && e.code === "missing-required-field");
  assert.equal(Reading.toJson(Reading.fromJson('{"sensor": "7", "other": "x"}')), '{"sensor":"7","other":"x"}');
  assert.deepEqual(toJsonValue(Order, Order.fromJson('{"id": 1, "tags": {"b": 2, "a": "-1"}}')), {
    id: "1",
    tags: { a: "-1", b: "2" },
  });
  assert.equal(Order.toJson(Order.fromJson('{"id": "5", "lines": [{"sku": "a"}]}'), { indent: 2 }),
    '{\n  "id": "5",\n  "lines": [\n    {\n      "sku": "a"\n    }\n  ]\n}');
});

test("JSON nested past the reader's limit is refused by name, far past it without exhausting the stack", () => {
  // 400 nested arrays read (the limit is 1000: twice the largest depth limit); the
  // value is then a list of lists, so the field's type refuses it, not the nesting.
  const within = `{"id": ${"[".repeat(400)}${"]".repeat(400)}}`;
  assert.doesNotMatch(jsonRefusal(() => Order.fromJson(within)), /nest deeper/);
  for (const n of [1001, 1_000_000]) {
    const deep = `{"id": ${"[".repeat(n)}${"]".repeat(n)}}`;
    assert.match(jsonRefusal(() => Order.fromJson(deep)), /arrays and objects nest deeper than 1000/);
  }
});

test("the JSON reader refuses messages past the depth limit where and as the Rust reader does", () => {
  const deeper = (n: number) => `messages nest deeper than ${n} (counting those inside Any payloads)`;
  /** `levels` Node messages nested through `child`. */
  const chain = (levels: number) => `${'{"child":'.repeat(levels - 1)}{}${"}".repeat(levels - 1)}`;
  assert.equal(jsonRefusal(() => Node.fromJson(chain(100))), "ok");
  assert.equal(jsonRefusal(() => Node.fromJson(chain(101))), `$${".child".repeat(100)}: ${deeper(100)}`);
  // The limit is configurable: 0 is 1, above 500 is 500 (SPEC §9.3).
  assert.equal(jsonRefusal(() => Node.fromJson(chain(150), { maxDepth: 150 })), "ok");
  assert.equal(jsonRefusal(() => Node.fromJson(chain(151), { maxDepth: 150 })), `$${".child".repeat(150)}: ${deeper(150)}`);
  assert.equal(jsonRefusal(() => Node.fromJson("{}", { maxDepth: 0 })), "ok");
  assert.equal(jsonRefusal(() => Node.fromJson(chain(2), { maxDepth: 0 })), `$.child: ${deeper(1)}`);
  assert.equal(jsonRefusal(() => Node.fromJson(chain(500), { maxDepth: 1000 })), "ok");
  assert.equal(jsonRefusal(() => Node.fromJson(chain(501), { maxDepth: 1000 })), `$${".child".repeat(500)}: ${deeper(500)}`);
  // Struct and Value count a level each: Wkt 1, Struct 2, then Value and Struct in turn,
  // so the 50th member's Value is at 101.
  const st = (n: number, inner: string) => `{"st":${'{"a":'.repeat(n)}${inner}${"}".repeat(n)}}`;
  assert.equal(jsonRefusal(() => Wkt.fromJson(st(49, "{}"))), "ok");
  assert.equal(jsonRefusal(() => Wkt.fromJson(st(50, "1"))), `$.st${".a".repeat(50)}: ${deeper(100)}`);
  // Any's payload is a message one level below it: Wkt 1, Any 2, Wkt 3, …
  const any = (n: number) => `{${'"any":{"@type":"x/j.Wkt",'.repeat(n)}"big":"1"${"}".repeat(n)}}`;
  assert.equal(jsonRefusal(() => Wkt.fromJson(any(49))), "ok");
  assert.equal(jsonRefusal(() => Wkt.fromJson(any(50))), `$${".any".repeat(50)}: ${deeper(100)}`);
  // … and a well-known payload under "value" sits at the member's path.
  const val = '{"any":{"@type":"type.googleapis.com/google.protobuf.Value","value":1}}';
  assert.equal(jsonRefusal(() => Wkt.fromJson(val, { maxDepth: 3 })), "ok");
  assert.equal(jsonRefusal(() => Wkt.fromJson(val, { maxDepth: 2 })), `$.any.value: ${deeper(2)}`);
});
