/**
 * The canonical encoder (SPEC §9): two linear passes. The size pass checks the value,
 * records every nested message's and string's length and every map's sorted entries in
 * visiting order; the write pass consumes them in the same order into one exact buffer.
 *
 * Generated code (`bijoubuf compile --ts-out`) gives each message type its own two passes
 * ({@link GeneratedCodec}), the field list unrolled, calling the per-kind checks and
 * writers exported here; {@link sizeMessage} and {@link writeMessage} walk a type's field
 * list instead, for values holding preserved unknown records (`$unknown`) and for types
 * described without a generated encoder.
 */

import { EncodeError, keySegment } from "./errors.js";
import { Card, Kind, Presence, fixedWidth, type Field, type UnknownField } from "./schema.js";
export { ownValue } from "./schema.js";
import { compareCodePoints, utf8Length, writeUtf8 } from "./utf8.js";
import {
  decode as decodeVarint,
  sizeBigInt,
  sizeNumber,
  smallSigned,
  smallUnsigned,
  writeBigInt,
  writeNumber,
  zigzag32,
  zigzag64,
} from "./varint.js";
import { NMAX } from "./decode.js";
import type { Reader } from "./reader.js";

/** What the encoder needs of a message type. */
export interface EncodeTarget {
  /** Fields ascending by number. */
  readonly fieldList: readonly Field[];
  /** The short type name, for paths. */
  readonly shortName: string;
  /**
   * The size pass over one value of the type at `depth` (checks the depth limit): the
   * type's generated encoder, or {@link sizeMessage} over its field list.
   */
  sizeOf(p: Plan, v: Record<string, unknown>, depth: number): number;
  /** The write pass matching {@link sizeOf}. */
  writeTo(w: Writer, p: Plan, v: Record<string, unknown>): void;
}

/**
 * A type's generated encoder and decoder (`bijoubuf compile --ts-out` emits them for every
 * message): the encoder's two passes with the field list unrolled, calling the per-kind
 * checks and writers below, and a decoder switching on the field number, calling the
 * decoder's per-kind reads (`dec` in the package's exports).
 */
export interface GeneratedCodec {
  /**
   * The size pass; the depth limit is checked by the caller. A value holding preserved
   * unknown records (`$unknown`) is handed to {@link sizeMessage}, which interleaves them.
   */
  size(p: Plan, v: any, depth: number): number;
  /** The write pass; a value holding `$unknown` is handed to {@link writeMessage}. */
  write(w: Writer, p: Plan, v: any): void;
  /** Decode a value from `r.pos..end` at `depth`, as `decodeMessage` does. */
  decode?(r: Reader, end: number, depth: number): object;
}

/**
 * Lengths and sorted maps from the size pass, in visiting order. The arrays are filled up
 * to `ln` and `mn` (not pushed), so one plan can serve encode after encode without growing
 * them again ({@link takePlan}).
 */
export class Plan {
  lens: number[] = [];
  /** Lengths recorded. */
  ln = 0;
  /** Per map in visiting order: its entries sorted, or null when it iterates in key order. */
  maps: ([unknown, unknown][] | null)[] = [];
  /** Maps recorded. */
  mn = 0;
  li = 0;
  mi = 0;
  constructor(public maxDepth: number) {}
}

/** The plan {@link takePlan} hands out next, when no encode holds it. */
let sparePlan: Plan | undefined;

/**
 * A plan for one encode: the spare one when it is free (an encode started from inside
 * another, say by a getter, gets a new one), else a new one. Give it back with
 * {@link releasePlan}.
 */
export function takePlan(maxDepth: number): Plan {
  const p = sparePlan;
  if (p === undefined) return new Plan(maxDepth);
  sparePlan = undefined;
  p.maxDepth = maxDepth;
  return p;
}

/** A spare plan keeps arrays up to this many slots; a larger one is let go. */
const SPARE_MAX = 1 << 16;

/**
 * Make `p` the spare plan, emptied: its sorted entry lists are dropped (they hold the
 * caller's values), its lengths are overwritten by the next encode before they are read.
 * Arrays grown past {@link SPARE_MAX} by one large value are not kept.
 */
export function releasePlan(p: Plan): void {
  if (p.lens.length > SPARE_MAX) p.lens = [];
  if (p.maps.length > SPARE_MAX) p.maps = [];
  else {
    const maps = p.maps;
    for (let i = 0; i < p.mn; i++) maps[i] = null;
  }
  p.ln = p.mn = p.li = p.mi = 0;
  sparePlan = p;
}

function bad(code: EncodeError["code"], detail: string): EncodeError {
  return new EncodeError(code, detail);
}

/** Refuse a value nested deeper than the plan's depth limit (SPEC §9.3). */
export function checkDepth(p: Plan, depth: number): void {
  if (depth > p.maxDepth) {
    throw bad("depth-limit-exceeded", `nests messages deeper than ${p.maxDepth}`);
  }
}

/** The error of an unset required field (SPEC §5.3), its path still to come. */
export function missingRequired(): EncodeError {
  return bad("missing-required-field", "is required but unset");
}

/** The error of a repeated field holding something other than an array. */
export function notArray(): EncodeError {
  return bad("invalid-value", "holds no array");
}

/** The error of a map field holding something other than a `Map`. */
export function notMap(): EncodeError {
  return bad("invalid-value", "holds no Map");
}

/** `e` with the field segment `seg` (`.name`) pushed when it is an {@link EncodeError}. */
export function atField(e: unknown, seg: string): unknown {
  if (e instanceof EncodeError) e.push(seg);
  return e;
}

/** The size of an `int32`, `sint32` or enum value, checked (SPEC §3). */
export function sizeInt32(x: unknown): number {
  // (x | 0) === x: an integer in int32's range (−0 included, as Number.isInteger has it).
  if (typeof x !== "number" || (x | 0) !== x) {
    throw bad("integer-out-of-range", `holds ${String(x)}, not an int32`);
  }
  return x >= -124 && x <= 123 ? 1 : sizeNumber(zigzag32(x));
}

/** The size of a `uint32` value, checked. */
export function sizeUint32(x: unknown): number {
  // x >>> 0 === x: an integer in uint32's range.
  if (typeof x !== "number" || x >>> 0 !== x) {
    throw bad("integer-out-of-range", `holds ${String(x)}, not a uint32`);
  }
  return x < 248 ? 1 : sizeNumber(x);
}

/** The size of an `int64` or `sint64` value, checked. */
export function sizeInt64(x: unknown): number {
  if (typeof x !== "bigint") throw bad("integer-out-of-range", `holds ${String(x)}, not a bigint`);
  if (BigInt.asIntN(64, x) !== x) {
    throw bad("integer-out-of-range", `holds ${String(x)}, not an int64`);
  }
  // Below 2^47 in magnitude the zigzag image is an exact number: no bigint arithmetic.
  const n = smallSigned(x);
  return n !== n ? sizeBigInt(zigzag64(x)) : sizeNumber(zigzag32(n));
}

/** The size of a `uint64` value, checked. */
export function sizeUint64(x: unknown): number {
  if (typeof x !== "bigint") throw bad("integer-out-of-range", `holds ${String(x)}, not a bigint`);
  if (BigInt.asUintN(64, x) !== x) {
    throw bad("integer-out-of-range", `holds ${String(x)}, not a uint64`);
  }
  const n = smallUnsigned(x);
  return n < 0 ? sizeBigInt(x) : sizeNumber(n);
}

/** The size of a `bool` value, checked. */
export function sizeBool(x: unknown): number {
  if (typeof x !== "boolean") throw bad("invalid-value", `holds ${String(x)}, not a boolean`);
  return 1;
}

/** The size of a fixed-width value of `kind`, checked. */
export function sizeFixed(kind: Kind, x: unknown): number {
  checkFixed(kind, x);
  return fixedWidth(kind);
}

/** The size of a `string` value with its length prefix, checked; records its length. */
export function sizeString(p: Plan, x: unknown): number {
  if (typeof x !== "string") throw bad("invalid-value", "holds a non-string");
  const n = utf8Length(x);
  if (n < 0) throw bad("invalid-utf8", "holds a lone surrogate, which UTF-8 cannot spell");
  p.lens[p.ln++] = n;
  return sizeNumber(n) + n;
}

/** The size of a `bytes` value with its length prefix, checked. */
export function sizeBytes(x: unknown): number {
  if (!(x instanceof Uint8Array)) throw bad("invalid-value", "holds no Uint8Array");
  return sizeNumber(x.length) + x.length;
}

/** The size of a nested message of `type` with its length prefix, checked; records its length. */
export function sizeNested(p: Plan, type: EncodeTarget, x: unknown, depth: number): number {
  if (typeof x !== "object" || x === null) throw bad("invalid-value", "holds no message");
  const slot = p.ln++;
  p.lens[slot] = 0; // filled in order: no hole
  const n = type.sizeOf(p, x as Record<string, unknown>, depth + 1);
  p.lens[slot] = n;
  return sizeNumber(n) + n;
}

/** The size of one value of `kind` (an element, or a record's payload). */
function sizeValue(p: Plan, kind: Kind, msg: EncodeTarget | undefined, x: unknown, depth: number): number {
  switch (kind) {
    case Kind.Int32:
    case Kind.Sint32:
    case Kind.Enum:
      return sizeInt32(x);
    case Kind.Uint32:
      return sizeUint32(x);
    case Kind.Int64:
    case Kind.Sint64:
      return sizeInt64(x);
    case Kind.Uint64:
      return sizeUint64(x);
    case Kind.Bool:
      return sizeBool(x);
    case Kind.Fixed32:
    case Kind.Sfixed32:
    case Kind.Float:
    case Kind.Fixed64:
    case Kind.Sfixed64:
    case Kind.Double:
      return sizeFixed(kind, x);
    case Kind.String:
      return sizeString(p, x);
    case Kind.Bytes:
      return sizeBytes(x);
    default:
      return sizeNested(p, msg!, x, depth);
  }
}

function checkFixed(kind: Kind, x: unknown): void {
  switch (kind) {
    case Kind.Fixed32:
      if (typeof x !== "number" || x >>> 0 !== x) {
        throw bad("integer-out-of-range", `holds ${String(x)}, not a fixed32`);
      }
      return;
    case Kind.Sfixed32:
      if (typeof x !== "number" || (x | 0) !== x) {
        throw bad("integer-out-of-range", `holds ${String(x)}, not an sfixed32`);
      }
      return;
    case Kind.Fixed64:
      if (typeof x !== "bigint" || BigInt.asUintN(64, x) !== x) {
        throw bad("integer-out-of-range", `holds ${String(x)}, not a fixed64 bigint`);
      }
      return;
    case Kind.Sfixed64:
      if (typeof x !== "bigint" || BigInt.asIntN(64, x) !== x) {
        throw bad("integer-out-of-range", `holds ${String(x)}, not an sfixed64 bigint`);
      }
      return;
    default:
      if (typeof x !== "number") throw bad("invalid-value", `holds ${String(x)}, not a number`);
  }
}

/** Whether an implicit-presence value is its default and so not written (SPEC §5.1). */
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
      return Object.is(x, 0); // −0.0 is a value, written (SPEC §3.5)
    default:
      return x === 0 || x === 0n;
  }
}

/** The value a field writes, or undefined when it writes no record (SPEC §5, §6.1). */
function present(f: Field, v: Record<string, unknown>): unknown {
  if (f.oneof !== undefined) {
    const o = f.get(v) as { case: string; value: unknown } | undefined;
    return o !== undefined && o !== null && o.case === f.prop ? o.value : undefined;
  }
  const x = f.get(v);
  if (x === undefined || x === null) {
    if (f.presence === Presence.Required) {
      throw missingRequired().push(f.seg);
    }
    return undefined;
  }
  switch (f.card) {
    case Card.Repeated:
      if (!Array.isArray(x)) throw notArray().push(f.seg);
      return x.length === 0 ? undefined : x;
    case Card.Map:
      if (!(x instanceof Map)) throw notMap().push(f.seg);
      return x.size === 0 ? undefined : x;
    default:
      return f.presence === Presence.Implicit && isDefault(f.kind, x) ? undefined : x;
  }
}

type Entry = [unknown, unknown];
const byCodePoint = (a: Entry, b: Entry): number => compareCodePoints(a[0] as string, b[0] as string);
const byValue = (a: Entry, b: Entry): number =>
  (a[0] as number) < (b[0] as number) ? -1 : (a[0] as number) > (b[0] as number) ? 1 : 0;

/** The order of SPEC §6.4 on map entries. */
function keyOrder(kind: Kind): (a: Entry, b: Entry) => number {
  return kind === Kind.String ? byCodePoint : byValue;
}

/** The size of a record's payload for a present field. */
function sizePayload(p: Plan, f: Field, x: unknown, depth: number): number {
  const msg = f.msg as unknown as EncodeTarget | undefined;
  if (f.card === Card.Single) return sizeValue(p, f.kind, msg, x, depth);
  if (f.card === Card.Repeated) return sizeList(p, f.kind, msg, x as unknown[], depth);
  return sizeMap(p, f.keyKind, f.kind, msg, x as Map<unknown, unknown>, depth);
}

/**
 * The size of a non-empty repeated field's payload with its length prefix (its elements
 * checked); records its length.
 */
export function sizeList(p: Plan, kind: Kind, msg: EncodeTarget | undefined, list: unknown[], depth: number): number {
  const slot = p.ln++;
  p.lens[slot] = 0; // filled in order: no hole
  const n = sizeElements(p, kind, msg, list, depth);
  p.lens[slot] = n;
  return sizeNumber(n) + n;
}

/**
 * The size of a non-empty map field's payload with its length prefix (keys and values
 * checked); records its length and, when it does not iterate in key order, its sorted entries.
 */
export function sizeMap(
  p: Plan,
  keyKind: Kind,
  kind: Kind,
  msg: EncodeTarget | undefined,
  map: Map<unknown, unknown>,
  depth: number,
): number {
  const slot = p.ln++;
  p.lens[slot] = 0; // filled in order: no hole
  const n = sizeEntries(p, keyKind, kind, msg, map, depth);
  p.lens[slot] = n;
  return sizeNumber(n) + n;
}

/**
 * The size of a map's entries. A map already in key order (every decoded one, and most
 * built ones) is written as it iterates and costs the plan nothing; another is sorted into
 * an entry list the write pass takes (SPEC §6.4).
 */
function sizeEntries(
  p: Plan,
  keyKind: Kind,
  kind: Kind,
  msg: EncodeTarget | undefined,
  map: Map<unknown, unknown>,
  depth: number,
): number {
  const isString = keyKind === Kind.String;
  let sorted = true;
  let first = true;
  let prev: unknown;
  // Keys and values through their own iterators: `for (const [k, v] of map)` makes an
  // entry array per step (measured in Node 20: about 2.5 times the cost of two iterators).
  for (const k of map.keys()) {
    // The comparison reads characters: a string key's type is checked first.
    if (isString && typeof k !== "string") throw bad("invalid-value", "holds a non-string key");
    if (!first) {
      const ascending = isString
        ? compareCodePoints(prev as string, k as string) < 0
        : (prev as number) < (k as number);
      if (!ascending) {
        sorted = false;
        break;
      }
    }
    first = false;
    prev = k;
  }
  let n = 0;
  if (sorted) {
    p.maps[p.mn++] = null;
    const values = map.values();
    for (const k of map.keys()) {
      const val = values.next().value;
      try {
        n += isString ? sizeString(p, k) : sizeValue(p, keyKind, undefined, k, depth);
        n += kind === Kind.Message ? sizeNested(p, msg!, val, depth) : sizeValue(p, kind, msg, val, depth);
      } catch (e) {
        if (e instanceof EncodeError) e.push(keySegment(k as string));
        throw e;
      }
    }
    return n;
  }
  const entries = [...map];
  if (isString) {
    for (const [k] of entries) if (typeof k !== "string") throw bad("invalid-value", "holds a non-string key");
  }
  const order = keyOrder(keyKind);
  entries.sort(order);
  p.maps[p.mn++] = entries;
  for (let i = 0; i < entries.length; i++) {
    const [k, val] = entries[i]!;
    try {
      n += sizeValue(p, keyKind, undefined, k, depth);
      if (i > 0 && order(entries[i - 1]!, entries[i]!) === 0) throw bad("invalid-value", "holds two equal keys");
      n += sizeValue(p, kind, msg, val, depth);
    } catch (e) {
      if (e instanceof EncodeError) e.push(keySegment(k as string));
      throw e;
    }
  }
  return n;
}

/** The error {@link sizeValue} gives for element `i` of `list`, with its index in the path. */
function elementError(
  p: Plan,
  kind: Kind,
  msg: EncodeTarget | undefined,
  list: unknown[],
  i: number,
  depth: number,
): unknown {
  try {
    sizeValue(p, kind, msg, list[i], depth);
    return new Error(`bijoubuf: element ${i} was refused by one check and accepted by another`);
  } catch (e) {
    if (e instanceof EncodeError) e.push(`[${i}]`);
    return e;
  }
}

/**
 * The size of a repeated field's elements, checking each: one loop per kind for the common
 * ones (the checks of {@link sizeValue}, written inline), the general path for the rest.
 * An element a fast check refuses goes through {@link sizeValue} for the error.
 */
function sizeElements(p: Plan, kind: Kind, msg: EncodeTarget | undefined, list: unknown[], depth: number): number {
  const len = list.length;
  let n = 0;
  switch (kind) {
    case Kind.Double:
    case Kind.Float:
      for (let i = 0; i < len; i++) if (typeof list[i] !== "number") throw elementError(p, kind, msg, list, i, depth);
      return len * (kind === Kind.Double ? 8 : 4);
    case Kind.Fixed32:
      for (let i = 0; i < len; i++) {
        const x = list[i];
        if (typeof x !== "number" || x >>> 0 !== x) throw elementError(p, kind, msg, list, i, depth);
      }
      return len * 4;
    case Kind.Sfixed32:
      for (let i = 0; i < len; i++) {
        const x = list[i];
        if (typeof x !== "number" || (x | 0) !== x) throw elementError(p, kind, msg, list, i, depth);
      }
      return len * 4;
    case Kind.Fixed64:
      for (let i = 0; i < len; i++) {
        const x = list[i];
        if (typeof x !== "bigint" || BigInt.asUintN(64, x) !== x) throw elementError(p, kind, msg, list, i, depth);
      }
      return len * 8;
    case Kind.Sfixed64:
      for (let i = 0; i < len; i++) {
        const x = list[i];
        if (typeof x !== "bigint" || BigInt.asIntN(64, x) !== x) throw elementError(p, kind, msg, list, i, depth);
      }
      return len * 8;
    case Kind.Int32:
    case Kind.Sint32:
    case Kind.Enum:
      for (let i = 0; i < len; i++) {
        const x = list[i];
        if (typeof x !== "number" || (x | 0) !== x) throw elementError(p, kind, msg, list, i, depth);
        n += x >= -124 && x <= 123 ? 1 : sizeNumber(zigzag32(x));
      }
      return n;
    case Kind.Uint32:
      for (let i = 0; i < len; i++) {
        const x = list[i];
        if (typeof x !== "number" || x >>> 0 !== x) throw elementError(p, kind, msg, list, i, depth);
        n += x < 248 ? 1 : sizeNumber(x);
      }
      return n;
    case Kind.Uint64:
      for (let i = 0; i < len; i++) {
        const x = list[i];
        if (typeof x !== "bigint" || BigInt.asUintN(64, x) !== x) throw elementError(p, kind, msg, list, i, depth);
        const v = smallUnsigned(x);
        n += v < 0 ? sizeBigInt(x) : v < 248 ? 1 : sizeNumber(v);
      }
      return n;
    case Kind.Int64:
    case Kind.Sint64:
      for (let i = 0; i < len; i++) {
        const x = list[i];
        if (typeof x !== "bigint" || BigInt.asIntN(64, x) !== x) throw elementError(p, kind, msg, list, i, depth);
        const v = smallSigned(x);
        n += v !== v ? sizeBigInt(zigzag64(x)) : v >= -124 && v <= 123 ? 1 : sizeNumber(zigzag32(v));
      }
      return n;
    default:
      for (let i = 0; i < len; i++) {
        try {
          n += sizeValue(p, kind, msg, list[i], depth);
        } catch (e) {
          if (e instanceof EncodeError) e.push(`[${i}]`);
          throw e;
        }
      }
      return n;
  }
}

/** Check preserved unknown records against the schema (SPEC §8.2). */
function checkUnknown(fields: readonly Field[], list: readonly UnknownField[]): void {
  let prev = 0;
  let fi = 0;
  for (const u of list) {
    if (!Number.isInteger(u.no) || u.no <= prev || u.no > NMAX) {
      throw bad("unknown-field-order", `holds unknown field ${u.no} out of order or range`);
    }
    while (fi < fields.length && fields[fi]!.no < u.no) fi++;
    if (fi < fields.length && fields[fi]!.no === u.no) {
      throw bad("unknown-field-order", `holds unknown field ${u.no}, a number the schema declares`);
    }
    const d = u.data;
    const ok =
      d instanceof Uint8Array &&
      (u.wireType === 0
        ? (() => {
            const r = decodeVarint(d);
            return typeof r !== "string" && r.length === d.length;
          })()
        : u.wireType === 1
          ? d.length === 8
          : u.wireType === 3
            ? d.length === 4
            : u.wireType === 2);
    if (!ok) throw bad("invalid-unknown-field", `holds unknown field ${u.no} with an ill-formed payload`);
    prev = u.no;
  }
}

/** The size of a message's content; records lengths and map orders into `p`. */
export function sizeMessage(p: Plan, type: EncodeTarget, v: Record<string, unknown>, depth: number): number {
  checkDepth(p, depth);
  const fields = type.fieldList;
  const unknown = v.$unknown as UnknownField[] | undefined;
  let ui = 0;
  if (unknown !== undefined && unknown.length > 0) checkUnknown(fields, unknown);
  let n = 0;
  let prev = 0;
  for (const f of fields) {
    let x: unknown;
    try {
      x = present(f, v);
      if (x === undefined) continue;
      if (unknown !== undefined) {
        while (ui < unknown.length && unknown[ui]!.no < f.no) {
          n += sizeUnknown(unknown[ui]!, prev);
          prev = unknown[ui++]!.no;
        }
      }
      n += sizeNumber((f.no - prev - 1) * 4 + f.wire) + sizePayload(p, f, x, depth);
    } catch (e) {
      if (e instanceof EncodeError && x !== undefined) e.push(f.seg);
      throw e;
    }
    prev = f.no;
  }
  if (unknown !== undefined) {
    while (ui < unknown.length) {
      n += sizeUnknown(unknown[ui]!, prev);
      prev = unknown[ui++]!.no;
    }
  }
  return n;
}

function sizeUnknown(u: UnknownField, prev: number): number {
  const payload = u.wireType === 2 ? sizeNumber(u.data.length) + u.data.length : u.data.length;
  return sizeNumber((u.no - prev - 1) * 4 + u.wireType) + payload;
}

/** The write pass: the buffer, a view of it and the position. */
export class Writer {
  pos = 0;
  private dv: DataView | undefined;
  constructor(readonly buf: Uint8Array) {}

  /** The buffer for fixed-width writes, made on first use (most small messages need none). */
  get view(): DataView {
    return (this.dv ??= new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength));
  }
}

/** Write a record key: field `no` after field `prev` with wire type `wire` (SPEC §4.1). */
export function writeKey(w: Writer, no: number, prev: number, wire: number): void {
  w.pos = writeNumber(w.buf, w.pos, (no - prev - 1) * 4 + wire);
}

/** The size of the key of field `no` after field `prev` with wire type `wire`. */
export function sizeKey(no: number, prev: number, wire: number): number {
  return sizeNumber((no - prev - 1) * 4 + wire);
}

/** Write an `int32`, `sint32` or enum value sized by {@link sizeInt32}. */
export function writeInt32(w: Writer, x: number): void {
  const z = zigzag32(x);
  if (z < 248) w.buf[w.pos++] = z;
  else w.pos = writeNumber(w.buf, w.pos, z);
}

/** Write a `uint32` value sized by {@link sizeUint32}. */
export function writeUint32(w: Writer, x: number): void {
  if (x < 248) w.buf[w.pos++] = x;
  else w.pos = writeNumber(w.buf, w.pos, x);
}

/** Write an `int64` or `sint64` value sized by {@link sizeInt64}. */
export function writeInt64(w: Writer, x: bigint): void {
  const n = smallSigned(x);
  if (n !== n) w.pos = writeBigInt(w.buf, w.pos, zigzag64(x));
  else w.pos = writeNumber(w.buf, w.pos, zigzag32(n));
}

/** Write a `uint64` value sized by {@link sizeUint64}. */
export function writeUint64(w: Writer, x: bigint): void {
  const n = smallUnsigned(x);
  if (n < 0) w.pos = writeBigInt(w.buf, w.pos, x);
  else w.pos = writeNumber(w.buf, w.pos, n);
}

/** Write a `bool` value. */
export function writeBool(w: Writer, x: boolean): void {
  w.buf[w.pos++] = x ? 1 : 0;
}

/**
 * Eight bytes one float or 64-bit integer is stored into, to copy its bytes out big-endian:
 * a single fixed-width value costs a few byte copies instead of a DataView over the output.
 */
const SCRATCH = /* @__PURE__ */ new ArrayBuffer(8);
const SCRATCH_F64 = /* @__PURE__ */ new Float64Array(SCRATCH);
const SCRATCH_F32 = /* @__PURE__ */ new Float32Array(SCRATCH);
const SCRATCH_U64 = /* @__PURE__ */ new BigUint64Array(SCRATCH);
const SCRATCH_BYTES = /* @__PURE__ */ new Uint8Array(SCRATCH);
/** Whether the platform stores the low byte first (then the scratch's bytes go out reversed). */
const LITTLE_ENDIAN = /* @__PURE__ */ new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The scratch's first `width` bytes, big-endian, at `pos`. */
function putScratch(b: Uint8Array, pos: number, width: number): void {
  if (LITTLE_ENDIAN) for (let i = 0; i < width; i++) b[pos + i] = SCRATCH_BYTES[width - 1 - i]!;
  else for (let i = 0; i < width; i++) b[pos + i] = SCRATCH_BYTES[i]!;
}

/** The 32 bits of the integer `x` big-endian at `pos` (a byte store keeps the low 8 bits). */
function put32(b: Uint8Array, pos: number, x: number): void {
  b[pos] = x >>> 24;
  b[pos + 1] = x >>> 16;
  b[pos + 2] = x >>> 8;
  b[pos + 3] = x;
}

/** Write a fixed-width value of `kind` sized by {@link sizeFixed}. */
export function writeFixed(w: Writer, kind: Kind, x: unknown): void {
  const b = w.buf;
  const pos = w.pos;
  switch (kind) {
    case Kind.Fixed32:
    case Kind.Sfixed32:
      put32(b, pos, x as number);
      w.pos = pos + 4;
      return;
    case Kind.Float:
      // SPEC §3.5: every NaN is written as 7F C0 00 00.
      if (x !== x) put32(b, pos, 0x7fc00000);
      else {
        SCRATCH_F32[0] = x as number;
        putScratch(b, pos, 4);
      }
      w.pos = pos + 4;
      return;
    case Kind.Fixed64:
    case Kind.Sfixed64:
      // A negative sfixed64 is stored as its two's complement (modulo 2^64).
      SCRATCH_U64[0] = x as bigint;
      putScratch(b, pos, 8);
      w.pos = pos + 8;
      return;
    default:
      if (x !== x) {
        put32(b, pos, 0x7ff80000);
        put32(b, pos + 4, 0);
      } else {
        SCRATCH_F64[0] = x as number;
        putScratch(b, pos, 8);
      }
      w.pos = pos + 8;
  }
}

/** Write a `string` value with the length {@link sizeString} recorded. */
export function writeString(w: Writer, p: Plan, x: string): void {
  const n = p.lens[p.li++]!;
  w.pos = writeUtf8(w.buf, writeNumber(w.buf, w.pos, n), x, n);
}

/** Write a `bytes` value with its length prefix. */
export function writeBytes(w: Writer, x: Uint8Array): void {
  w.pos = writeNumber(w.buf, w.pos, x.length);
  w.buf.set(x, w.pos);
  w.pos += x.length;
}

/** Write a nested message of `type` with the length {@link sizeNested} recorded. */
export function writeNested(w: Writer, p: Plan, type: EncodeTarget, x: Record<string, unknown>): void {
  w.pos = writeNumber(w.buf, w.pos, p.lens[p.li++]!);
  type.writeTo(w, p, x);
}

/** Write a non-empty repeated field's payload as {@link sizeList} sized it. */
export function writeList(w: Writer, p: Plan, kind: Kind, msg: EncodeTarget | undefined, list: unknown[]): void {
  w.pos = writeNumber(w.buf, w.pos, p.lens[p.li++]!);
  writeElements(w, p, kind, msg, list);
}

/** Write a non-empty map field's payload as {@link sizeMap} sized and ordered it. */
export function writeMap(
  w: Writer,
  p: Plan,
  keyKind: Kind,
  kind: Kind,
  msg: EncodeTarget | undefined,
  map: Map<unknown, unknown>,
): void {
  w.pos = writeNumber(w.buf, w.pos, p.lens[p.li++]!);
  // null: the map iterates in key order (see sizeEntries).
  const entries = p.maps[p.mi++]!;
  if (entries === null) {
    const values = map.values();
    if (keyKind === Kind.String) {
      if (kind === Kind.Message) {
        for (const k of map.keys()) {
          writeString(w, p, k as string);
          writeNested(w, p, msg!, values.next().value as Record<string, unknown>);
        }
      } else {
        for (const k of map.keys()) {
          writeString(w, p, k as string);
          writeValue(w, p, kind, msg, values.next().value);
        }
      }
    } else {
      for (const k of map.keys()) {
        writeValue(w, p, keyKind, undefined, k);
        writeValue(w, p, kind, msg, values.next().value);
      }
    }
    return;
  }
  for (let i = 0; i < entries.length; i++) {
    const [k, val] = entries[i]!;
    writeValue(w, p, keyKind, undefined, k);
    writeValue(w, p, kind, msg, val);
  }
}

function writeValue(w: Writer, p: Plan, kind: Kind, msg: EncodeTarget | undefined, x: unknown): void {
  switch (kind) {
    case Kind.Int32:
    case Kind.Sint32:
    case Kind.Enum:
      writeInt32(w, x as number);
      return;
    case Kind.Uint32:
      writeUint32(w, x as number);
      return;
    case Kind.Int64:
    case Kind.Sint64:
      writeInt64(w, x as bigint);
      return;
    case Kind.Uint64:
      writeUint64(w, x as bigint);
      return;
    case Kind.Bool:
      writeBool(w, x as boolean);
      return;
    case Kind.Fixed32:
    case Kind.Sfixed32:
    case Kind.Float:
    case Kind.Fixed64:
    case Kind.Sfixed64:
    case Kind.Double:
      writeFixed(w, kind, x);
      return;
    case Kind.String:
      writeString(w, p, x as string);
      return;
    case Kind.Bytes:
      writeBytes(w, x as Uint8Array);
      return;
    default:
      writeNested(w, p, msg!, x as Record<string, unknown>);
  }
}

/** Packed runs of 8-byte elements shorter than this are written without a DataView. */
const SHORT_RUN = 16;

/** Write a repeated field's elements, checked by {@link sizeElements}: one loop per common kind. */
function writeElements(w: Writer, p: Plan, kind: Kind, msg: EncodeTarget | undefined, list: unknown[]): void {
  const b = w.buf;
  const len = list.length;
  let pos = w.pos;
  let view: DataView;
  if (len < SHORT_RUN && (kind === Kind.Double || kind === Kind.Fixed64)) {
    // A short run is not worth a DataView: its elements go through the scratch bytes.
    for (let i = 0; i < len; i++) writeFixed(w, kind, list[i]);
    return;
  }
  switch (kind) {
    // Long packed runs of doubles and fixed64s go through a view of the output, made here.
    case Kind.Double:
      view = w.view;
      for (let i = 0; i < len; i++, pos += 8) {
        const x = list[i] as number;
        if (x !== x) {
          view.setUint32(pos, 0x7ff80000); // SPEC §3.5: the one NaN
          view.setUint32(pos + 4, 0);
        } else view.setFloat64(pos, x);
      }
      w.pos = pos;
      return;
    case Kind.Fixed32:
      for (let i = 0; i < len; i++, pos += 4) put32(b, pos, list[i] as number);
      w.pos = pos;
      return;
    case Kind.Fixed64:
      view = w.view;
      for (let i = 0; i < len; i++, pos += 8) view.setBigUint64(pos, list[i] as bigint);
      w.pos = pos;
      return;
    case Kind.Int32:
    case Kind.Sint32:
    case Kind.Enum:
      for (let i = 0; i < len; i++) {
        const z = zigzag32(list[i] as number);
        if (z < 248) b[pos++] = z;
        else pos = writeNumber(b, pos, z);
      }
      break;
    case Kind.Uint32:
      for (let i = 0; i < len; i++) {
        const x = list[i] as number;
        if (x < 248) b[pos++] = x;
        else pos = writeNumber(b, pos, x);
      }
      break;
    case Kind.Uint64:
      for (let i = 0; i < len; i++) {
        const x = list[i] as bigint;
        const v = smallUnsigned(x);
        if (v < 0) pos = writeBigInt(b, pos, x);
        else if (v < 248) b[pos++] = v;
        else pos = writeNumber(b, pos, v);
      }
      break;
    case Kind.Int64:
    case Kind.Sint64:
      for (let i = 0; i < len; i++) {
        const x = list[i] as bigint;
        const v = smallSigned(x);
        if (v !== v) pos = writeBigInt(b, pos, zigzag64(x));
        else {
          const z = zigzag32(v);
          if (z < 248) b[pos++] = z;
          else pos = writeNumber(b, pos, z);
        }
      }
      break;
    default:
      for (let i = 0; i < len; i++) writeValue(w, p, kind, msg, list[i]);
      return;
  }
  w.pos = pos;
}

function writeUnknown(w: Writer, u: UnknownField, prev: number): void {
  w.pos = writeNumber(w.buf, w.pos, (u.no - prev - 1) * 4 + u.wireType);
  if (u.wireType === 2) w.pos = writeNumber(w.buf, w.pos, u.data.length);
  w.buf.set(u.data, w.pos);
  w.pos += u.data.length;
}

/** Write a message's content as sized by {@link sizeMessage} with the same plan. */
export function writeMessage(w: Writer, p: Plan, type: EncodeTarget, v: Record<string, unknown>): void {
  const unknown = v.$unknown as UnknownField[] | undefined;
  let ui = 0;
  let prev = 0;
  for (const f of type.fieldList) {
    const x = present(f, v);
    if (x === undefined) continue;
    if (unknown !== undefined) {
      while (ui < unknown.length && unknown[ui]!.no < f.no) {
        writeUnknown(w, unknown[ui]!, prev);
        prev = unknown[ui++]!.no;
      }
    }
    w.pos = writeNumber(w.buf, w.pos, (f.no - prev - 1) * 4 + f.wire);
    prev = f.no;
    const msg = f.msg as unknown as EncodeTarget | undefined;
    if (f.card === Card.Single) writeValue(w, p, f.kind, msg, x);
    else if (f.card === Card.Repeated) writeList(w, p, f.kind, msg, x as unknown[]);
    else writeMap(w, p, f.keyKind, f.kind, msg, x as Map<unknown, unknown>);
  }
  if (unknown !== undefined) {
    while (ui < unknown.length) {
      writeUnknown(w, unknown[ui]!, prev);
      prev = unknown[ui++]!.no;
    }
  }
}
