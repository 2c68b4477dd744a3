/**
 * The strict single-pass decoder (SPEC §10): one forward walk over the bytes, each check
 * in the order of SPEC §10.1, beside the read it guards.
 *
 * Paths are built only while an error travels outwards: each level pushes its segment.
 */

import { DecodeError, keySegment } from "./errors.js";
import type { Reader } from "./reader.js";
import { Card, Kind, Presence, fixedWidth, type Field, type UnknownField } from "./schema.js";
import { compareBytes, decodeKey, decodeUtf8 } from "./utf8.js";
import { bigFromNumber, unzigzag32, unzigzagToBig } from "./varint.js";

/** The field numbers' upper bound, 2^29 − 1 (SPEC §4.3). */
export const NMAX = 536870911;

const U32_MAX = 0xffff_ffff;

/** What the decoder needs of a message type. */
export interface DecodeTarget {
  /** Fields ascending by number. */
  readonly fieldList: readonly Field[];
  /** Required fields ascending by number. */
  readonly requiredList: readonly Field[];
  /**
   * Whether a preserving decode keeps this type's unknown records: every type but the
   * well-known ones (package `google.protobuf`), which refuse them as in strict mode
   * (SPEC §8.2's default preserving set).
   */
  readonly keepsUnknown: boolean;
  /** A new value with every field absent or default. */
  create(): object;
  /**
   * Decode a value of the type from `r.pos..end` at `depth`: the type's generated decoder,
   * or {@link decodeMessage} over its field list.
   */
  decodeFrom(r: Reader, end: number, depth: number): object;
}

export type { Reader };

/** Decode the message content `r.pos..end` at `depth` (SPEC §10.1). */
export function decodeMessage(
  r: Reader,
  type: DecodeTarget,
  end: number,
  depth: number,
): Record<string, unknown> {
  const v = type.create() as Record<string, unknown>;
  const fields = type.fieldList;
  let fi = 0;
  let prev = 0;
  let cur: Field | undefined;
  let unknownNo = 0;
  let unknown: UnknownField[] | undefined;
  try {
    while (r.pos < end) {
      const kAt = r.pos;
      // Step 1: the key (O1, O2), its number (O3).
      const k = r.num(end);
      const n = prev + 1 + Math.floor(k / 4);
      if (n > NMAX) throw new DecodeError("field-number-overflow", kAt);
      const w = k % 4;
      while (fi < fields.length && fields[fi]!.no < n) fi++;
      const f = fi < fields.length && fields[fi]!.no === n ? fields[fi]! : undefined;
      if (f === undefined) {
        unknownNo = n;
        if (!r.preserving || !type.keepsUnknown) throw new DecodeError("unknown-field", kAt); // O4
        (unknown ??= []).push(readUnknown(r, n, w, end));
        r.unknown++;
        unknownNo = 0;
        prev = n;
        continue;
      }
      cur = f;
      if (w !== f.wire) throw new DecodeError("wire-type-mismatch", kAt); // O5
      if (f.oneof !== undefined && f.get(v) !== undefined) {
        throw new DecodeError("oneof-conflict", kAt); // O6
      }
      if (f.opensMessage && depth + 1 > r.maxDepth) {
        throw new DecodeError("depth-limit-exceeded", kAt); // O7
      }
      // Step 2: the payload.
      if (f.card === Card.Single) {
        const x = readValue(r, f.kind, f, end, depth);
        if (f.oneof !== undefined) f.set(v, { case: f.prop, value: x });
        else {
          if (f.presence === Presence.Implicit && isDefault(f.kind, x)) {
            throw new DecodeError("default-value-present", kAt); // O12
          }
          f.set(v, x);
        }
      } else if (f.card === Card.Repeated) f.set(v, readRepeated(r, f, kAt, end, depth));
      else f.set(v, readMap(r, f, kAt, end, depth));
      cur = undefined;
      prev = n;
    }
  } catch (e) {
    if (e instanceof DecodeError) {
      if (cur !== undefined) e.push(cur.seg);
      else if (unknownNo !== 0) e.push("." + unknownNo);
    }
    throw e;
  }
  // Step 5: required fields at the end of the content (O16), lowest number first.
  for (const f of type.requiredList) {
    if (f.get(v) === undefined) throw new DecodeError("missing-required-field", end).push(f.seg);
  }
  if (unknown !== undefined) v.$unknown = unknown;
  return v;
}

/** The payload of an unknown record in preserving mode: well-formed, not interpreted (SPEC §8). */
export function readUnknown(r: Reader, no: number, w: number, end: number): UnknownField {
  const at = r.pos;
  let from = at;
  switch (w) {
    case 0:
      r.big(end);
      break;
    case 1:
      r.need(8, end);
      r.pos += 8;
      break;
    case 2: {
      const e = r.len(end);
      from = r.pos;
      r.pos = e;
      break;
    }
    default:
      r.need(4, end);
      r.pos += 4;
  }
  return { no, wireType: w as UnknownField["wireType"], data: r.buf.slice(from, r.pos) };
}

/** Whether `x` is the default of `kind` (SPEC §5.1): +0.0 is, −0.0 and NaN are not. */
export function isDefault(kind: Kind, x: unknown): boolean {
  switch (kind) {
    case Kind.Bool:
      return x === false;
    case Kind.String:
      return x === "";
    case Kind.Bytes:
      return (x as Uint8Array).length === 0;
    case Kind.Float:
    case Kind.Double:
      return Object.is(x, 0);
    default:
      return x === 0 || x === 0n;
  }
}

/** An `int32`, `sint32` or enum value (O8). */
export function readInt32(r: Reader, end: number): number {
  const at = r.pos;
  const u = r.num(end);
  if (u > U32_MAX) throw new DecodeError("integer-out-of-range", at); // O8
  return unzigzag32(u);
}

/** A `uint32` value (O8). */
export function readUint32(r: Reader, end: number): number {
  const at = r.pos;
  const u = r.num(end);
  if (u > U32_MAX) throw new DecodeError("integer-out-of-range", at); // O8
  return u;
}

/** A `bool` value (O9). */
export function readBool(r: Reader, end: number): boolean {
  const at = r.pos;
  const u = r.num(end);
  if (u > 1) throw new DecodeError("invalid-bool", at); // O9
  return u === 1;
}

/** A `string` value: its length, then well-formed UTF-8 (O11). */
export function readString(r: Reader, end: number): string {
  const e = r.len(end);
  const s = decodeUtf8(r.buf, r.pos, e);
  if (typeof s === "number") throw new DecodeError("invalid-utf8", s); // O11
  r.pos = e;
  return s;
}

/** A `bytes` value: its length, then a copy of its content. */
export function readBytes(r: Reader, end: number): Uint8Array {
  const e = r.len(end);
  const b = r.buf.slice(r.pos, e);
  r.pos = e;
  return b;
}

/**
 * One value of `kind` at `r.pos` within `end`: a record's payload or an element, with the
 * scalar checks of SPEC §3 and §7 (O1, O2, O8–O11) and nested messages (depth + 1).
 */
export function readValue(r: Reader, kind: Kind, f: Field | undefined, end: number, depth: number): unknown {
  const at = r.pos;
  switch (kind) {
    case Kind.Int32:
    case Kind.Sint32:
    case Kind.Enum:
      return readInt32(r, end);
    case Kind.Uint32:
      return readUint32(r, end);
    case Kind.Int64:
    case Kind.Sint64:
      return r.zigzagBig(end);
    case Kind.Uint64:
      return r.big(end);
    case Kind.Bool:
      return readBool(r, end);
    case Kind.Fixed32:
      r.need(4, end);
      r.pos = at + 4;
      return r.u32(at);
    case Kind.Sfixed32:
      r.need(4, end);
      r.pos = at + 4;
      return r.u32(at) | 0;
    case Kind.Float: {
      r.need(4, end);
      const x = r.fixed(at, 4).getFloat32(0);
      // SPEC §3.5: one NaN, 7F C0 00 00 (O10). The bits are looked at only for a NaN.
      if (x !== x && r.u32(at) !== 0x7fc00000) {
        throw new DecodeError("non-canonical-nan", at);
      }
      r.pos = at + 4;
      return x;
    }
    case Kind.Fixed64:
      r.need(8, end);
      r.pos = at + 8;
      return r.fixed(at, 8).getBigUint64(0);
    case Kind.Sfixed64:
      r.need(8, end);
      r.pos = at + 8;
      return r.fixed(at, 8).getBigInt64(0);
    case Kind.Double: {
      r.need(8, end);
      const x = r.fixed(at, 8).getFloat64(0);
      // SPEC §3.5: one NaN, 7F F8 00 00 00 00 00 00 (O10).
      if (x !== x && (r.u32(at) !== 0x7ff80000 || r.u32(at + 4) !== 0)) {
        throw new DecodeError("non-canonical-nan", at);
      }
      r.pos = at + 8;
      return x;
    }
    case Kind.String:
      return readString(r, end);
    case Kind.Bytes:
      return readBytes(r, end);
    default: {
      // A nested message is exactly its content (SPEC §9.1), one level deeper (§9.3).
      return readNested(r, f!.msg as unknown as DecodeTarget, end, depth);
    }
  }
}

/** A nested message of `type`: its length, then exactly its content one level deeper (SPEC §9.1, §9.3). */
export function readNested(r: Reader, type: DecodeTarget, end: number, depth: number): object {
  const e = r.len(end);
  return type.decodeFrom(r, e, depth + 1);
}

/** A repeated record's payload (SPEC §6.1, §6.2): O13, O14, then each element. */
export function readRepeated(r: Reader, f: Field, kAt: number, end: number, depth: number): unknown[] {
  const lAt = r.pos;
  const e = r.len(end);
  if (e === r.pos) throw new DecodeError("empty-repeated", kAt); // O13
  const width = fixedWidth(f.kind);
  if (width !== 0 && (e - r.pos) % width !== 0) {
    throw new DecodeError("packed-length-mismatch", lAt); // O14
  }
  return readElements(r, f, e, depth);
}

/** A map record's payload (SPEC §6.3, §6.4): O13, then entries in strictly ascending key order. */
export function readMap(r: Reader, f: Field, kAt: number, end: number, depth: number): Map<unknown, unknown> {
  return readMapInto(r, f, kAt, end, depth, new Map());
}

/**
 * {@link readMap} into `out`, an empty map: generated decoders pass the one the new value
 * was made with (a map field has one record at most, so it is still empty), sparing a
 * second `Map` per decoded map.
 */
export function readMapInto(
  r: Reader,
  f: Field,
  kAt: number,
  end: number,
  depth: number,
  out: Map<unknown, unknown>,
): Map<unknown, unknown> {
  const e = r.len(end);
  if (e === r.pos) throw new DecodeError("empty-repeated", kAt); // O13
  if (f.keyKind === Kind.String) return readStringKeyed(r, f, e, depth, out);
  let prevKey: unknown;
  let first = true;
  while (r.pos < e) {
    const ka = r.pos;
    // Errors in the key element carry the map's path: the key is not known yet.
    const key = readValue(r, f.keyKind, f, e, depth) as number | bigint | boolean;
    // SPEC §6.4: numbers signed or unsigned as decoded, false < true (O15).
    if (!first && !((prevKey as number) < (key as number))) {
      throw new DecodeError("map-key-order", ka).push(keySegment(key));
    }
    first = false;
    prevKey = key;
    try {
      out.set(key, readValue(r, f.kind, f, e, depth));
    } catch (err) {
      if (err instanceof DecodeError) err.push(keySegment(key));
      throw err;
    }
  }
  return out;
}

/**
 * The entries `r.pos..e` of a map with string keys: each key read as {@link readString}
 * reads it, then compared with the previous key on their UTF-8 bytes (code point order,
 * SPEC §6.4, O15).
 */
function readStringKeyed(r: Reader, f: Field, e: number, depth: number, out: Map<unknown, unknown>): Map<unknown, unknown> {
  const buf = r.buf;
  const kind = f.kind;
  let prevStart = 0;
  let prevEnd = -1;
  while (r.pos < e) {
    const ka = r.pos;
    // Errors in the key element carry the map's path: the key is not known yet.
    const ke = r.len(e);
    const start = r.pos;
    const key = decodeKey(buf, start, ke);
    if (typeof key === "number") throw new DecodeError("invalid-utf8", key); // O11
    r.pos = ke;
    if (prevEnd >= 0 && compareBytes(buf, prevStart, prevEnd, start, ke) >= 0) {
      throw new DecodeError("map-key-order", ka).push(keySegment(key));
    }
    prevStart = start;
    prevEnd = ke;
    try {
      out.set(key, kind === Kind.String ? readString(r, e) : readValue(r, kind, f, e, depth));
    } catch (err) {
      if (err instanceof DecodeError) err.push(keySegment(key));
      throw err;
    }
  }
  return out;
}

/**
 * The elements of a repeated record's payload `r.pos..e`: the same checks as
 * {@link readValue} element by element, with one loop per kind for the common ones so that
 * a packed run is not a switch per element. A varint element past the one-byte tier takes
 * {@link readValue}, so its errors are exactly the general path's; an error gets the
 * element's index pushed to its path.
 *
 * Each kind makes its array at its own allocation site: V8 gives the arrays of one site
 * the most general element kind that site has seen, so one shared `[]` holding bigints
 * once would make every later array of doubles box each element.
 */
function readElements(r: Reader, f: Field, e: number, depth: number): unknown[] {
  const buf = r.buf;
  let p = r.pos;
  // The array being filled, whose length is the index of a failing element, or that
  // index itself for a pre-sized run.
  let out: unknown[] = [];
  let index = -1;
  try {
    switch (f.kind) {
      case Kind.Double: {
        const view = r.view;
        // The length is a multiple of 8 (O14): every element is present.
        const o: number[] = new Array<number>((e - p) / 8);
        for (let i = 0; p < e; p += 8, i++) {
          const x = view.getFloat64(p);
          if (x !== x && (view.getUint32(p) !== 0x7ff80000 || view.getUint32(p + 4) !== 0)) {
            index = i;
            throw new DecodeError("non-canonical-nan", p); // O10
          }
          o[i] = x;
        }
        r.pos = e;
        return o;
      }
      case Kind.Float: {
        const view = r.view;
        const o: number[] = new Array<number>((e - p) / 4);
        for (let i = 0; p < e; p += 4, i++) {
          const x = view.getFloat32(p);
          if (x !== x && view.getUint32(p) !== 0x7fc00000) {
            index = i;
            throw new DecodeError("non-canonical-nan", p); // O10
          }
          o[i] = x;
        }
        r.pos = e;
        return o;
      }
      case Kind.Fixed32: {
        const view = r.view;
        const o: number[] = new Array<number>((e - p) / 4);
        for (let i = 0; p < e; p += 4, i++) o[i] = view.getUint32(p);
        r.pos = e;
        return o;
      }
      case Kind.Sfixed32: {
        const view = r.view;
        const o: number[] = new Array<number>((e - p) / 4);
        for (let i = 0; p < e; p += 4, i++) o[i] = view.getInt32(p);
        r.pos = e;
        return o;
      }
      case Kind.Fixed64: {
        const view = r.view;
        const o: bigint[] = new Array<bigint>((e - p) / 8);
        for (let i = 0; p < e; p += 8, i++) o[i] = view.getBigUint64(p);
        r.pos = e;
        return o;
      }
      case Kind.Sfixed64: {
        const view = r.view;
        const o: bigint[] = new Array<bigint>((e - p) / 8);
        for (let i = 0; p < e; p += 8, i++) o[i] = view.getBigInt64(p);
        r.pos = e;
        return o;
      }
      case Kind.Uint64: {
        const o: bigint[] = [];
        out = o;
        while (r.pos < e) {
          const t = buf[r.pos]!;
          if (t < 0xf8) {
            o.push(bigFromNumber(t));
            r.pos++;
          } else o.push(r.big(e));
        }
        return o;
      }
      case Kind.Int64:
      case Kind.Sint64: {
        const o: bigint[] = [];
        out = o;
        while (r.pos < e) {
          const t = buf[r.pos]!;
          if (t < 0xf8) {
            o.push(unzigzagToBig(t));
            r.pos++;
          } else o.push(r.zigzagBig(e));
        }
        return o;
      }
      case Kind.Int32:
      case Kind.Sint32:
      case Kind.Enum: {
        const o: number[] = [];
        out = o;
        while (r.pos < e) {
          const t = buf[r.pos]!;
          if (t < 0xf8) {
            o.push(unzigzag32(t));
            r.pos++;
          } else o.push(readValue(r, f.kind, f, e, depth) as number);
        }
        return o;
      }
      case Kind.Uint32: {
        const o: number[] = [];
        out = o;
        while (r.pos < e) {
          const t = buf[r.pos]!;
          if (t < 0xf8) {
            o.push(t);
            r.pos++;
          } else o.push(readValue(r, f.kind, f, e, depth) as number);
        }
        return o;
      }
      default: {
        const o: unknown[] = [];
        out = o;
        while (r.pos < e) o.push(readValue(r, f.kind, f, e, depth));
        return o;
      }
    }
  } catch (err) {
    if (err instanceof DecodeError) err.push(`[${index >= 0 ? index : out.length}]`);
    throw err;
  }
}
