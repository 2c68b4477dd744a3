/**
 * bijou64 (SPEC §2): the varint with exactly one spelling per `u64`.
 *
 * Values up to tier 6 (below 2^48) are exact JavaScript numbers; 64-bit values are
 * `bigint`. The tag byte says the length: `00`–`F7` is the value itself, `F8`–`FF` is
 * followed by 1–8 big-endian payload bytes added to the tier's OFFSET.
 */

/** OFFSET[t] (SPEC §2.2) as numbers: exact up to tier 7; OFFSET[8] is above 2^53 and rounded. */
export const OFFSET: readonly number[] = [
  0, 248, 504, 66040, 16843256, 4311810552, 1103823438328, 282578800148984, 72340172838076920,
];

const OFFSET_BIG: readonly bigint[] = [
  0n, 248n, 504n, 66040n, 16843256n, 4311810552n, 1103823438328n, 282578800148984n,
  72340172838076920n,
];

/**
 * `BigInt(i)` for `i` below 504 (tiers 0 and 1): bigints are immutable, so one shared
 * value per small integer spares an allocation and a slow `BigInt(number)` per element.
 */
const SMALL_BIG: readonly bigint[] = Array.from({ length: 504 }, (_, i) => BigInt(i));

/** unzigzag(`i`) as a `bigint` for `i` below 504. */
const SMALL_ZIGZAG_BIG: readonly bigint[] = Array.from({ length: 504 }, (_, i) =>
  BigInt(i % 2 === 0 ? i / 2 : -(i + 1) / 2),
);

/** Eight bytes to build bigints from two 32-bit halves: faster than `BigInt(number)`. */
const scratch = /* @__PURE__ */ new DataView(new ArrayBuffer(8));

/** `BigInt(x)` for a non-negative safe integer `x`, without `BigInt`'s slow number path. */
export function bigFromNumber(x: number): bigint {
  if (x < 504) return SMALL_BIG[x]!;
  scratch.setUint32(0, Math.floor(x / 4294967296));
  scratch.setUint32(4, x >>> 0);
  return scratch.getBigUint64(0);
}

/** `BigInt(x)` for a safe integer `x` of either sign. */
export function bigFromSigned(x: number): bigint {
  if (x >= 0) return bigFromNumber(x);
  const hi = Math.floor(x / 4294967296); // negative: x = hi · 2^32 + lo, 0 <= lo < 2^32
  scratch.setInt32(0, hi);
  scratch.setUint32(4, x - hi * 4294967296);
  return scratch.getBigInt64(0);
}

/** unzigzag(`u`) as a `bigint` for a non-negative safe integer `u` (SPEC §1). */
export function unzigzagToBig(u: number): bigint {
  if (u < 504) return SMALL_ZIGZAG_BIG[u]!;
  return u % 2 === 0 ? bigFromNumber(u / 2) : bigFromSigned(-(u + 1) / 2);
}

/** The largest `u64`. */
export const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** Why bytes are not a bijou64 (SPEC §2.4). */
export type VarintFailure = "truncated" | "varint-overflow";

/** The number of bytes of the encoding that starts with `tag`. */
export function encodedLength(tag: number): number {
  return tag < 0xf8 ? 1 : tag - 0xf6;
}

/** The length of bijou64(`x`) for a non-negative safe integer `x`. */
export function sizeNumber(x: number): number {
  if (x < 248) return 1;
  if (x < 504) return 2;
  if (x < 66040) return 3;
  if (x < 16843256) return 4;
  if (x < 4311810552) return 5;
  if (x < 1103823438328) return 6;
  if (x < 282578800148984) return 7;
  return 8; // tier 7 holds every safe integer past tier 6
}

/** The length of bijou64(`x`) for `0n <= x <= U64_MAX`. */
export function sizeBigInt(x: bigint): number {
  if (x < 282578800148984n) return sizeNumber(Number(x));
  return x < 72340172838076920n ? 8 : 9;
}

/**
 * Write bijou64(`x`) for a non-negative safe integer at `pos`; returns the new position.
 * The caller has sized `buf`.
 */
export function writeNumber(buf: Uint8Array, pos: number, x: number): number {
  if (x < 248) {
    buf[pos] = x;
    return pos + 1;
  }
  if (x < 504) {
    buf[pos] = 0xf8;
    buf[pos + 1] = x - 248;
    return pos + 2;
  }
  if (x < 66040) {
    const p = x - 504;
    buf[pos] = 0xf9;
    buf[pos + 1] = p >>> 8;
    buf[pos + 2] = p & 0xff;
    return pos + 3;
  }
  const t = sizeNumber(x) - 1;
  buf[pos] = 0xf7 + t;
  let p = x - OFFSET[t]!;
  for (let i = t; i >= 1; i--) {
    // Below 2^53: the division is exact enough, and `% 256` of an integer is exact.
    buf[pos + i] = p % 256;
    p = Math.floor(p / 256);
  }
  return pos + t + 1;
}

/**
 * A 64-bit integer's two 32-bit halves through typed arrays over one 8-byte buffer: storing
 * a `bigint` into a `BigInt64Array` and reading two 32-bit words is several times faster
 * than `Number(x)` or bigint shifts and masks (measured in Node 20).
 */
const HALVES = /* @__PURE__ */ new BigUint64Array(1);
const HALVES_SIGNED = /* @__PURE__ */ new BigInt64Array(HALVES.buffer);
const WORDS = /* @__PURE__ */ new Uint32Array(HALVES.buffer);
const WORDS_SIGNED = /* @__PURE__ */ new Int32Array(HALVES.buffer);
/** The index of the low word: the platform's byte order decides. */
const LO = /* @__PURE__ */ new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 0 : 1;
const HI = 1 - LO;

/**
 * `x`, an integer in `[0, 2^64)`, as a number when it is below 2^47 (tiers 0–5 and part
 * of 6), else −1.
 */
export function smallUnsigned(x: bigint): number {
  HALVES[0] = x;
  const hi = WORDS[HI]!;
  return hi < 0x8000 ? hi * 4294967296 + WORDS[LO]! : -1;
}

/**
 * `x`, an integer in `[−2^63, 2^63)`, as a number when it is in `[−2^47, 2^47)` (so its
 * zigzag image is a safe integer), else `NaN`.
 */
export function smallSigned(x: bigint): number {
  HALVES_SIGNED[0] = x;
  const hi = WORDS_SIGNED[HI]!;
  return hi >= -0x8000 && hi < 0x8000 ? hi * 4294967296 + WORDS[LO]! : Number.NaN;
}

/** Write bijou64(`x`) for `0n <= x <= U64_MAX` at `pos`; returns the new position. */
export function writeBigInt(buf: Uint8Array, pos: number, x: bigint): number {
  if (x < 282578800148984n) return writeNumber(buf, pos, Number(x));
  const t = x < 72340172838076920n ? 7 : 8;
  buf[pos] = 0xf7 + t;
  // The payload, big-endian in the last t bytes of its 8-byte two's complement form.
  HALVES[0] = x - OFFSET_BIG[t]!;
  let hi = WORDS[HI]!;
  let lo = WORDS[LO]!;
  const end = pos + t;
  for (let i = 0; i < 4; i++) {
    buf[end - i] = lo & 0xff;
    lo >>>= 8;
  }
  for (let i = 4; i < t; i++) {
    buf[end - i] = hi & 0xff;
    hi >>>= 8;
  }
  return end + 1;
}

/** bijou64(`x`) as a new array, for a non-negative safe integer or a `bigint` up to `U64_MAX`. */
export function encode(x: number | bigint): Uint8Array {
  if (typeof x === "bigint") {
    if (x < 0n || x > U64_MAX) throw new RangeError(`${x} is not a u64`);
    const out = new Uint8Array(sizeBigInt(x));
    writeBigInt(out, 0, x);
    return out;
  }
  if (!Number.isSafeInteger(x) || x < 0) throw new RangeError(`${x} is not a safe u64`);
  const out = new Uint8Array(sizeNumber(x));
  writeNumber(out, 0, x);
  return out;
}

/**
 * Whether the tier-8 payload at `at` (8 bytes, present) is past `u64max − OFFSET[8]`,
 * `FE FE FE FE FE FE FE 07` (SPEC §2.4).
 */
export function tier8Overflows(buf: Uint8Array, at: number): boolean {
  for (let i = 0; i < 7; i++) {
    const b = buf[at + i]!;
    if (b !== 0xfe) return b > 0xfe;
  }
  return buf[at + 7]! > 0x07;
}

/** The bigint value of the bijou64 whose tag is at `at`; its bytes are present and valid. */
export function valueBigInt(buf: Uint8Array, at: number): bigint {
  const tag = buf[at]!;
  if (tag < 0xf8) return SMALL_BIG[tag]!;
  const t = tag - 0xf7;
  if (t <= 6) return bigFromNumber(valueNumber(buf, at));
  wideWords(buf, at, t);
  scratch.setUint32(0, wordHi);
  scratch.setUint32(4, wordLo);
  return scratch.getBigUint64(0);
}

/**
 * unzigzag of the bijou64 whose tag is at `at` as a signed `bigint` (SPEC §1); its bytes
 * are present and valid.
 */
export function zigzagValueBigInt(buf: Uint8Array, at: number): bigint {
  const tag = buf[at]!;
  const t = tag - 0xf7;
  if (t <= 6) return unzigzagToBig(valueNumber(buf, at));
  wideWords(buf, at, t);
  // u = 2m (value m) or 2m + 1 (value −m − 1 = ~m): m is u shifted right by one, and
  // the odd case flips every bit of m's two's complement.
  const flip = -(wordLo & 1); // 0 or all ones
  scratch.setInt32(0, (wordHi >>> 1) ^ flip);
  scratch.setInt32(4, ((wordLo >>> 1) | (wordHi << 31)) ^ flip);
  return scratch.getBigInt64(0);
}

/** OFFSET[7] and OFFSET[8] as 32-bit words (high, low). */
const OFFSET_HI: readonly number[] = [0, 0, 0, 0, 0, 0, 0, Math.floor(OFFSET[7]! / 4294967296), 0x01010101];
const OFFSET_LO: readonly number[] = [0, 0, 0, 0, 0, 0, 0, OFFSET[7]! % 4294967296, 0x010101f8];

/** The value {@link wideWords} read, as two unsigned 32-bit words. */
let wordHi = 0;
let wordLo = 0;

/**
 * The value of the tier-`t` (7 or 8) bijou64 whose tag is at `at` into {@link wordHi} and
 * {@link wordLo}: the payload's two words plus OFFSET[t]'s, with the carry. The value is at
 * most u64max (checked before), so the high word does not overflow. No bigint arithmetic:
 * each bigint operation allocates, the words become one bigint at the end.
 */
function wideWords(buf: Uint8Array, at: number, t: number): void {
  const e = at + t; // the payload's last byte
  const lo = ((buf[e - 3]! << 24) | (buf[e - 2]! << 16) | (buf[e - 1]! << 8) | buf[e]!) >>> 0;
  let hi = (buf[e - 6]! << 16) | (buf[e - 5]! << 8) | buf[e - 4]!;
  if (t === 8) hi = (hi | (buf[e - 7]! << 24)) >>> 0;
  const sum = lo + OFFSET_LO[t]!;
  const carry = sum >= 4294967296 ? 1 : 0;
  wordLo = sum - carry * 4294967296;
  wordHi = hi + OFFSET_HI[t]! + carry;
}

/**
 * The value of the bijou64 whose tag is at `at` (bytes present) as a number: exact up to
 * tier 6 (below 2^48); for tiers 7 and 8 a number at least 2^48, exact only below 2^53.
 * Callers that need 64 bits use {@link valueBigInt}.
 */
export function valueNumber(buf: Uint8Array, at: number): number {
  const tag = buf[at]!;
  if (tag < 0xf8) return tag;
  const t = tag - 0xf7;
  let p = 0;
  for (let i = 1; i <= t; i++) p = p * 256 + buf[at + i]!;
  return p + OFFSET[t]!;
}

/**
 * Decode the bijou64 at `at` within `buf[..end]`: its value and length, or why it is not
 * one (SPEC §2.4).
 */
export function decode(
  buf: Uint8Array,
  at = 0,
  end = buf.length,
): { value: bigint; length: number } | VarintFailure {
  if (at >= end) return "truncated";
  const n = encodedLength(buf[at]!);
  if (n > end - at) return "truncated";
  if (n === 9 && tier8Overflows(buf, at + 1)) return "varint-overflow";
  return { value: valueBigInt(buf, at), length: n };
}

/** zigzag (SPEC §1) of a 32-bit signed integer, as an unsigned number. */
export function zigzag32(v: number): number {
  return v >= 0 ? v * 2 : -v * 2 - 1;
}

/** The inverse of {@link zigzag32} for numbers up to `u32max`. */
export function unzigzag32(u: number): number {
  return u % 2 === 0 ? u / 2 : -(u + 1) / 2;
}

/** zigzag (SPEC §1) of a 64-bit signed integer. */
export function zigzag64(v: bigint): bigint {
  return v >= 0n ? v << 1n : ((-v) << 1n) - 1n;
}

/** The inverse of {@link zigzag64}. */
export function unzigzag64(u: bigint): bigint {
  return (u & 1n) === 0n ? u >> 1n : -((u + 1n) >> 1n);
}
