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
 */

import { EncodeError } from "./errors.js";
import { Card, Kind, Presence, isBigKind, type Field, type MessageTypeLike } from "./schema.js";
import { compareCodePoints } from "./utf8.js";

/** Why a JSON text does not map to a message, or a message has no proto3 JSON form. */
export class JsonError extends Error {
  /** The JSON path of the offending value, `$` being the document (`$.lines[3].sku`). */
  readonly path: string;
  /** What is wrong there. */
  readonly detail: string;

  /** An error at `path`. */
  constructor(path: string, detail: string) {
    super(path === "" ? detail : `${path}: ${detail}`);
    this.name = "JsonError";
    this.path = path;
    this.detail = detail;
  }
}

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
/** How deep arrays and objects may nest in JSON input (serde_json's limit, as in Rust). */
const MAX_JSON_NESTING = 127;

// ----- JSON text: a tree that keeps member order, exact number text, refuses duplicates -----

/** A JSON number as written: its text (exact integers stay exact). */
class JNum {
  constructor(
    readonly text: string,
    readonly value: number,
  ) {}
}
/** A JSON object: members in document order. */
class JObj {
  constructor(readonly members: [string, J][]) {}
}
type J = null | boolean | string | JNum | J[] | JObj;

function kindOf(j: J): string {
  if (j === null) return "null";
  if (typeof j === "boolean") return "a bool";
  if (typeof j === "string") return "a string";
  if (j instanceof JNum) return "a number";
  if (Array.isArray(j)) return "an array";
  return "an object";
}

/** `$.name` for identifier-like keys, `$["odd key"]` otherwise. */
function memberPath(parent: string, key: string): string {
  return /^[A-Za-z0-9_@]+$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

class Parser {
  pos = 0;
  constructor(readonly s: string) {}

  fail(what: string): never {
    throw new JsonError("", `${what} at character ${this.pos}`);
  }

  ws(): void {
    const s = this.s;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++;
      else break;
    }
  }

  document(): J {
    this.ws();
    const v = this.value("$", 0);
    this.ws();
    if (this.pos !== this.s.length) this.fail("trailing characters");
    return v;
  }

  value(path: string, nesting: number): J {
    const s = this.s;
    const c = s[this.pos];
    if (c === "{" || c === "[") {
      if (nesting >= MAX_JSON_NESTING) this.fail("recursion limit exceeded");
      return c === "{" ? this.object(path, nesting + 1) : this.array(path, nesting + 1);
    }
    if (c === '"') return this.string();
    if (s.startsWith("true", this.pos)) {
      this.pos += 4;
      return true;
    }
    if (s.startsWith("false", this.pos)) {
      this.pos += 5;
      return false;
    }
    if (s.startsWith("null", this.pos)) {
      this.pos += 4;
      return null;
    }
    return this.number();
  }

  object(path: string, nesting: number): JObj {
    this.pos++;
    const members: [string, J][] = [];
    // Large objects (maps, Structs) check duplicates through a set: no quadratic scan.
    const keys = new Set<string>();
    this.ws();
    if (this.s[this.pos] === "}") {
      this.pos++;
      return new JObj(members);
    }
    for (;;) {
      this.ws();
      if (this.s[this.pos] !== '"') this.fail("expected a member name");
      const key = this.string();
      if (keys.has(key)) {
        throw new JsonError("", `duplicate key ${JSON.stringify(key)} in the object at ${path}`);
      }
      keys.add(key);
      this.ws();
      if (this.s[this.pos] !== ":") this.fail("expected ':'");
      this.pos++;
      this.ws();
      members.push([key, this.value(memberPath(path, key), nesting)]);
      this.ws();
      const c = this.s[this.pos++];
      if (c === "}") return new JObj(members);
      if (c !== ",") this.fail("expected ',' or '}'");
    }
  }

  array(path: string, nesting: number): J[] {
    this.pos++;
    const items: J[] = [];
    this.ws();
    if (this.s[this.pos] === "]") {
      this.pos++;
      return items;
    }
    for (;;) {
      this.ws();
      items.push(this.value(`${path}[${items.length}]`, nesting));
      this.ws();
      const c = this.s[this.pos++];
      if (c === "]") return items;
      if (c !== ",") this.fail("expected ',' or ']'");
    }
  }

  string(): string {
    const s = this.s;
    this.pos++;
    let out = "";
    let start = this.pos;
    for (;;) {
      if (this.pos >= s.length) this.fail("unterminated string");
      const c = s.charCodeAt(this.pos);
      if (c === 0x22) {
        out += s.slice(start, this.pos);
        this.pos++;
        return out;
      }
      if (c < 0x20) this.fail("control character in a string");
      if (c >= 0xd800 && c <= 0xdfff) {
        // The text itself may hold a lone surrogate only if it came from a JS string.
        const pair = c < 0xdc00 && (s.charCodeAt(this.pos + 1) & 0xfc00) === 0xdc00;
        if (!pair) this.fail("lone surrogate in a string");
        this.pos += 2;
        continue;
      }
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      out += s.slice(start, this.pos);
      const e = s[this.pos + 1];
      this.pos += 2;
      switch (e) {
        case '"':
        case "\\":
        case "/":
          out += e;
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "u": {
          const u = this.hex4();
          if (u >= 0xd800 && u < 0xdc00) {
            if (s[this.pos] !== "\\" || s[this.pos + 1] !== "u") this.fail("lone leading surrogate");
            this.pos += 2;
            const lo = this.hex4();
            if (lo < 0xdc00 || lo > 0xdfff) this.fail("lone leading surrogate");
            out += String.fromCharCode(u, lo);
          } else if (u >= 0xdc00 && u <= 0xdfff) {
            this.fail("lone trailing surrogate");
          } else out += String.fromCharCode(u);
          break;
        }
        default:
          this.fail("invalid escape");
      }
      start = this.pos;
    }
  }

  hex4(): number {
    const h = this.s.slice(this.pos, this.pos + 4);
    if (!/^[0-9A-Fa-f]{4}$/.test(h)) this.fail("invalid \\u escape");
    this.pos += 4;
    return parseInt(h, 16);
  }

  number(): JNum {
    const m = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
    m.lastIndex = this.pos;
    const r = m.exec(this.s);
    if (r === null || r[0] === "" || r[0] === "-") this.fail("expected a value");
    this.pos += r[0].length;
    const value = Number(r[0]);
    if (!Number.isFinite(value)) this.fail("number out of range");
    return new JNum(r[0], value);
  }
}

/** Parse one JSON document, refusing duplicate keys. */
function parse(text: string): J {
  return new Parser(text).document();
}

/** A plain JavaScript JSON value (as `JSON.parse` returns) as the tree. */
function fromPlain(v: unknown, path: string, nesting: number): J {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new JsonError(path, "a number must be finite");
    return new JNum(Object.is(v, -0) ? "-0.0" : String(v), v);
  }
  if (nesting >= MAX_JSON_NESTING) throw new JsonError(path, "recursion limit exceeded");
  if (Array.isArray(v)) return v.map((x, i) => fromPlain(x, `${path}[${i}]`, nesting + 1));
  if (typeof v === "object") {
    return new JObj(
      Object.entries(v as object).map(([k, x]) => [k, fromPlain(x, memberPath(path, k), nesting + 1)]),
    );
  }
  throw new JsonError(path, `${typeof v} is not a JSON value`);
}

// ----- per-type lookup tables -----

interface Names {
  byName: Map<string, Field>;
}
const names = new WeakMap<JsonType, Names>();

function namesOf(t: JsonType): Names {
  let n = names.get(t);
  if (n === undefined) {
    const byName = new Map<string, Field>();
    // The JSON name first, then the schema name (a schema name equal to another
    // field's JSON name means that field).
    for (const f of t.fieldList) byName.set(f.prop, f);
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
    const o = v[f.oneof] as { case: string; value: unknown } | undefined | null;
    return o !== undefined && o !== null && o.case === f.prop ? o.value : undefined;
  }
  const x = v[f.prop];
  return x === null ? undefined : x;
}

function asJsonType(m: MessageTypeLike | undefined, path: string): JsonType {
  if (m === undefined || !("fieldList" in m)) throw new JsonError(path, "a message field without its type");
  return m as JsonType;
}

// ----- JSON → message -----

/**
 * Parse proto3 JSON text (or a value `JSON.parse` returned: duplicates are then already
 * merged) as a message of `type`.
 *
 * @throws {JsonError} syntax errors, duplicate keys, unknown field names, values of the
 *   wrong type or out of range, two members of one oneof; the error names the JSON path.
 */
export function fromJson<T>(type: JsonType, json: string | unknown): T {
  const j = typeof json === "string" ? parse(json) : fromPlain(json, "$", 0);
  return readMessage(type, j, "$") as T;
}

function readMessage(t: JsonType, j: J, path: string): Record<string, unknown> {
  const special = wktFrom(t, j, path);
  if (special !== undefined) return special;
  if (!(j instanceof JObj)) throw new JsonError(path, `expected an object for ${t.typeName}, found ${kindOf(j)}`);
  return readFields(t, j.members, path);
}

function nullIsValue(f: Field): boolean {
  if (f.kind === Kind.Message) return f.msg?.typeName === "google.protobuf.Value";
  return f.kind === Kind.Enum && f.enumType?.typeName === "google.protobuf.NullValue";
}

function readFields(t: JsonType, members: readonly [string, J][], path: string): Record<string, unknown> {
  const v = t.create() as Record<string, unknown>;
  const byName = namesOf(t).byName;
  const seen = new Map<number, string>();
  const oneofs = new Map<string, string>();
  for (const [key, j] of members) {
    const here = memberPath(path, key);
    const f = byName.get(key);
    if (f === undefined) throw new JsonError(here, `${t.typeName} has no field named ${JSON.stringify(key)}`);
    const other = seen.get(f.no);
    if (other !== undefined) throw new JsonError(here, `field ${f.name} is also given as ${JSON.stringify(other)}`);
    seen.set(f.no, key);
    if (j === null && !nullIsValue(f)) continue;
    if (f.oneof !== undefined) {
      const o = oneofs.get(f.oneof);
      if (o !== undefined) {
        throw new JsonError(here, `oneof ${f.oneof} already has a member set (${JSON.stringify(o)})`);
      }
      oneofs.set(f.oneof, key);
    }
    if (f.card === Card.Single) {
      setField(v, f, element(f, f.kind, j, here));
    } else if (f.card === Card.Repeated) {
      if (!Array.isArray(j)) throw new JsonError(here, `expected an array, found ${kindOf(j)}`);
      const out = new Array<unknown>(j.length);
      for (let i = 0; i < j.length; i++) out[i] = element(f, f.kind, j[i]!, `${here}[${i}]`);
      v[f.prop] = out;
    } else {
      if (!(j instanceof JObj)) throw new JsonError(here, `expected an object for a map, found ${kindOf(j)}`);
      const entries: [unknown, unknown][] = [];
      const keys = new Set<unknown>();
      for (const [k, item] of j.members) {
        const p = memberPath(here, k);
        const mk = mapKey(f.keyKind, k, p);
        // "1" and "01" name the same integer key.
        if (keys.has(mk)) throw new JsonError(p, "the same map key twice");
        keys.add(mk);
        entries.push([mk, element(f, f.kind, item, p)]);
      }
      entries.sort(keyCompare(f.keyKind));
      v[f.prop] = new Map(entries);
    }
  }
  return v;
}

function mapKey(kind: Kind, k: string, path: string): unknown {
  if (kind === Kind.Bool) {
    if (k === "true") return true;
    if (k === "false") return false;
    throw new JsonError(path, 'a bool map key must be "true" or "false"');
  }
  if (kind === Kind.String) return k;
  return scalar(kind, k, path);
}

function element(f: Field, kind: Kind, j: J, path: string): unknown {
  if (kind === Kind.Message) return readMessage(asJsonType(f.msg, path), j, path);
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

function expected(path: string, what: string, j: J): JsonError {
  return new JsonError(path, `expected ${what}, found ${kindOf(j)}`);
}

/** One scalar of `kind` with its range checks. */
function scalar(kind: Kind, j: J, path: string): unknown {
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
      if (Number.isFinite(x) && !Number.isFinite(f)) throw new JsonError(path, `${x} is out of range for float`);
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
function integer(j: J, path: string): bigint {
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
function float(j: J, path: string): number {
  if (j instanceof JNum) return j.value;
  if (typeof j !== "string") throw expected(path, "a number", j);
  if (j === "NaN") return NaN;
  if (j === "Infinity") return Infinity;
  if (j === "-Infinity") return -Infinity;
  const x = FLOAT_TEXT.test(j) ? Number(j) : NaN;
  if (!Number.isFinite(x)) throw new JsonError(path, `${JSON.stringify(j)} is not a number`);
  return x;
}

const STD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const STD_INDEX = indexOf(STD);
const URL_INDEX = indexOf(URL);

function indexOf(alphabet: string): Int8Array {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
}

/**
 * Standard or URL-safe base64 (the alphabet chosen by whether `-` or `_` occurs), padded
 * canonically or not at all, with zero trailing bits; `undefined` otherwise.
 */
export function base64Decode(s: string): Uint8Array | undefined {
  const table = /[-_]/.test(s) ? URL_INDEX : STD_INDEX;
  let n = s.length;
  if (s.endsWith("=")) {
    if (n % 4 !== 0) return undefined;
    n -= s.endsWith("==") ? 2 : 1;
  }
  const rem = n % 4;
  if (rem === 1) return undefined;
  if (s.length !== n && rem === 0) return undefined;
  const out = new Uint8Array(Math.floor(n / 4) * 3 + (rem === 0 ? 0 : rem - 1));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const d = c < 128 ? table[c]! : -1;
    if (d < 0) return undefined;
    acc = ((acc << 6) | d) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  if ((acc & ((1 << bits) - 1)) !== 0) return undefined; // trailing bits must be zero
  return out;
}

/** Standard base64 with padding. */
export function base64Encode(b: Uint8Array): string {
  let s = "";
  let i = 0;
  for (; i + 2 < b.length; i += 3) {
    const x = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!;
    s += STD[x >> 18]! + STD[(x >> 12) & 63]! + STD[(x >> 6) & 63]! + STD[x & 63]!;
  }
  if (i + 1 === b.length) {
    const x = b[i]! << 16;
    s += STD[x >> 18]! + STD[(x >> 12) & 63]! + "==";
  } else if (i + 2 === b.length) {
    const x = (b[i]! << 16) | (b[i + 1]! << 8);
    s += STD[x >> 18]! + STD[(x >> 12) & 63]! + STD[(x >> 6) & 63]! + "=";
  }
  return s;
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

function text(j: J, what: string, path: string): string {
  if (typeof j !== "string") throw new JsonError(path, `expected ${what} string, found ${kindOf(j)}`);
  return j;
}

function wktFrom(t: JsonType, j: J, path: string): Record<string, unknown> | undefined {
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
      const entries: [string, unknown][] = j.members.map(([k, x]) => [k, valueFrom(vt, x, memberPath(path, k))]);
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
        j.map((x, i) => valueFrom(vt, x, `${path}[${i}]`)),
      );
      return m;
    }
    case "google.protobuf.Value":
      return valueFrom(t, j, path);
    case "google.protobuf.Any":
      return anyFrom(t, j, path);
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

function valueFrom(t: JsonType, j: J, path: string): Record<string, unknown> {
  const m = t.create() as Record<string, unknown>;
  if (j === null) setField(m, fieldNo(t, 1), 0);
  else if (typeof j === "boolean") setField(m, fieldNo(t, 4), j);
  else if (typeof j === "string") setField(m, fieldNo(t, 3), j);
  else if (j instanceof JNum) setField(m, fieldNo(t, 2), j.value);
  else {
    const f = fieldNo(t, Array.isArray(j) ? 6 : 5);
    setField(m, f, readMessage(asJsonType(f.msg, path), j, path));
  }
  return m;
}

function resolve(url: string, path: string): JsonType {
  const name = url.slice(url.lastIndexOf("/") + 1);
  if (!url.includes("/") || name === "") {
    throw new JsonError(path, `type URL ${JSON.stringify(url)} is not of the form "<host>/<message full name>"`);
  }
  const t = registry.get(name);
  if (t === undefined) throw new JsonError(path, `type URL ${JSON.stringify(url)} names no message of the schema`);
  return t;
}

function anyFrom(t: JsonType, j: J, path: string): Record<string, unknown> {
  if (!(j instanceof JObj)) throw new JsonError(path, `expected an object, found ${kindOf(j)}`);
  const m = t.create() as Record<string, unknown>;
  const ty = j.members.find(([k]) => k === "@type");
  if (ty === undefined) {
    if (j.members.length === 0) return m;
    throw new JsonError(path, 'an Any with fields needs "@type"');
  }
  const url = ty[1];
  if (typeof url !== "string") throw new JsonError(`${path}.@type`, "expected a type URL string");
  const inner = resolve(url, path);
  const rest = j.members.filter(([k]) => k !== "@type");
  let value: Record<string, unknown>;
  if (isSpecial(inner.typeName)) {
    if (rest.length !== 1 || rest[0]![0] !== "value") {
      throw new JsonError(path, `an Any holding ${inner.typeName} has exactly one other key, "value"`);
    }
    value = readMessage(inner, rest[0]![1], `${path}.value`);
  } else value = readFields(inner, rest, path);
  let bytes: Uint8Array;
  try {
    bytes = inner.encode(value as never);
  } catch (e) {
    if (e instanceof EncodeError) throw new JsonError(path, e.message);
    throw e;
  }
  setField(m, fieldNo(t, 1), url);
  setField(m, fieldNo(t, 2), bytes);
  return m;
}

// ----- Timestamp and Duration text -----

/** Seconds of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, the Timestamp range. */
const TS_MIN = -62135596800n;
const TS_MAX = 253402300799n;
/** ±10000 years, the Duration range. */
const DUR_MAX = 315576000000n;

function daysFromCivil(y: number, m: number, d: number): number {
  // Days since 1970-01-01 in the proleptic Gregorian calendar, years counted from March.
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z0: number): [number, number, number] {
  const z = z0 + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

/** 0, 3, 6 or 9 fractional digits. */
function fraction(nanos: number): string {
  if (nanos === 0) return "";
  if (nanos % 1000000 === 0) return "." + String(nanos / 1000000).padStart(3, "0");
  if (nanos % 1000 === 0) return "." + String(nanos / 1000).padStart(6, "0");
  return "." + String(nanos).padStart(9, "0");
}

const pad2 = (n: number): string => String(n).padStart(2, "0");

function timestampText(seconds: bigint, nanos: number, path: string): string {
  if (seconds < TS_MIN || seconds > TS_MAX || !(nanos >= 0 && nanos < 1e9)) {
    throw new JsonError(path, `Timestamp ${seconds}s ${nanos}ns is outside 0001-01-01 to 9999-12-31`);
  }
  const s = Number(seconds);
  const days = Math.floor(s / 86400);
  const t = s - days * 86400;
  const [y, mo, d] = civilFromDays(days);
  return (
    `${String(y).padStart(4, "0")}-${pad2(mo)}-${pad2(d)}T` +
    `${pad2(Math.floor(t / 3600))}:${pad2(Math.floor(t / 60) % 60)}:${pad2(t % 60)}${fraction(nanos)}Z`
  );
}

const TS_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

function parseTimestamp(s: string): [bigint, number] | undefined {
  const r = TS_RE.exec(s);
  if (r === null) return undefined;
  const [y, mo, d, h, mi, se] = [1, 2, 3, 4, 5, 6].map((i) => Number(r[i]));
  const leap = y! % 4 === 0 && (y! % 100 !== 0 || y! % 400 === 0);
  const monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (y! < 1 || mo! < 1 || mo! > 12 || d! < 1 || d! > monthDays[mo! - 1]! || h! > 23 || mi! > 59 || se! > 59) {
    return undefined;
  }
  const nanos = r[7] === undefined ? 0 : Number(r[7].padEnd(9, "0"));
  let offset = 0;
  if (r[8] === undefined) {
    const oh = Number(r[10]);
    const om = Number(r[11]);
    if (oh > 23 || om > 59) return undefined;
    offset = (oh * 3600 + om * 60) * (r[9] === "-" ? -1 : 1);
  }
  const seconds = BigInt(daysFromCivil(y!, mo!, d!) * 86400 + h! * 3600 + mi! * 60 + se! - offset);
  if (seconds < TS_MIN || seconds > TS_MAX) return undefined;
  return [seconds, nanos];
}

function durationText(seconds: bigint, nanos: number, path: string): string {
  const sameSign = seconds === 0n || nanos === 0 || seconds < 0n === nanos < 0;
  const abs = seconds < 0n ? -seconds : seconds;
  if (abs > DUR_MAX || !(Math.abs(nanos) < 1e9) || !sameSign) {
    throw new JsonError(path, `Duration ${seconds}s ${nanos}ns is out of range or mixes signs`);
  }
  const sign = seconds < 0n || nanos < 0 ? "-" : "";
  return `${sign}${abs}${fraction(Math.abs(nanos))}s`;
}

const DUR_RE = /^(-?)(\d+)(?:\.(\d{1,9}))?s$/;

function parseDuration(s: string): [bigint, number] | undefined {
  const r = DUR_RE.exec(s);
  if (r === null || r[2]!.length > 20) return undefined;
  const secs = BigInt(r[2]!);
  if (secs > DUR_MAX) return undefined;
  const nanos = r[3] === undefined ? 0 : Number(r[3].padEnd(9, "0"));
  return r[1] === "-" ? [-secs, nanos === 0 ? 0 : -nanos] : [secs, nanos];
}

// ----- FieldMask paths -----

/** `foo_bar.baz_qux` → `fooBar.bazQux`. */
function camel(p: string): string {
  return p.replace(/_(.?)/gsu, (_, c: string) => c.toUpperCase());
}

/** `fooBar.bazQux` → `foo_bar.baz_qux`. */
function snake(p: string): string {
  return p.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
}

/**
 * One FieldMask path as its JSON spelling, or a refusal when proto3 JSON cannot spell it
 * so that it reads back the same (`""`, `"a,b"`, `"fooBar"`, `"a__b"`, `"a_1"`).
 */
function maskPathJson(p: string, path: string): string {
  const c = camel(p);
  if (p === "" || p.includes(",") || snake(c) !== p) {
    throw new JsonError(path, `FieldMask path ${JSON.stringify(p)} has no proto3 JSON spelling that reads back as it`);
  }
  return c;
}

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
  const j = writeMessage(type, value as Record<string, unknown>, "$", 1);
  return write(j, options?.indent ?? 0, 0);
}

/** `value` as a plain JavaScript JSON value (numbers as JS numbers), as `JSON.parse(toJson(…))`. */
export function toJsonValue(type: JsonType, value: object): unknown {
  return JSON.parse(toJson(type, value));
}

function tooDeep(path: string): JsonError {
  return new JsonError(path, `messages nest deeper than ${MAX_DEPTH} (counting those inside Any payloads)`);
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

function writeMessage(t: JsonType, v: Record<string, unknown>, path: string, depth: number): J {
  if (depth > MAX_DEPTH) throw tooDeep(path);
  const special = wktTo(t, v, path, depth);
  if (special !== undefined) return special;
  const members: [string, J][] = [];
  for (const f of t.fieldList) {
    const x = getField(v, f);
    if (x === undefined) continue;
    const here = memberPath(path, f.prop);
    let j: J;
    if (f.card === Card.Repeated) {
      const list = x as unknown[];
      if (list.length === 0) continue;
      j = list.map((item, i) => writeElement(f, item, `${here}[${i}]`, depth));
    } else if (f.card === Card.Map) {
      const map = x as Map<unknown, unknown>;
      if (map.size === 0) continue;
      const entries = [...map].sort(keyCompare(f.keyKind));
      j = new JObj(
        entries.map(([k, item]) => {
          const key = String(k);
          return [key, writeElement(f, item, memberPath(here, key), depth)];
        }),
      );
    } else {
      if (f.oneof === undefined && f.presence === Presence.Implicit && isDefault(f.kind, x)) continue;
      j = writeElement(f, x, here, depth);
    }
    members.push([f.prop, j]);
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

function writeElement(f: Field, x: unknown, path: string, depth: number): J {
  return writeValue(f.kind, f, x, path, depth);
}

function writeValue(kind: Kind, f: Field | undefined, x: unknown, path: string, depth: number): J {
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
        if (n !== 0) throw new JsonError(path, `NullValue ${n} has no JSON form (only NULL_VALUE, 0, is null)`);
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

/** A float (f32) as Rust prints it: the shortest digits that read back, no exponent. */
function f32Text(x: number): string {
  // Rust writes -0.0f32 as "-0", which JSON readers take for the integer 0.
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0";
  const sign = x < 0 ? "-" : "";
  const a = Math.abs(x);
  let e = a.toExponential(8);
  for (let p = 1; p <= 9; p++) {
    const s = a.toExponential(p - 1);
    if (Math.fround(Number(s)) === a) {
      e = s;
      break;
    }
  }
  const [d, kk] = digitsOf(e);
  let out: string;
  if (kk >= d.length) out = d + "0".repeat(kk - d.length);
  else if (kk > 0) out = d.slice(0, kk) + "." + d.slice(kk);
  else out = "0." + "0".repeat(-kk) + d;
  return sign + out;
}

function num(t: JsonType, v: Record<string, unknown>, no: number): unknown {
  return getField(v, fieldNo(t, no));
}

function wktTo(t: JsonType, v: Record<string, unknown>, path: string, depth: number): J | undefined {
  const name = t.typeName;
  if (!name.startsWith("google.protobuf.")) return undefined;
  if (WRAPPERS.has(name)) {
    const f = fieldNo(t, 1);
    const x = getField(v, f);
    const d = f.kind === Kind.Bytes ? new Uint8Array(0) : isBigKind(f.kind) ? 0n : f.kind === Kind.Bool ? false : f.kind === Kind.String ? "" : 0;
    return writeValue(f.kind, f, x ?? d, path, depth);
  }
  switch (name) {
    case "google.protobuf.Timestamp":
      return timestampText(BigInt((num(t, v, 1) as bigint | undefined) ?? 0n), Number(num(t, v, 2) ?? 0), path);
    case "google.protobuf.Duration":
      return durationText(BigInt((num(t, v, 1) as bigint | undefined) ?? 0n), Number(num(t, v, 2) ?? 0), path);
    case "google.protobuf.FieldMask": {
      const paths = (num(t, v, 1) as string[] | undefined) ?? [];
      return paths.map((p, i) => maskPathJson(p, `${path}[${i}]`)).join(",");
    }
    case "google.protobuf.Struct": {
      const f = fieldNo(t, 1);
      const vt = asJsonType(f.msg, path);
      const map = (getField(v, f) as Map<string, Record<string, unknown>> | undefined) ?? new Map();
      const entries = [...map].sort((a, b) => compareCodePoints(a[0], b[0]));
      return new JObj(entries.map(([k, x]) => [k, valueJson(vt, x, memberPath(path, k), depth + 1)]));
    }
    case "google.protobuf.ListValue": {
      const f = fieldNo(t, 1);
      const vt = asJsonType(f.msg, path);
      const items = (getField(v, f) as Record<string, unknown>[] | undefined) ?? [];
      return items.map((x, i) => valueJson(vt, x, `${path}[${i}]`, depth + 1));
    }
    case "google.protobuf.Value":
      return valueOf(t, v, path, depth);
    case "google.protobuf.Any":
      return anyTo(t, v, path, depth);
    default:
      return undefined;
  }
}

function valueJson(t: JsonType, v: Record<string, unknown>, path: string, depth: number): J {
  if (depth > MAX_DEPTH) throw tooDeep(path);
  return valueOf(t, v, path, depth);
}

/** google.protobuf.Value (a message at `depth`): whichever member of `kind` is set. */
function valueOf(t: JsonType, v: Record<string, unknown>, path: string, depth: number): J {
  const nul = num(t, v, 1);
  if (nul !== undefined) {
    if (nul !== 0) throw new JsonError(path, `Value.null_value ${String(nul)} has no JSON form (only NULL_VALUE, 0, is null)`);
    return null;
  }
  const n = num(t, v, 2);
  if (n !== undefined) {
    if (!Number.isFinite(n)) throw new JsonError(path, "a Value number must be finite (JSON has no NaN or Infinity)");
    return floatJ(n as number, false);
  }
  const s = num(t, v, 3);
  if (s !== undefined) return s as string;
  const b = num(t, v, 4);
  if (b !== undefined) return b as boolean;
  for (const no of [5, 6]) {
    const f = fieldNo(t, no);
    const m = getField(v, f);
    if (m !== undefined) return writeMessage(asJsonType(f.msg, path), m as Record<string, unknown>, path, depth + 1);
  }
  throw new JsonError(path, "a google.protobuf.Value with no kind set");
}

function anyTo(t: JsonType, v: Record<string, unknown>, path: string, depth: number): J {
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
    throw new JsonError(path, `the Any value does not decode as ${url}: ${String((e as Error).message ?? e)}`);
  }
  const j = writeMessage(inner, decoded as Record<string, unknown>, path, depth + 1);
  const members: [string, J][] = [["@type", url]];
  if (j instanceof JObj && !isSpecial(inner.typeName)) members.push(...j.members);
  else members.push(["value", j]);
  return new JObj(members);
}

// ----- writing text -----

function write(j: J, indent: number, level: number): string {
  if (j === null) return "null";
  if (typeof j === "boolean") return j ? "true" : "false";
  if (typeof j === "string") return JSON.stringify(j);
  if (j instanceof JNum) return j.text;
  const nl = indent > 0 ? "\n" + " ".repeat(indent * (level + 1)) : "";
  const end = indent > 0 ? "\n" + " ".repeat(indent * level) : "";
  if (Array.isArray(j)) {
    if (j.length === 0) return "[]";
    return "[" + j.map((x) => nl + write(x, indent, level + 1)).join(",") + end + "]";
  }
  if (j.members.length === 0) return "{}";
  const sep = indent > 0 ? ": " : ":";
  return "{" + j.members.map(([k, x]) => nl + JSON.stringify(k) + sep + write(x, indent, level + 1)).join(",") + end + "}";
}
