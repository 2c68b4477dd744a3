/**
 * The canonical encoder (SPEC §9): two linear passes. The size pass checks the value,
 * records every nested message's and string's length and every map's sorted entries in
 * visiting order; the write pass consumes them in the same order into one exact buffer.
 */

import { EncodeError, keySegment } from "./errors.js";
import { Card, Kind, Presence, fixedWidth, type Field, type UnknownField } from "./schema.js";
import { compareCodePoints, utf8Length, writeUtf8 } from "./utf8.js";
import {
  U64_MAX,
  decode as decodeVarint,
  sizeBigInt,
  sizeNumber,
  writeBigInt,
  writeNumber,
  zigzag32,
  zigzag64,
} from "./varint.js";
import { NMAX } from "./decode.js";

/** What the encoder needs of a message type. */
export interface EncodeTarget {
  /** Fields ascending by number. */
  readonly fieldList: readonly Field[];
  /** The short type name, for paths. */
  readonly shortName: string;
}

/** Lengths and sorted maps from the size pass, in visiting order. */
export class Plan {
  lens: number[] = [];
  /** Per map in visiting order: its entries sorted, or null when it iterates in key order. */
  maps: ([unknown, unknown][] | null)[] = [];
  li = 0;
  mi = 0;
  constructor(readonly maxDepth: number) {}
}

/** 2^47: 64-bit values below it in magnitude take the number paths (zigzag stays below 2^48). */
const SMALL = 2 ** 47;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

function bad(code: EncodeError["code"], detail: string): EncodeError {
  return new EncodeError(code, detail);
}

/** The size of one value of `kind` (an element, or a record's payload). */
function sizeValue(p: Plan, kind: Kind, f: Field, x: unknown, depth: number): number {
  switch (kind) {
    case Kind.Int32:
    case Kind.Sint32:
    case Kind.Enum:
      // (x | 0) === x: an integer in int32's range (−0 included, as Number.isInteger has it).
      if (typeof x !== "number" || (x | 0) !== x) {
        throw bad("integer-out-of-range", `holds ${String(x)}, not an int32`);
      }
      return x >= -124 && x <= 123 ? 1 : sizeNumber(zigzag32(x));
    case Kind.Uint32:
      // x >>> 0 === x: an integer in uint32's range.
      if (typeof x !== "number" || x >>> 0 !== x) {
        throw bad("integer-out-of-range", `holds ${String(x)}, not a uint32`);
      }
      return x < 248 ? 1 : sizeNumber(x);
    case Kind.Int64:
    case Kind.Sint64: {
      if (typeof x !== "bigint") throw bad("integer-out-of-range", `holds ${String(x)}, not a bigint`);
      // Below 2^47 in magnitude the zigzag image is an exact number: no bigint arithmetic.
      const n = Number(x);
      if (n > -SMALL && n < SMALL) return sizeNumber(zigzag32(n));
      if (x < I64_MIN || x > I64_MAX) {
        throw bad("integer-out-of-range", `holds ${String(x)}, not an int64`);
      }
      return sizeBigInt(zigzag64(x));
    }
    case Kind.Uint64: {
      if (typeof x !== "bigint") throw bad("integer-out-of-range", `holds ${String(x)}, not a bigint`);
      const n = Number(x);
      if (n >= 0 && n < SMALL) return sizeNumber(n);
      if (x < 0n || x > U64_MAX) {
        throw bad("integer-out-of-range", `holds ${String(x)}, not a uint64`);
      }
      return sizeBigInt(x);
    }
    case Kind.Bool:
      if (typeof x !== "boolean") throw bad("invalid-value", `holds ${String(x)}, not a boolean`);
      return 1;
    case Kind.Fixed32:
    case Kind.Sfixed32:
    case Kind.Float:
    case Kind.Fixed64:
    case Kind.Sfixed64:
    case Kind.Double:
      checkFixed(kind, x);
      return fixedWidth(kind);
    case Kind.String: {
      if (typeof x !== "string") throw bad("invalid-value", "holds a non-string");
      const n = utf8Length(x);
      if (n < 0) throw bad("invalid-utf8", "holds a lone surrogate, which UTF-8 cannot spell");
      p.lens.push(n);
      return sizeNumber(n) + n;
    }
    case Kind.Bytes:
      if (!(x instanceof Uint8Array)) throw bad("invalid-value", "holds no Uint8Array");
      return sizeNumber(x.length) + x.length;
    default: {
      if (typeof x !== "object" || x === null) throw bad("invalid-value", "holds no message");
      const slot = p.lens.length;
      p.lens.push(0);
      const n = sizeMessage(p, f.msg as unknown as EncodeTarget, x as Record<string, unknown>, depth + 1);
      p.lens[slot] = n;
      return sizeNumber(n) + n;
    }
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
      if (typeof x !== "bigint" || x < 0n || x > U64_MAX) {
        throw bad("integer-out-of-range", `holds ${String(x)}, not a fixed64 bigint`);
      }
      return;
    case Kind.Sfixed64:
      if (typeof x !== "bigint" || x < I64_MIN || x > I64_MAX) {
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
      throw bad("missing-required-field", "is required but unset").push(f.seg);
    }
    return undefined;
  }
  switch (f.card) {
    case Card.Repeated:
      if (!Array.isArray(x)) throw bad("invalid-value", "holds no array").push(f.seg);
      return x.length === 0 ? undefined : x;
    case Card.Map:
      if (!(x instanceof Map)) throw bad("invalid-value", "holds no Map").push(f.seg);
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
  if (f.card === Card.Single) return sizeValue(p, f.kind, f, x, depth);
  const slot = p.lens.length;
  p.lens.push(0);
  let n = 0;
  if (f.card === Card.Repeated) {
    n = sizeElements(p, f, x as unknown[], depth);
  } else {
    n = sizeMap(p, f, x as Map<unknown, unknown>, depth);
  }
  p.lens[slot] = n;
  return sizeNumber(n) + n;
}

/**
 * The size of a map's entries. A map already in key order (every decoded one, and most
 * built ones) is written as it iterates and costs the plan nothing; another is sorted into
 * an entry list the write pass takes (SPEC §6.4).
 */
function sizeMap(p: Plan, f: Field, map: Map<unknown, unknown>, depth: number): number {
  const isString = f.keyKind === Kind.String;
  let sorted = true;
  let first = true;
  let prev: unknown;
  for (const [k] of map) {
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
    p.maps.push(null);
    for (const [k, val] of map) {
      try {
        n += sizeValue(p, f.keyKind, f, k, depth);
        n += sizeValue(p, f.kind, f, val, depth);
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
  const order = keyOrder(f.keyKind);
  entries.sort(order);
  p.maps.push(entries);
  for (let i = 0; i < entries.length; i++) {
    const [k, val] = entries[i]!;
    try {
      n += sizeValue(p, f.keyKind, f, k, depth);
      if (i > 0 && order(entries[i - 1]!, entries[i]!) === 0) throw bad("invalid-value", "holds two equal keys");
      n += sizeValue(p, f.kind, f, val, depth);
    } catch (e) {
      if (e instanceof EncodeError) e.push(keySegment(k as string));
      throw e;
    }
  }
  return n;
}

/** The error {@link sizeValue} gives for element `i` of `list`, with its index in the path. */
function elementError(p: Plan, f: Field, list: unknown[], i: number, depth: number): unknown {
  try {
    sizeValue(p, f.kind, f, list[i], depth);
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
function sizeElements(p: Plan, f: Field, list: unknown[], depth: number): number {
  const len = list.length;
  let n = 0;
  switch (f.kind) {
    case Kind.Double:
    case Kind.Float:
      for (let i = 0; i < len; i++) if (typeof list[i] !== "number") throw elementError(p, f, list, i, depth);
      return len * (f.kind === Kind.Double ? 8 : 4);
    case Kind.Fixed32:
      for (let i = 0; i < len; i++) {
        const x = list[i];
        if (typeof x !== "number" || x >>> 0 !== x) throw elementError(p, f, list, i, depth);
      }
      return len * 4;
    case Kind.Sfixed32:
      for (let i = 0; i < len; i++) {
        const x = list[i];
        if (typeof x !== "number" || (x | 0) !== x) throw elementError(p, f, list, i, depth);
      }
      return len * 4;
    case Kind.Fixed64:
      for (let i = 0; i < len; i++) {
        const x = list[i];
        if (typeof x !== "bigint" || x < 0n || x > U64_MAX) throw elementError(p, f, list, i, depth);
      }
      return len * 8;
    case Kind.Sfixed64:
      for (let i = 0; i < len; i++) {
        const x = list[i];
        if (typeof x !== "bigint" || x < I64_MIN || x > I64_MAX) throw elementError(p, f, list, i, depth);
      }
      return len * 8;
    case Kind.Int32:
    case Kind.Sint32:
    case Kind.Enum:
      for (let i = 0; i < len; i++) {
        const x = list[i];
        if (typeof x !== "number" || (x | 0) !== x) throw elementError(p, f, list, i, depth);
        n += x >= -124 && x <= 123 ? 1 : sizeNumber(zigzag32(x));
      }
      return n;
    case Kind.Uint32:
      for (let i = 0; i < len; i++) {
        const x = list[i];
        if (typeof x !== "number" || x >>> 0 !== x) throw elementError(p, f, list, i, depth);
        n += x < 248 ? 1 : sizeNumber(x);
      }
      return n;
    case Kind.Uint64:
      for (let i = 0; i < len; i++) {
        const x = list[i];
        if (typeof x !== "bigint") throw elementError(p, f, list, i, depth);
        const v = Number(x);
        if (v >= 0 && v < SMALL) n += v < 248 ? 1 : sizeNumber(v);
        else if (x < 0n || x > U64_MAX) throw elementError(p, f, list, i, depth);
        else n += sizeBigInt(x);
      }
      return n;
    case Kind.Int64:
    case Kind.Sint64:
      for (let i = 0; i < len; i++) {
        const x = list[i];
        if (typeof x !== "bigint") throw elementError(p, f, list, i, depth);
        const v = Number(x);
        if (v > -SMALL && v < SMALL) n += v >= -124 && v <= 123 ? 1 : sizeNumber(zigzag32(v));
        else if (x < I64_MIN || x > I64_MAX) throw elementError(p, f, list, i, depth);
        else n += sizeBigInt(zigzag64(x));
      }
      return n;
    default:
      for (let i = 0; i < len; i++) {
        try {
          n += sizeValue(p, f.kind, f, list[i], depth);
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
  if (depth > p.maxDepth) {
    throw bad("depth-limit-exceeded", `nests messages deeper than ${p.maxDepth}`);
  }
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

function writeValue(w: Writer, p: Plan, kind: Kind, f: Field, x: unknown): void {
  const b = w.buf;
  switch (kind) {
    case Kind.Int32:
    case Kind.Sint32:
    case Kind.Enum:
      w.pos = writeNumber(b, w.pos, zigzag32(x as number));
      return;
    case Kind.Uint32:
      w.pos = writeNumber(b, w.pos, x as number);
      return;
    case Kind.Int64:
    case Kind.Sint64: {
      const n = Number(x as bigint);
      if (n > -SMALL && n < SMALL) w.pos = writeNumber(b, w.pos, zigzag32(n));
      else w.pos = writeBigInt(b, w.pos, zigzag64(x as bigint));
      return;
    }
    case Kind.Uint64: {
      const n = Number(x as bigint);
      if (n < SMALL) w.pos = writeNumber(b, w.pos, n);
      else w.pos = writeBigInt(b, w.pos, x as bigint);
      return;
    }
    case Kind.Bool:
      b[w.pos++] = x ? 1 : 0;
      return;
    case Kind.Fixed32:
      w.view.setUint32(w.pos, x as number);
      w.pos += 4;
      return;
    case Kind.Sfixed32:
      w.view.setInt32(w.pos, x as number);
      w.pos += 4;
      return;
    case Kind.Float:
      // SPEC §3.5: every NaN is written as 7F C0 00 00.
      if (Number.isNaN(x)) w.view.setUint32(w.pos, 0x7fc00000);
      else w.view.setFloat32(w.pos, x as number);
      w.pos += 4;
      return;
    case Kind.Fixed64:
      w.view.setBigUint64(w.pos, x as bigint);
      w.pos += 8;
      return;
    case Kind.Sfixed64:
      w.view.setBigInt64(w.pos, x as bigint);
      w.pos += 8;
      return;
    case Kind.Double:
      if (Number.isNaN(x)) {
        w.view.setUint32(w.pos, 0x7ff80000);
        w.view.setUint32(w.pos + 4, 0);
      } else w.view.setFloat64(w.pos, x as number);
      w.pos += 8;
      return;
    case Kind.String: {
      const n = p.lens[p.li++]!;
      w.pos = writeUtf8(b, writeNumber(b, w.pos, n), x as string, n);
      return;
    }
    case Kind.Bytes: {
      const d = x as Uint8Array;
      w.pos = writeNumber(b, w.pos, d.length);
      b.set(d, w.pos);
      w.pos += d.length;
      return;
    }
    default:
      w.pos = writeNumber(b, w.pos, p.lens[p.li++]!);
      writeMessage(w, p, f.msg as unknown as EncodeTarget, x as Record<string, unknown>);
  }
}

/** Write a repeated field's elements, checked by {@link sizeElements}: one loop per common kind. */
function writeElements(w: Writer, p: Plan, f: Field, list: unknown[]): void {
  const b = w.buf;
  const view = w.view;
  const len = list.length;
  let pos = w.pos;
  switch (f.kind) {
    case Kind.Double:
      for (let i = 0; i < len; i++, pos += 8) {
        const x = list[i] as number;
        if (x !== x) {
          view.setUint32(pos, 0x7ff80000); // SPEC §3.5: the one NaN
          view.setUint32(pos + 4, 0);
        } else view.setFloat64(pos, x);
      }
      break;
    case Kind.Fixed32:
      for (let i = 0; i < len; i++, pos += 4) view.setUint32(pos, list[i] as number);
      break;
    case Kind.Fixed64:
      for (let i = 0; i < len; i++, pos += 8) view.setBigUint64(pos, list[i] as bigint);
      break;
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
        const v = Number(x);
        if (v < 248) b[pos++] = v;
        else if (v < SMALL) pos = writeNumber(b, pos, v);
        else pos = writeBigInt(b, pos, x);
      }
      break;
    case Kind.Int64:
    case Kind.Sint64:
      for (let i = 0; i < len; i++) {
        const x = list[i] as bigint;
        const v = Number(x);
        if (v > -SMALL && v < SMALL) {
          const z = zigzag32(v);
          if (z < 248) b[pos++] = z;
          else pos = writeNumber(b, pos, z);
        } else pos = writeBigInt(b, pos, zigzag64(x));
      }
      break;
    default:
      for (let i = 0; i < len; i++) writeValue(w, p, f.kind, f, list[i]);
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
    if (f.card === Card.Single) {
      writeValue(w, p, f.kind, f, x);
      continue;
    }
    w.pos = writeNumber(w.buf, w.pos, p.lens[p.li++]!);
    if (f.card === Card.Repeated) writeElements(w, p, f, x as unknown[]);
    else {
      // null: the map iterates in key order (see sizeMap).
      const entries = p.maps[p.mi++]!;
      for (const [k, val] of entries ?? (x as Map<unknown, unknown>)) {
        writeValue(w, p, f.keyKind, f, k);
        writeValue(w, p, f.kind, f, val);
      }
    }
  }
  if (unknown !== undefined) {
    while (ui < unknown.length) {
      writeUnknown(w, unknown[ui]!, prev);
      prev = unknown[ui++]!.no;
    }
  }
}
