/**
 * The proto3 JSON mapping, generic over the message descriptions generated code hands the
 * runtime; the same forms the Rust implementation (`bijoubuf-reflect`'s `json` module)
 * reads and writes.
 *
 * Output: fields by JSON name in field-number order, 64-bit integers as strings, bytes as
 * standard base64, enums by value name (a number for a value the schema does not name),
 * `"NaN"`, `"Infinity"`, `"-Infinity"` for non-finite floats, and the special forms of the
 * well-known types: Timestamp (RFC 3339), Duration (`"1.5s"`), wrappers (the bare value),
 * Struct / Value / ListValue (plain JSON), FieldMask (comma-joined lowerCamelCase paths)
 * and Any (`"@type"` plus the message's fields, or plus `"value"` for a well-known type).
 *
 * Input accepts both the JSON name and the schema name of a field, 64-bit integers as
 * strings or numbers, standard or URL-safe base64 with or without padding, enum names or
 * numbers, and `null` for "absent". It refuses unknown field names, values out of range
 * for their type, a key twice in one object (`JSON.parse` would silently keep the last)
 * and two members of one oneof; a {@link JsonError} names the JSON path.
 *
 * A `float` is written as protobuf's JSON writes it (`1.0`, `0.0001`, `1e+20`,
 * `3.4028235e+38`, `1.5e-07`), a `double` as the Rust implementation writes it. Where this
 * JSON refuses or reads differently from protobuf's (enums open in proto2, a `Value` with
 * no kind refused on output, subnormal floats' digits) and why: the `json` module of
 * `bijoubuf-reflect`, "Next to protobuf's JSON".
 */

import { base64Decode, base64Encode } from "./base64.js";
import { EncodeError } from "./errors.js";
import { JNum, JObj, JsonError, JsonPath, fromPlain, kindOf, parse, write, type J } from "./jsontext.js";
import { durationText, maskPathJson, parseDuration, parseTimestamp, snake, timestampText } from "./jsontime.js";
import { DEFAULT_MAX_DEPTH, clampDepth } from "./message.js";
import { Card, Kind, Presence, defaultOf, isBigKind, ownValue, type Field, type MessageTypeLike } from "./schema.js";
import { compareCodePoints } from "./utf8.js";

export { JsonError } from "./jsontext.js";

/** What the JSON mapping needs of a message type ({@link MessageType} has it all). */
export interface JsonType extends MessageTypeLike {
  /** Fields ascending by number. */
  readonly fieldList: readonly Field[];
  /** A new value with every field absent or default. */
  create(): object;
  /** The canonical encoding (used for Any payloads). */
  encode(value: never, options?: { maxDepth?: number }): Uint8Array;
  /** The strict decoder (used for Any payloads). */
  decode(bytes: Uint8Array, options?: { maxDepth?: number }): object;
}

const registry = new Map<string, JsonType>();

/**
 * Make `type` known to the JSON mapping's `google.protobuf.Any` handling, which resolves
 * type URLs by full name. Every {@link MessageType} registers itself when created.
 */
export function registerType(type: JsonType): void {
  registry.set(type.typeName, type);
}

/** How deep messages may nest in JSON output, counting those inside Any payloads (SPEC §9.3). */
const MAX_DEPTH = 100;

// ----- per-type lookup tables -----

interface Names {
  byName: Map<string, Field>;
}
const names = new WeakMap<JsonType, Names>();

/** Why `key` names no field of `t`, with the close JSON name a typo probably meant (as in Rust). */
function unknownField(t: JsonType, key: string): string {
  const close = similar(key, t.fieldList.map((f) => f.json));
  const hint = close === undefined ? "" : ` (did you mean ${JSON.stringify(close)}?)`;
  return `${t.typeName} has no field named ${JSON.stringify(key)}${hint}`;
}

/** The candidate within two edits of `word`, if exactly one (the schema compiler's rule). */
function similar(word: string, candidates: string[]): string | undefined {
  if (word.length > 32) return undefined;
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 0; i < a.length; i++) {
      let prev = row[0]!;
      row[0] = i + 1;
      for (let j = 0; j < b.length; j++) {
        const cur = row[j + 1]!;
        row[j + 1] = Math.min(prev + (a[i] === b[j] ? 0 : 1), row[j]! + 1, cur + 1);
        prev = cur;
      }
    }
    return row[b.length]!;
  };
  const close = candidates.filter((c) => distance(word, c) <= 2);
  return close.length === 1 ? close[0] : undefined;
}

function namesOf(t: JsonType): Names {
  let n = names.get(t);
  if (n === undefined) {
    const byName = new Map<string, Field>();
    // The JSON name first, then the schema name (a schema name equal to another
    // field's JSON name means that field). Two fields of one JSON name (proto2 allows it)
    // read as the lower-numbered, as in Rust (`field_by_json_name`).
    for (const f of t.fieldList) if (!byName.has(f.json)) byName.set(f.json, f);
    for (const f of t.fieldList) if (!byName.has(f.name)) byName.set(f.name, f);
    n = { byName };
    names.set(t, n);
  }
  return n;
}

const enumNames = new WeakMap<object, Map<number, string>>();

function enumName(values: Readonly<Record<string, number>>, n: number): string | undefined {
  let m = enumNames.get(values);
  if (m === undefined) {
    m = new Map();
    for (const [k, v] of Object.entries(values)) if (!m.has(v)) m.set(v, k);
    enumNames.set(values, m);
  }
  return m.get(n);
}

function fieldNo(t: JsonType, no: number): Field {
  const f = t.fieldList.find((x) => x.no === no);
  if (f === undefined) throw new JsonError("", `${t.typeName} has no field ${no}`);
  return f;
}

function setField(v: Record<string, unknown>, f: Field, x: unknown): void {
  if (f.oneof !== undefined) v[f.oneof] = { case: f.prop, value: x };
  else v[f.prop] = x;
}

function getField(v: Record<string, unknown>, f: Field): unknown {
  if (f.oneof !== undefined) {
    const o = (f.inherited ? ownValue(v, f.oneof) : v[f.oneof]) as { case: string; value: unknown } | undefined | null;
    return o !== undefined && o !== null && o.case === f.prop ? o.value : undefined;
  }
  const x = f.inherited ? ownValue(v, f.prop) : v[f.prop];
  return x === null ? undefined : x;
}

function asJsonType(m: MessageTypeLike | undefined, path: JsonPath): JsonType {
  if (m === undefined || !("fieldList" in m)) throw new JsonError(path, "a message field without its type");
  return m as JsonType;
}

// ----- JSON → message -----

/**
 * Parse proto3 JSON text (or a value `JSON.parse` returned: duplicates are then already
 * merged) as a message of `type`.
 *
 * @throws {JsonError} syntax errors, duplicate keys, unknown field names, values of the
 *   wrong type or out of range, two members of one oneof, messages nested deeper than the
 *   depth limit (`options.maxDepth`, 100 by default, counting those inside `Any`); the
 *   error names the JSON path.
 */
export function fromJson<T>(type: JsonType, json: string | unknown, options?: JsonReadOptions): T {
  const j = typeof json === "string" ? parse(json) : fromPlain(json, new JsonPath(), 0);
  const d = { at: 1, max: clampDepth(options?.maxDepth ?? DEFAULT_MAX_DEPTH) };
  return readMessage(type, j, new JsonPath(), d) as T;
}

/** Input options. */
export interface JsonReadOptions {
  /**
   * How deep messages may nest (default 100; the top level is 1), counting the messages
   * inside `google.protobuf.Any` payloads: 0 is taken as 1, and above 500 as 500 (SPEC §9.3).
   */
  maxDepth?: number;
}

/** The nesting depth of the message being read, and the limit. */
interface Depth {
  readonly at: number;
  readonly max: number;
}

function next(d: Depth): Depth {
  return { at: d.at + 1, max: d.max };
}

function checkDepth(d: Depth, path: JsonPath): void {
  if (d.at > d.max) throw tooDeep(path, d.max);
}

function readMessage(t: JsonType, j: J, path: JsonPath, d: Depth): Record<string, unknown> {
  checkDepth(d, path);
  const special = wktFrom(t, j, path, d);
  if (special !== undefined) return special;
  if (!(j instanceof JObj)) {
    throw new JsonError(path, `expected an object for ${t.typeName}, found ${kindOf(j)}`);
  }
  return readFields(t, j.members, path, d);
}

function nullIsValue(f: Field): boolean {
  if (f.kind === Kind.Message) return f.msg?.typeName === "google.protobuf.Value";
  return f.kind === Kind.Enum && f.enumType?.typeName === "google.protobuf.NullValue";
}

function readFields(t: JsonType, members: readonly [string, J][], path: JsonPath, d: Depth): Record<string, unknown> {
  const v = t.create() as Record<string, unknown>;
  const byName = namesOf(t).byName;
  const seen = new Map<number, string>();
  const oneofs = new Map<string, string>();
  for (const [key, j] of members) {
    const here = path.push(key);
    const f = byName.get(key);
    if (f === undefined) throw new JsonError(here, unknownField(t, key));
    const other = seen.get(f.no);
    if (other !== undefined) {
      throw new JsonError(here, `field ${f.name} is also given as ${JSON.stringify(other)}`);
    }
    seen.set(f.no, key);
    if (j !== null || nullIsValue(f)) readField(v, f, j, here, oneofs, key, d);
    path.pop();
  }
  return v;
}

/** Field `f` of `v` from `j` (not a null meaning absent), at `here`. */
function readField(
  v: Record<string, unknown>,
  f: Field,
  j: J,
  here: JsonPath,
  oneofs: Map<string, string>,
  key: string,
  d: Depth,
): void {
  if (f.oneof !== undefined) {
    const o = oneofs.get(f.oneof);
    if (o !== undefined) {
      throw new JsonError(here, `oneof ${f.oneof} already has a member set (${JSON.stringify(o)})`);
    }
    oneofs.set(f.oneof, key);
  }
  if (f.card === Card.Single) {
    setField(v, f, element(f, f.kind, j, here, d));
  } else if (f.card === Card.Repeated) {
    if (!Array.isArray(j)) throw new JsonError(here, `expected an array, found ${kindOf(j)}`);
    const out = new Array<unknown>(j.length);
    for (let i = 0; i < j.length; i++) {
      out[i] = element(f, f.kind, j[i]!, here.push(i), d);
      here.pop();
    }
    v[f.prop] = out;
  } else {
    if (!(j instanceof JObj)) throw new JsonError(here, `expected an object for a map, found ${kindOf(j)}`);
    const entries: [unknown, unknown][] = [];
    const keys = new Set<unknown>();
    for (const [k, item] of j.members) {
      const p = here.push(k);
      const mk = mapKey(f.keyKind, k, p);
      // "1" and "01" name the same integer key.
      if (keys.has(mk)) throw new JsonError(p, "the same map key twice");
      keys.add(mk);
      entries.push([mk, element(f, f.kind, item, p, d)]);
      here.pop();
    }
    entries.sort(keyCompare(f.keyKind));
    v[f.prop] = new Map(entries);
  }
}

function mapKey(kind: Kind, k: string, path: JsonPath): unknown {
  if (kind === Kind.Bool) {
    if (k === "true") return true;
    if (k === "false") return false;
    throw new JsonError(path, 'a bool map key must be "true" or "false"');
  }
  if (kind === Kind.String) return k;
  return scalar(kind, k, path);
}

/** One element of type `kind`, in a message at `d`. */
function element(f: Field, kind: Kind, j: J, path: JsonPath, d: Depth): unknown {
  if (kind === Kind.Message) return readMessage(asJsonType(f.msg, path), j, path, next(d));
  if (kind !== Kind.Enum) return scalar(kind, j, path);
  const e = f.enumType;
  if (j === null && e?.typeName === "google.protobuf.NullValue") return 0;
  if (typeof j === "string") {
    if (e !== undefined && Object.prototype.hasOwnProperty.call(e.values, j)) return e.values[j];
    throw new JsonError(path, `${JSON.stringify(j)} is not a value of ${e?.typeName ?? "the enum"}`);
  }
  if (j instanceof JNum) {
    const n = integer(j, path);
    if (n < -0x80000000n || n > 0x7fffffffn) {
      throw new JsonError(path, `enum number ${n} is outside the int32 range`);
    }
    return Number(n);
  }
  throw new JsonError(path, `expected an enum name or number, found ${kindOf(j)}`);
}

const RANGES: Partial<Record<Kind, [bigint, bigint, string]>> = {
  [Kind.Int32]: [-(1n << 31n), (1n << 31n) - 1n, "int32"],
  [Kind.Sint32]: [-(1n << 31n), (1n << 31n) - 1n, "sint32"],
  [Kind.Sfixed32]: [-(1n << 31n), (1n << 31n) - 1n, "sfixed32"],
  [Kind.Int64]: [-(1n << 63n), (1n << 63n) - 1n, "int64"],
  [Kind.Sint64]: [-(1n << 63n), (1n << 63n) - 1n, "sint64"],
  [Kind.Sfixed64]: [-(1n << 63n), (1n << 63n) - 1n, "sfixed64"],
  [Kind.Uint32]: [0n, (1n << 32n) - 1n, "uint32"],
  [Kind.Fixed32]: [0n, (1n << 32n) - 1n, "fixed32"],
  [Kind.Uint64]: [0n, (1n << 64n) - 1n, "uint64"],
  [Kind.Fixed64]: [0n, (1n << 64n) - 1n, "fixed64"],
};

function expected(path: JsonPath, what: string, j: J): JsonError {
  return new JsonError(path, `expected ${what}, found ${kindOf(j)}`);
}

/** One scalar of `kind` with its range checks. */
function scalar(kind: Kind, j: J, path: JsonPath): unknown {
  switch (kind) {
    case Kind.Bool:
      if (typeof j !== "boolean") throw expected(path, "true or false", j);
      return j;
    case Kind.String:
      if (typeof j !== "string") throw expected(path, "a string", j);
      return j;
    case Kind.Bytes: {
      if (typeof j !== "string") throw expected(path, "a base64 string", j);
      const b = base64Decode(j);
      if (b === undefined) throw new JsonError(path, "bytes must be standard or URL-safe base64");
      return b;
    }
    case Kind.Double:
      return float(j, path);
    case Kind.Float: {
      const x = float(j, path);
      const f = Math.fround(x);
      // In range means "rounds to a finite float" (3.4028235e38 reads back as the maximum).
      if (Number.isFinite(x) && !Number.isFinite(f)) {
        throw new JsonError(path, `${x} is out of range for float`);
      }
      return f;
    }
    default: {
      const r = RANGES[kind];
      if (r === undefined) throw new JsonError(path, "not a scalar type");
      const n = integer(j, path);
      if (n < r[0] || n > r[1]) throw new JsonError(path, `${n} is out of range for ${r[2]}`);
      return isBigKind(kind) ? n : Number(n);
    }
  }
}

const INT_TEXT = /^[+-]?[0-9]+$/;
/** Rust's `f64::from_str` grammar for finite numbers. */
const FLOAT_TEXT = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

function floatToInt(f: number): bigint | undefined {
  // Beyond 1e30 the value is out of every integer range anyway.
  return Number.isFinite(f) && Number.isInteger(f) && Math.abs(f) < 1e30 ? BigInt(f) : undefined;
}

/** An integer given as a JSON number or a decimal string (exact; a float must have no fraction). */
function integer(j: J, path: JsonPath): bigint {
  let t: string;
  if (j instanceof JNum) t = j.text;
  else if (typeof j === "string") t = j;
  else throw expected(path, "an integer", j);
  let n: bigint | undefined;
  if (INT_TEXT.test(t) && t.length <= 40) n = BigInt(t);
  // "1e3" and "5.0" are integers too; "inf" and "nan" are not.
  else if (FLOAT_TEXT.test(t)) n = floatToInt(Number(t));
  if (n === undefined) throw new JsonError(path, "expected an integer");
  return n;
}

/** A float given as a JSON number, a numeric string, or "NaN" / "Infinity" / "-Infinity". */
function float(j: J, path: JsonPath): number {
  if (j instanceof JNum) return j.value;
  if (typeof j !== "string") throw expected(path, "a number", j);
  if (j === "NaN") return NaN;
  if (j === "Infinity") return Infinity;
  if (j === "-Infinity") return -Infinity;
  const x = FLOAT_TEXT.test(j) ? Number(j) : NaN;
  if (!Number.isFinite(x)) throw new JsonError(path, `${JSON.stringify(j)} is not a number`);
  return x;
}


// ----- the well-known types -----

const WRAPPERS = new Set([
  "google.protobuf.DoubleValue",
  "google.protobuf.FloatValue",
  "google.protobuf.Int64Value",
  "google.protobuf.UInt64Value",
  "google.protobuf.Int32Value",
  "google.protobuf.UInt32Value",
  "google.protobuf.BoolValue",
  "google.protobuf.StringValue",
  "google.protobuf.BytesValue",
]);

/** Whether a message type has a special JSON form (inside an Any it goes under `"value"`). */
function isSpecial(name: string): boolean {
  return (
    WRAPPERS.has(name) ||
    name === "google.protobuf.Timestamp" ||
    name === "google.protobuf.Duration" ||
    name === "google.protobuf.FieldMask" ||
    name === "google.protobuf.Struct" ||
    name === "google.protobuf.Value" ||
    name === "google.protobuf.ListValue" ||
    name === "google.protobuf.Any"
  );
}

function text(j: J, what: string, path: JsonPath): string {
  if (typeof j !== "string") throw new JsonError(path, `expected ${what} string, found ${kindOf(j)}`);
  return j;
}

function wktFrom(t: JsonType, j: J, path: JsonPath, d: Depth): Record<string, unknown> | undefined {
  const name = t.typeName;
  if (!name.startsWith("google.protobuf.")) return undefined;
  if (WRAPPERS.has(name)) {
    const m = t.create() as Record<string, unknown>;
    const f = fieldNo(t, 1);
    setField(m, f, scalar(f.kind, j, path));
    return m;
  }
  switch (name) {
    case "google.protobuf.Timestamp": {
      const r = parseTimestamp(text(j, "an RFC 3339 timestamp", path));
      if (r === undefined) throw new JsonError(path, "not an RFC 3339 timestamp between years 1 and 9999");
      return secondsNanos(t, r);
    }
    case "google.protobuf.Duration": {
      const r = parseDuration(text(j, 'a duration ("1.5s")', path));
      if (r === undefined) throw new JsonError(path, 'not a duration such as "1.5s" within ±10000 years');
      return secondsNanos(t, r);
    }
    case "google.protobuf.FieldMask": {
      const s = text(j, "a field mask", path);
      const m = t.create() as Record<string, unknown>;
      setField(m, fieldNo(t, 1), s === "" ? [] : s.split(",").map(snake));
      return m;
    }
    case "google.protobuf.Struct": {
      if (!(j instanceof JObj)) throw new JsonError(path, `expected an object, found ${kindOf(j)}`);
      const f = fieldNo(t, 1);
      const vt = asJsonType(f.msg, path);
      const entries = j.members.map(([k, x]): [string, unknown] => {
        const r = valueFrom(vt, x, path.push(k), next(d));
        path.pop();
        return [k, r];
      });
      entries.sort((a, b) => compareCodePoints(a[0], b[0]));
      const m = t.create() as Record<string, unknown>;
      setField(m, f, new Map(entries));
      return m;
    }
    case "google.protobuf.ListValue": {
      if (!Array.isArray(j)) throw new JsonError(path, `expected an array, found ${kindOf(j)}`);
      const f = fieldNo(t, 1);
      const vt = asJsonType(f.msg, path);
      const m = t.create() as Record<string, unknown>;
      setField(
        m,
        f,
        j.map((x, i) => {
          const r = valueFrom(vt, x, path.push(i), next(d));
          path.pop();
          return r;
        }),
      );
      return m;
    }
    case "google.protobuf.Value":
      return valueFrom(t, j, path, d);
    case "google.protobuf.Any":
      return anyFrom(t, j, path, d);
    default:
      return undefined;
  }
}

function secondsNanos(t: JsonType, [s, n]: [bigint, number]): Record<string, unknown> {
  const m = t.create() as Record<string, unknown>;
  setField(m, fieldNo(t, 1), s);
  setField(m, fieldNo(t, 2), n);
  return m;
}

/** google.protobuf.Value at `d`. */
function valueFrom(t: JsonType, j: J, path: JsonPath, d: Depth): Record<string, unknown> {
  checkDepth(d, path);
  const m = t.create() as Record<string, unknown>;
  if (j === null) setField(m, fieldNo(t, 1), 0);
  else if (typeof j === "boolean") setField(m, fieldNo(t, 4), j);
  else if (typeof j === "string") setField(m, fieldNo(t, 3), j);
  else if (j instanceof JNum) setField(m, fieldNo(t, 2), j.value);
  else {
    const f = fieldNo(t, Array.isArray(j) ? 6 : 5);
    setField(m, f, readMessage(asJsonType(f.msg, path), j, path, next(d)));
  }
  return m;
}

function resolve(url: string, path: JsonPath): JsonType {
  const name = url.slice(url.lastIndexOf("/") + 1);
  if (!url.includes("/") || name === "") {
    const why = 'is not of the form "<host>/<message full name>"';
    throw new JsonError(path, `type URL ${JSON.stringify(url)} ${why}`);
  }
  const t = registry.get(name);
  if (t === undefined) {
    throw new JsonError(path, `type URL ${JSON.stringify(url)} names no message of the schema`);
  }
  return t;
}

/** An Any at `d`: its payload is a message one level deeper, as when writing. */
function anyFrom(t: JsonType, j: J, path: JsonPath, d: Depth): Record<string, unknown> {
  if (!(j instanceof JObj)) throw new JsonError(path, `expected an object, found ${kindOf(j)}`);
  const m = t.create() as Record<string, unknown>;
  const ty = j.members.find(([k]) => k === "@type");
  if (ty === undefined) {
    if (j.members.length === 0) return m;
    throw new JsonError(path, 'an Any with fields needs "@type"');
  }
  const url = ty[1];
  if (typeof url !== "string") throw new JsonError(path.push("@type"), "expected a type URL string");
  const inner = resolve(url, path);
  const rest = j.members.filter(([k]) => k !== "@type");
  let value: Record<string, unknown>;
  if (isSpecial(inner.typeName)) {
    if (rest.length !== 1 || rest[0]![0] !== "value") {
      throw new JsonError(path, `an Any holding ${inner.typeName} has exactly one other key, "value"`);
    }
    value = readMessage(inner, rest[0]![1], path.push("value"), next(d));
    path.pop();
  } else {
    checkDepth(next(d), path);
    value = readFields(inner, rest, path, next(d));
  }
  let bytes: Uint8Array;
  try {
    // The payload sits one level below this Any: it may use the depth left.
    bytes = inner.encode(value as never, { maxDepth: Math.max(1, d.max - d.at) });
  } catch (e) {
    if (e instanceof EncodeError) throw new JsonError(path, e.message);
    throw e;
  }
  setField(m, fieldNo(t, 1), url);
  setField(m, fieldNo(t, 2), bytes);
  return m;
}

// ----- Timestamp and Duration text -----
// ----- message → JSON -----

/** Output options. */
export interface JsonWriteOptions {
  /** Indent by this many spaces per level (default: compact). */
  indent?: number;
}

/**
 * `value` (a message of `type`) as proto3 JSON text. Whatever this writes reads back
 * with {@link fromJson} as a value with the same encoding.
 *
 * @throws {JsonError} a value with no JSON form: a Timestamp or Duration out of range, a
 *   `Value` with no kind set, a `NullValue` other than 0, a FieldMask path lowerCamelCase
 *   cannot spell and read back, an `Any` whose type URL names no known message or whose
 *   bytes do not decode, messages nested deeper than 100 (counting those inside `Any`).
 */
export function toJson(type: JsonType, value: object, options?: JsonWriteOptions): string {
  const j = writeMessage(type, value as Record<string, unknown>, new JsonPath(), 1);
  return write(j, options?.indent ?? 0, 0);
}

/** `value` as a plain JavaScript JSON value (numbers as JS numbers), as `JSON.parse(toJson(…))`. */
export function toJsonValue(type: JsonType, value: object): unknown {
  return JSON.parse(toJson(type, value));
}

function tooDeep(path: JsonPath, max = MAX_DEPTH): JsonError {
  return new JsonError(path, `messages nest deeper than ${max} (counting those inside Any payloads)`);
}

function isDefault(kind: Kind, x: unknown): boolean {
  switch (kind) {
    case Kind.Bool:
      return x === false;
    case Kind.String:
      return x === "";
    case Kind.Bytes:
      return x instanceof Uint8Array && x.length === 0;
    case Kind.Float:
    case Kind.Double:
      return Object.is(x, 0);
    case Kind.Message:
      return false;
    default:
      return x === 0 || x === 0n;
  }
}

function writeMessage(t: JsonType, v: Record<string, unknown>, path: JsonPath, depth: number): J {
  if (depth > MAX_DEPTH) throw tooDeep(path);
  const special = wktTo(t, v, path, depth);
  if (special !== undefined) return special;
  const members: [string, J][] = [];
  for (const f of t.fieldList) {
    const x = getField(v, f);
    if (x === undefined) continue;
    let j: J;
    if (f.card === Card.Repeated) {
      const list = x as unknown[];
      if (list.length === 0) continue;
      const here = path.push(f.json);
      j = list.map((item, i) => {
        const r = writeElement(f, item, here.push(i), depth);
        here.pop();
        return r;
      });
    } else if (f.card === Card.Map) {
      const map = x as Map<unknown, unknown>;
      if (map.size === 0) continue;
      const here = path.push(f.json);
      const entries = [...map].sort(keyCompare(f.keyKind));
      j = new JObj(
        entries.map(([k, item]) => {
          const key = String(k);
          const r = writeElement(f, item, here.push(key), depth);
          here.pop();
          return [key, r];
        }),
      );
    } else {
      if (f.oneof === undefined && f.presence === Presence.Implicit && isDefault(f.kind, x)) continue;
      j = writeElement(f, x, path.push(f.json), depth);
    }
    path.pop();
    members.push([f.json, j]);
  }
  return new JObj(members);
}

type Entry = [unknown, unknown];
function keyCompare(kind: Kind): (a: Entry, b: Entry) => number {
  if (kind === Kind.String) return (a, b) => compareCodePoints(a[0] as string, b[0] as string);
  return (a, b) => {
    const x = a[0] as number;
    const y = b[0] as number;
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

function writeElement(f: Field, x: unknown, path: JsonPath, depth: number): J {
  return writeValue(f.kind, f, x, path, depth);
}

function writeValue(kind: Kind, f: Field | undefined, x: unknown, path: JsonPath, depth: number): J {
  switch (kind) {
    case Kind.Bool:
      return x as boolean;
    case Kind.String:
      return x as string;
    case Kind.Bytes:
      return base64Encode(x as Uint8Array);
    case Kind.Double:
      return floatJ(x as number, false);
    case Kind.Float:
      return floatJ(x as number, true);
    case Kind.Message:
      return writeMessage(asJsonType(f?.msg, path), x as Record<string, unknown>, path, depth + 1);
    case Kind.Enum: {
      const n = x as number;
      const e = f?.enumType;
      if (e?.typeName === "google.protobuf.NullValue") {
        if (n !== 0) {
          throw new JsonError(path, `NullValue ${n} has no JSON form (only NULL_VALUE, 0, is null)`);
        }
        return null;
      }
      const name = e === undefined ? undefined : enumName(e.values, n);
      return name ?? new JNum(String(n), n);
    }
    default:
      // 64-bit integers are strings: JSON numbers are doubles in many readers.
      if (isBigKind(kind)) return String(x);
      return new JNum(String(x), x as number);
  }
}

function floatJ(x: number, single: boolean): J {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  return new JNum(single ? f32Text(x) : f64Text(x), x);
}

/** The shortest digits and decimal exponent of `x` (> 0): x = 0.d1d2… × 10^(k). */
function digitsOf(s: string): [string, number] {
  // `s` is an exponential form "d.ddde±n".
  const [mant, exp] = s.split("e") as [string, string];
  const digits = mant.replace(".", "");
  return [digits, Number(exp) + 1];
}

/**
 * A double as Rust's serde_json writes it: the shortest digits that read back, positional
 * for decimal exponents −5 to 15 (`1.0`, `0.00001`, `123456789012345680.0` is not: it is
 * `1.2345678901234568e+17`), otherwise `1e+21`, `1.5e-7`.
 */
function f64Text(x: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [d, kk] = digitsOf(Math.abs(x).toExponential());
  const e = kk - 1;
  const len = d.length;
  let out: string;
  if (e >= -5 && e <= 15) {
    if (len - 1 <= e) out = d + "0".repeat(e + 1 - len) + ".0";
    else if (e >= 0) out = d.slice(0, e + 1) + "." + d.slice(e + 1);
    else out = "0." + "0".repeat(-e - 1) + d;
  } else {
    out = (len === 1 ? d : `${d[0]}.${d.slice(1)}`) + "e" + (e >= 0 ? "+" : "-") + Math.abs(e);
  }
  return sign + out;
}

/**
 * A float (f32) as protobuf's JSON prints it (Python `json_format`, checked value by value),
 * the same text as the Rust and Go implementations: the value rounded to the fewest
 * significant digits that read back as the same f32, a tie rounded to the even digit
 * (`0.29101562` for 0.291015625; `toExponential` rounds a tie up), positional for decimal
 * exponents −4 to 15 with `.0` on an integral value (`1.0`, `0.0001`, `16777216.0`),
 * otherwise with a signed exponent of at least two digits (`1e+20`, `3.4028235e+38`,
 * `1.5e-07`, `1e-45`). Python starts from six digits, so for a subnormal it may print more
 * (`1.4013e-45`); both read back as the same f32.
 */
function f32Text(x: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const a = Math.abs(x);
  // toExponential rounds a tie up; the one length at which `a` can be a tie is where its
  // exact digits stop at a 5 (tieAt), and there the even spelling is taken when it is
  // the lower one. "Reads back"
  // is as JSON readers read a float, this one (`Math.fround(Number(…))`) and Python's:
  // through a double, which rounds twice, so a shortest spelling may read back as the
  // f32 next to `a` (`7.038531e-26`) and one more digit is needed.
  const tie = tieAt(a);
  let s = "";
  for (let p = 1; p <= 9; p++) {
    s = p === tie?.p ? tie.even : a.toExponential(p - 1);
    if (p === 9 || Math.fround(Number(s)) === a) break;
  }
  const [mant, exp] = s.split("e") as [string, string];
  const d = mant.replace(".", "").replace(/(?<=.)0+$/, "");
  const e = Number(exp);
  const len = d.length;
  let out: string;
  if (e >= -4 && e <= 15) {
    if (e < 0) out = "0." + "0".repeat(-e - 1) + d;
    else if (len <= e + 1) out = d + "0".repeat(e + 1 - len) + ".0";
    else out = d.slice(0, e + 1) + "." + d.slice(e + 1);
  } else {
    out = (len === 1 ? d : `${d[0]}.${d.slice(1)}`) + "e" + (e < 0 ? "-" : "+") + String(Math.abs(e)).padStart(2, "0");
  }
  return sign + out;
}

/**
 * Where `a` (> 0) lies exactly halfway between its two nearest spellings of `p` significant
 * digits (its exact digits stop at a 5 right after `p` of them, `p` < 9) and the lower of
 * the two is the even one: `p` and that spelling, in `toExponential`'s form; else
 * undefined (where the upper is even, `toExponential`'s own rounding is it).
 */
function tieAt(a: number): { p: number; even: string } | undefined {
  // Twenty digits hold every exact expansion short enough for a tie below nine digits.
  const w = a.toExponential(20);
  const [mant, exp] = w.split("e") as [string, string];
  const digits = mant.replace(".", "").replace(/0+$/, "");
  const p = digits.length - 1;
  if (p < 1 || p >= 9 || digits[p] !== "5" || (digits.charCodeAt(p - 1) - 48) % 2 !== 0) {
    return undefined;
  }
  const [m, k] = binary(a);
  if (compareDecimal(`${digits[0]}.${digits.slice(1)}e${exp}`, m, k) !== 0) return undefined;
  return { p, even: (p === 1 ? digits[0] : `${digits[0]}.${digits.slice(1, p)}`) + "e" + exp };
}

const BITS = new DataView(new ArrayBuffer(8));

/** A finite double `d` > 0 as `m`·2^`k`. */
function binary(d: number): [bigint, number] {
  BITS.setFloat64(0, d);
  const hi = BITS.getUint32(0);
  const m = (BigInt(hi & 0xfffff) << 32n) | BigInt(BITS.getUint32(4));
  const e = hi >>> 20;
  return e === 0 ? [m, -1074] : [m | (1n << 52n), e - 1075];
}

/** The sign of the decimal `sci` (in `toExponential`'s form) less `m`·2^`k`, exactly. */
function compareDecimal(sci: string, m: bigint, k: number): number {
  const [mant, exp] = sci.split("e") as [string, string];
  const digits = mant.replace(".", "");
  const q = Number(exp) - (digits.length - 1);
  let l = BigInt(digits);
  let r = m;
  if (q >= 0) l *= 10n ** BigInt(q);
  else r *= 10n ** BigInt(-q);
  if (k >= 0) r <<= BigInt(k);
  else l <<= BigInt(-k);
  return l < r ? -1 : l > r ? 1 : 0;
}

function seconds(t: JsonType, v: Record<string, unknown>): bigint {
  return BigInt((num(t, v, 1) as bigint | undefined) ?? 0n);
}

function num(t: JsonType, v: Record<string, unknown>, no: number): unknown {
  return getField(v, fieldNo(t, no));
}

function wktTo(t: JsonType, v: Record<string, unknown>, path: JsonPath, depth: number): J | undefined {
  const name = t.typeName;
  if (!name.startsWith("google.protobuf.")) return undefined;
  if (WRAPPERS.has(name)) {
    const f = fieldNo(t, 1);
    const x = getField(v, f);
    return writeValue(f.kind, f, x ?? defaultOf(f.kind), path, depth);
  }
  switch (name) {
    case "google.protobuf.Timestamp":
      return timestampText(seconds(t, v), Number(num(t, v, 2) ?? 0), path);
    case "google.protobuf.Duration":
      return durationText(seconds(t, v), Number(num(t, v, 2) ?? 0), path);
    case "google.protobuf.FieldMask": {
      const paths = (num(t, v, 1) as string[] | undefined) ?? [];
      return paths
        .map((p, i) => {
          const r = maskPathJson(p, path.push(i));
          path.pop();
          return r;
        })
        .join(",");
    }
    case "google.protobuf.Struct": {
      const f = fieldNo(t, 1);
      const vt = asJsonType(f.msg, path);
      const map = (getField(v, f) as Map<string, Record<string, unknown>> | undefined) ?? new Map();
      const entries = [...map].sort((a, b) => compareCodePoints(a[0], b[0]));
      return new JObj(
        entries.map(([k, x]) => {
          const r = valueJson(vt, x, path.push(k), depth + 1);
          path.pop();
          return [k, r];
        }),
      );
    }
    case "google.protobuf.ListValue": {
      const f = fieldNo(t, 1);
      const vt = asJsonType(f.msg, path);
      const items = (getField(v, f) as Record<string, unknown>[] | undefined) ?? [];
      return items.map((x, i) => {
        const r = valueJson(vt, x, path.push(i), depth + 1);
        path.pop();
        return r;
      });
    }
    case "google.protobuf.Value":
      return valueOf(t, v, path, depth);
    case "google.protobuf.Any":
      return anyTo(t, v, path, depth);
    default:
      return undefined;
  }
}

function valueJson(t: JsonType, v: Record<string, unknown>, path: JsonPath, depth: number): J {
  if (depth > MAX_DEPTH) throw tooDeep(path);
  return valueOf(t, v, path, depth);
}

/** google.protobuf.Value (a message at `depth`): whichever member of `kind` is set. */
function valueOf(t: JsonType, v: Record<string, unknown>, path: JsonPath, depth: number): J {
  const nul = num(t, v, 1);
  if (nul !== undefined) {
    if (nul !== 0) {
      const why = "has no JSON form (only NULL_VALUE, 0, is null)";
      throw new JsonError(path, `Value.null_value ${String(nul)} ${why}`);
    }
    return null;
  }
  const n = num(t, v, 2);
  if (n !== undefined) {
    if (!Number.isFinite(n)) {
      throw new JsonError(path, "a Value number must be finite (JSON has no NaN or Infinity)");
    }
    return floatJ(n as number, false);
  }
  const s = num(t, v, 3);
  if (s !== undefined) return s as string;
  const b = num(t, v, 4);
  if (b !== undefined) return b as boolean;
  for (const no of [5, 6]) {
    const f = fieldNo(t, no);
    const m = getField(v, f);
    if (m !== undefined) {
      return writeMessage(asJsonType(f.msg, path), m as Record<string, unknown>, path, depth + 1);
    }
  }
  throw new JsonError(path, "a google.protobuf.Value with no kind set");
}

function anyTo(t: JsonType, v: Record<string, unknown>, path: JsonPath, depth: number): J {
  const url = (num(t, v, 1) as string | undefined) ?? "";
  const bytes = (num(t, v, 2) as Uint8Array | undefined) ?? new Uint8Array(0);
  if (url === "" && bytes.length === 0) return new JObj([]);
  const inner = resolve(url, path);
  const left = MAX_DEPTH - depth;
  if (left <= 0) throw tooDeep(path);
  let decoded: object;
  try {
    decoded = inner.decode(bytes, { maxDepth: left });
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new JsonError(path, `the Any value does not decode as ${url}: ${why}`);
  }
  const j = writeMessage(inner, decoded as Record<string, unknown>, path, depth + 1);
  const members: [string, J][] = [["@type", url]];
  if (j instanceof JObj && !isSpecial(inner.typeName)) members.push(...j.members);
  else members.push(["value", j]);
  return new JObj(members);
}

// ----- writing text -----
