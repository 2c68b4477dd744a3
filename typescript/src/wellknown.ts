/**
 * Helpers for the well-known types, the TypeScript side of Rust's `bijoubuf::wkt`
 * helpers: `Any` packing and unpacking with a type check, and `Timestamp` ↔ `Date`.
 *
 * They work on the generated shapes (`{ typeUrl, value }` and `{ seconds, nanos }`), so
 * no generated code is needed to call them.
 */

import type { DecodeOptions, EncodeOptions, MessageType } from "./message.js";

/** The shape of a generated `google.protobuf.Any`. */
export interface AnyShape {
  /** `<host>/<full type name>`: the name after the last `/` is the packed type. */
  typeUrl: string;
  /** The packed message's canonical encoding. */
  value: Uint8Array;
}

/** The shape of a generated `google.protobuf.Timestamp`. */
export interface TimestampShape {
  /** Seconds since 1970-01-01T00:00:00Z. */
  seconds: bigint;
  /** Nanoseconds within the second, 0 to 999,999,999. */
  nanos: number;
}

/**
 * `Any` unpacking refused: the type URL names another type than the one asked for (or is
 * not `<host>/<full name>`). The message is Rust's `AnyError::TypeMismatch` text.
 */
export class AnyTypeError extends Error {
  /** The stable code, `any-type-mismatch`. */
  readonly code = "any-type-mismatch";
  /** The requested type's full name. */
  readonly expected: string;
  /** The `Any`'s type URL, as it is. */
  readonly found: string;

  constructor(expected: string, found: string) {
    super(`any-type-mismatch: expected ${expected}, the Any holds ${JSON.stringify(found)}`);
    this.name = "AnyTypeError";
    this.expected = expected;
    this.found = found;
  }
}

/** The full type name after a type URL's last `/`, or `undefined` when it has none. */
export function anyTypeName(any: AnyShape): string | undefined {
  const i = any.typeUrl.lastIndexOf("/");
  const name = any.typeUrl.slice(i + 1);
  return i < 0 || name === "" ? undefined : name;
}

/** `value` packed as an `Any`: its canonical encoding under `type.typeUrl`. */
export function anyPack<T extends object>(type: MessageType<T>, value: T, options?: EncodeOptions): AnyShape {
  return { typeUrl: type.typeUrl, value: type.encode(value, options) };
}

/** Whether `any` holds a value of `type` (its URL names `type.typeName`, any host). */
export function anyIs<T extends object>(any: AnyShape, type: MessageType<T>): boolean {
  return anyTypeName(any) === type.typeName;
}

/**
 * The value packed in `any`, decoded strictly as `type` after checking that the type URL
 * names it.
 *
 * @throws {AnyTypeError} the URL names another type; nothing is decoded.
 * @throws {DecodeError} the bytes are not a canonical value of `type`.
 */
export function anyUnpack<T extends object>(any: AnyShape, type: MessageType<T>, options?: DecodeOptions): T {
  if (anyTypeName(any) !== type.typeName) throw new AnyTypeError(type.typeName, any.typeUrl);
  return type.decode(any.value, options);
}

/** `0001-01-01T00:00:00Z` in seconds since the epoch: the earliest valid Timestamp. */
export const TIMESTAMP_MIN_SECONDS = -62135596800n;
/** `9999-12-31T23:59:59Z` in seconds since the epoch: the latest valid Timestamp's second. */
export const TIMESTAMP_MAX_SECONDS = 253402300799n;

function checkTimestamp(t: TimestampShape): void {
  const { seconds, nanos } = t;
  if (!Number.isInteger(nanos) || nanos < 0 || nanos > 999_999_999) {
    throw new RangeError(`nanos-out-of-range: nanos outside their range (seconds ${seconds}, nanos ${nanos})`);
  }
  if (seconds < TIMESTAMP_MIN_SECONDS || seconds > TIMESTAMP_MAX_SECONDS) {
    throw new RangeError(
      "timestamp-out-of-range: outside 0001-01-01T00:00:00Z..=9999-12-31T23:59:59.999999999Z " +
        `(seconds ${seconds}, nanos ${nanos})`,
    );
  }
}

/**
 * A `Date` as a Timestamp (millisecond precision, as a `Date` has).
 *
 * @throws {RangeError} an invalid `Date`, or one outside 0001..9999 (UTC).
 */
export function timestampFromDate(date: Date): TimestampShape {
  const ms = date.getTime();
  if (Number.isNaN(ms)) throw new RangeError("timestamp-out-of-range: an invalid Date");
  const s = Math.floor(ms / 1000);
  const t = { seconds: BigInt(s), nanos: (ms - s * 1000) * 1_000_000 };
  checkTimestamp(t);
  return t;
}

/**
 * A valid Timestamp as a `Date`. A `Date` holds milliseconds: nanoseconds below the
 * millisecond are dropped (the time rounds towards the past, as `Math.floor` does).
 *
 * @throws {RangeError} a Timestamp outside 0001..9999 or with nanos outside 0..999,999,999.
 */
export function timestampToDate(t: TimestampShape): Date {
  checkTimestamp(t);
  // |seconds| < 2^38, so seconds × 1000 is exact in a double.
  return new Date(Number(t.seconds) * 1000 + Math.floor(t.nanos / 1_000_000));
}
