/**
 * {@link MessageType}: one per generated message. It turns the generated field list into
 * the runtime's description on first use (so messages may refer to each other in any
 * order) and offers `encode`, `decode` and the length-delimited stream forms.
 */

import { decodeMessage, type DecodeTarget } from "./decode.js";
import {
  Plan,
  releasePlan,
  takePlan,
  Writer,
  checkDepth,
  sizeMessage,
  writeMessage,
  type EncodeTarget,
  type GeneratedCodec,
} from "./encode.js";
import { DecodeError, EncodeError } from "./errors.js";
import { fromJson, registerType, toJson, type JsonReadOptions, type JsonWriteOptions } from "./json.js";
import { Reader } from "./reader.js";
import { decodeFrames, type ByteSource } from "./stream.js";
import { Card, Kind, Presence, defaultOf, defineOwn, resolveField, type Field, type FieldSpec } from "./schema.js";
import { sizeNumber, writeNumber } from "./varint.js";

/**
 * The prefix of the type URLs {@link MessageType.typeUrl} makes, as protobuf's libraries
 * write them; `Any` unpacking reads only what follows a URL's last `/`.
 */
export const TYPE_URL_PREFIX = "type.googleapis.com/";

/** The default depth limit (SPEC §9.3). */
export const DEFAULT_MAX_DEPTH = 100;

/**
 * The largest depth limit either side can be configured with (SPEC §9.3): a larger one is
 * this. Decoding and encoding recurse once per nesting level, so this cap is what bounds
 * their use of the engine's stack: no input, however deep, reaches past it.
 */
export const MAX_DEPTH_LIMIT = 500;

/**
 * A configured depth limit as both sides use it (SPEC §9.3): 0 is 1 (the top-level message
 * is always read or written), above {@link MAX_DEPTH_LIMIT} (`Infinity` included) is the
 * cap. Anything but a non-negative integer or `Infinity` is a caller's mistake.
 */
export function clampDepth(depth: number): number {
  if (depth === Infinity) return MAX_DEPTH_LIMIT;
  if (!Number.isInteger(depth) || depth < 0) {
    throw new RangeError(`maxDepth must be a non-negative integer, not ${String(depth)}`);
  }
  return depth === 0 ? 1 : depth > MAX_DEPTH_LIMIT ? MAX_DEPTH_LIMIT : depth;
}

/** Decoder settings (SPEC §1, §8.2, §9.3, §9.4). */
export interface DecodeOptions {
  /**
   * Keep unknown records in `$unknown` instead of refusing them (default: strict); the
   * well-known types (package `google.protobuf`) refuse them even so (SPEC §8.2).
   */
  preserveUnknown?: boolean;
  /**
   * The depth limit (default 100): 0 is taken as 1, and a limit above 500
   * ({@link MAX_DEPTH_LIMIT}) as 500 (SPEC §9.3).
   */
  maxDepth?: number;
  /** The size limit in bytes, per message or per stream frame (default: none). */
  maxSize?: number;
}

/** Encoder settings (SPEC §9). */
export interface EncodeOptions {
  /**
   * Refuse values nested deeper than this (default 100, the decoder's default), taken as
   * the decoder takes it: 0 is 1, above 500 is 500 (SPEC §9.3).
   */
  maxDepth?: number;
  /** Refuse output longer than this many bytes (default: none). */
  maxSize?: number;
}

/** A decoded value and how many unknown records a preserving decode kept (SPEC §8.2). */
export interface Decoded<T> {
  /** The value. */
  message: T;
  /** Unknown records kept anywhere in the input; 0 in strict mode. */
  unknownFields: number;
}

interface Resolved {
  fields: Field[];
  required: Field[];
  template: Record<string, unknown>;
  lists: string[];
  maps: string[];
}

/** The default of every `bytes` field: shared, since an empty array cannot be written to. */
export const EMPTY_BYTES = new Uint8Array(0);
const EMPTY = EMPTY_BYTES;

/** A message type: its description, and its canonical encoder and strict decoder. */
export class MessageType<T extends object> implements DecodeTarget, EncodeTarget {
  /** The full name, `pkg.Outer.Inner`. */
  readonly typeName: string;
  /** The short name, which starts error paths (SPEC §11.3). */
  readonly shortName: string;
  /**
   * The type URL an `Any` holding this type carries: `type.googleapis.com/` and
   * {@link typeName}, as Rust's `Message::type_url` makes it.
   */
  readonly typeUrl: string;
  /**
   * Whether a preserving decode keeps unknown records here: not in the well-known types
   * (package `google.protobuf`), which refuse them as strict mode does (SPEC §8.2).
   */
  readonly keepsUnknown: boolean;
  private readonly specs: () => readonly FieldSpec[];
  private readonly factory: (() => object) | undefined;
  private readonly codec: GeneratedCodec | undefined;
  private resolved: Resolved | undefined;

  /**
   * A message type named `typeName` whose fields `specs` returns (called once, lazily).
   * `factory`, when given, returns a new value with every field absent or default as an
   * object literal (generated code passes one): much faster than building it field by field.
   * `codec`, when given, is the type's generated encoder and decoder (see
   * {@link GeneratedCodec}), which must encode and decode exactly as the field list says;
   * without it the runtime walks the field list.
   */
  constructor(
    typeName: string,
    specs: () => readonly FieldSpec[],
    factory?: () => object,
    codec?: GeneratedCodec,
  ) {
    this.typeName = typeName;
    this.shortName = typeName.slice(typeName.lastIndexOf(".") + 1);
    this.typeUrl = TYPE_URL_PREFIX + typeName;
    this.keepsUnknown = !typeName.startsWith("google.protobuf.");
    this.specs = specs;
    this.factory = factory;
    this.codec = codec;
    registerType(this);
  }

  /** The encoder's size pass over a value of this type at `depth` (see {@link EncodeTarget}). */
  sizeOf(p: Plan, v: Record<string, unknown>, depth: number): number {
    const e = this.codec;
    if (e === undefined) return sizeMessage(p, this, v, depth);
    checkDepth(p, depth);
    return e.size(p, v, depth);
  }

  /** The encoder's write pass matching {@link sizeOf}. */
  writeTo(w: Writer, p: Plan, v: Record<string, unknown>): void {
    const e = this.codec;
    if (e === undefined) writeMessage(w, p, this, v);
    else e.write(w, p, v);
  }

  /** The decoder's walk over a value of this type in `r.pos..end` (see {@link DecodeTarget}). */
  decodeFrom(r: Reader, end: number, depth: number): object {
    const d = this.codec?.decode;
    return d === undefined ? decodeMessage(r, this, end, depth) : d(r, end, depth);
  }

  private get r(): Resolved {
    if (this.resolved === undefined) {
      const fields = this.specs().map(resolveField).sort((a, b) => a.no - b.no);
      // Every property of the type, in field order, so all values share one shape:
      // implicit scalars at their defaults (SPEC §5.1), the rest absent; lists and maps
      // get fresh empty ones per value.
      const template: Record<string, unknown> = {};
      const lists: string[] = [];
      const maps: string[] = [];
      for (const f of fields) {
        // Own properties even for `__proto__`, which `template[key] = x` would not create.
        if (f.oneof !== undefined) defineOwn(template, f.oneof, undefined);
        else if (f.card === Card.Repeated) {
          defineOwn(template, f.prop, undefined);
          lists.push(f.prop);
        } else if (f.card === Card.Map) {
          defineOwn(template, f.prop, undefined);
          maps.push(f.prop);
        } else if (f.presence !== Presence.Implicit) defineOwn(template, f.prop, undefined);
        else defineOwn(template, f.prop, f.kind === Kind.Bytes ? EMPTY : defaultOf(f.kind));
      }
      this.resolved = {
        fields,
        required: fields.filter((f) => f.presence === Presence.Required),
        template,
        lists,
        maps,
      };
    }
    return this.resolved;
  }

  /** Fields ascending by number. */
  get fieldList(): readonly Field[] {
    return this.r.fields;
  }

  /** Required fields ascending by number. */
  get requiredList(): readonly Field[] {
    return this.r.required;
  }

  /** A new value: implicit fields at their defaults, lists and maps empty, the rest absent. */
  create(init?: Partial<T>): T {
    if (this.factory !== undefined) {
      // Required fields start unset (`undefined`) though their type says otherwise: the
      // encoder refuses them until they are set (SPEC §5.3).
      const v = this.factory() as T;
      return init === undefined ? v : Object.assign(v, init);
    }
    const r = this.r;
    const v: Record<string, unknown> = { ...r.template };
    // `v` holds every key as its own property (the spread copies them), so assignment
    // sets the property even for `__proto__`.
    for (const p of r.lists) v[p] = [];
    for (const p of r.maps) v[p] = new Map();
    if (init !== undefined) Object.assign(v, init);
    return v as T;
  }

  /**
   * The one canonical byte string of `value` (SPEC §9).
   *
   * @throws {EncodeError} a value deeper than the depth limit, an unset required field, an
   *   integer outside its type, a lone surrogate, preserved unknown fields that could not
   *   be decoded, output longer than `maxSize`.
   */
  encode(value: T, options?: EncodeOptions): Uint8Array {
    const p = takePlan(clampDepth(options?.maxDepth ?? DEFAULT_MAX_DEPTH));
    try {
      const n = this.sized(p, value);
      if (options?.maxSize !== undefined && n > options.maxSize) {
        throw new EncodeError("size-limit-exceeded", `needs ${n} bytes, more than ${options.maxSize}`);
      }
      const w = new Writer(new Uint8Array(n));
      this.writeTo(w, p, value as Record<string, unknown>);
      return w.buf;
    } finally {
      releasePlan(p);
    }
  }

  private sized(p: Plan, value: T): number {
    try {
      return this.sizeOf(p, value as Record<string, unknown>, 1);
    } catch (e) {
      if (e instanceof EncodeError) e.push(this.shortName);
      throw e;
    }
  }

  /**
   * Decode `bytes` strictly: the whole input is one message (SPEC §9.1).
   *
   * @throws {DecodeError} with the code, offset and path of the first violation (SPEC §10).
   */
  decode(bytes: Uint8Array, options?: DecodeOptions): T {
    return this.decodeReport(bytes, options).message;
  }

  /** As {@link decode}, also saying how many unknown records a preserving decode kept. */
  decodeReport(bytes: Uint8Array, options?: DecodeOptions): Decoded<T> {
    if (options?.maxSize !== undefined && bytes.length > options.maxSize) {
      throw new DecodeError("size-limit-exceeded", 0).push(this.shortName); // O17
    }
    const r = reader(bytes, options);
    const message = this.top(r, bytes.length);
    return { message, unknownFields: r.unknown };
  }

  private top(r: Reader, end: number): T {
    try {
      return this.decodeFrom(r, end, 1) as T;
    } catch (e) {
      if (e instanceof DecodeError) e.push(this.shortName);
      throw e;
    }
  }

  /**
   * Decode a length-delimited stream (SPEC §9.2): frames `bijou64(L)` then `L` bytes, each
   * one message. Offsets count from the stream's first byte.
   */
  decodeDelimited(bytes: Uint8Array, options?: DecodeOptions): Decoded<T[]> {
    const r = reader(bytes, options);
    const out: T[] = [];
    while (r.pos < bytes.length) {
      const at = r.pos;
      let end: number;
      try {
        const l = r.num(bytes.length);
        // SPEC §9.4: a frame's size limit is checked after its prefix, before its bytes.
        if (options?.maxSize !== undefined && l > options.maxSize) {
          throw new DecodeError("size-limit-exceeded", at);
        }
        if (l > bytes.length - r.pos) throw new DecodeError("truncated", at);
        end = r.pos + l;
      } catch (e) {
        if (e instanceof DecodeError) e.push(this.shortName).inFrame(out.length, 0);
        throw e;
      }
      try {
        out.push(this.top(r, end));
      } catch (e) {
        if (e instanceof DecodeError) e.inFrame(out.length, 0);
        throw e;
      }
    }
    return { message: out, unknownFields: r.unknown };
  }

  /**
   * Decode a length-delimited stream as it arrives (SPEC §9.2): the messages of `src` (a
   * `ReadableStream<Uint8Array>`, or any async iterable of byte chunks such as a Node
   * stream), one frame at a time, holding only the frame being decoded. The checks and
   * errors are {@link decodeDelimited}'s; an error's `frame` is the index of its frame.
   *
   * ```ts
   * for await (const { message } of Person.decodeFrames(response.body!)) use(message);
   * ```
   */
  decodeFrames(src: ByteSource, options?: DecodeOptions): AsyncGenerator<Decoded<T>, void, undefined> {
    return decodeFrames<T>(this, src, options);
  }

  /**
   * Read a value from proto3 JSON text, or from a value `JSON.parse` returned (whose
   * duplicate keys are then already merged: prefer text for untrusted input).
   *
   * @throws {JsonError} syntax errors, duplicate keys, unknown field names, values of the
   *   wrong type or out of range, two members of one oneof, messages nested deeper than
   *   `options.maxDepth` (100 by default, counting those inside `Any`); the error names
   *   the JSON path.
   */
  fromJson(json: string | unknown, options?: JsonReadOptions): T {
    return fromJson<T>(this, json, options);
  }

  /**
   * `value` as proto3 JSON text (compact, or indented by `options.indent` spaces).
   *
   * @throws {JsonError} a value proto3 JSON cannot spell (see the package README).
   */
  toJson(value: T, options?: JsonWriteOptions): string {
    return toJson(this, value, options);
  }

  /** Encode `values` as a length-delimited stream (SPEC §9.2). */
  encodeDelimited(values: readonly T[], options?: EncodeOptions): Uint8Array {
    const parts = values.map((v) => this.encode(v, options));
    let n = 0;
    for (const b of parts) n += sizeNumber(b.length) + b.length;
    const out = new Uint8Array(n);
    let pos = 0;
    for (const b of parts) {
      pos = writeNumber(out, pos, b.length);
      out.set(b, pos);
      pos += b.length;
    }
    return out;
  }
}

function reader(bytes: Uint8Array, options: DecodeOptions | undefined): Reader {
  const depth = clampDepth(options?.maxDepth ?? DEFAULT_MAX_DEPTH);
  return new Reader(bytes, 0, options?.preserveUnknown ?? false, depth);
}
