/**
 * The bounded reader: every read takes the end of its enclosing bound (message content,
 * record content, frame), so one comparison guards both the bound and the read, and every
 * failure is a {@link DecodeError} at the offset SPEC §11.1 names.
 */

import { DecodeError } from "./errors.js";
import { bigFromNumber, encodedLength, tier8Overflows, unzigzagToBig, valueBigInt, valueNumber, zigzagValueBigInt } from "./varint.js";

/** Eight bytes a single fixed-width value is copied to, to read it without a DataView of the input. */
const scratch = /* @__PURE__ */ new DataView(new ArrayBuffer(8));
const scratchBytes = /* @__PURE__ */ new Uint8Array(scratch.buffer);

/** The decoder's position in its input, its settings and what it has seen. */
export class Reader {
  /** The whole input: offsets are absolute (SPEC §1). */
  readonly buf: Uint8Array;
  private dv: DataView | undefined;
  /** The next byte to read. */
  pos: number;
  /** Keep unknown records instead of refusing them (SPEC §8.2). */
  readonly preserving: boolean;
  /** The depth limit (SPEC §9.3). */
  readonly maxDepth: number;
  /** Unknown records kept so far. */
  unknown = 0;

  constructor(buf: Uint8Array, pos: number, preserving: boolean, maxDepth: number) {
    this.buf = buf;
    this.pos = pos;
    this.preserving = preserving;
    this.maxDepth = maxDepth;
  }

  /**
   * The same bytes, for fixed-width reads: made on first use, since a message of varints
   * and strings needs none and a small one decodes in about the time a DataView takes.
   */
  get view(): DataView {
    return (this.dv ??= new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength));
  }

  /** The big-endian `u32` at `at` (present). */
  u32(at: number): number {
    const b = this.buf;
    return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
  }

  /**
   * The `width` bytes at `at` (present) copied to a shared scratch view, read at offset 0:
   * one value costs a few byte copies instead of a DataView of the whole input.
   */
  fixed(at: number, width: number): DataView {
    const b = this.buf;
    for (let i = 0; i < width; i++) scratchBytes[i] = b[at + i]!;
    return scratch;
  }

  /** Check that the bijou64 at `pos` is complete within `end` and not past u64max (SPEC §2.4). */
  private varintLength(end: number): number {
    const at = this.pos;
    if (at >= end) throw new DecodeError("truncated", at);
    const n = encodedLength(this.buf[at]!);
    if (n > end - at) throw new DecodeError("truncated", at);
    if (n === 9 && tier8Overflows(this.buf, at + 1)) throw new DecodeError("varint-overflow", at);
    return n;
  }

  /**
   * A bijou64 as a number: exact below 2^48 (tiers 0–6), at least 2^48 otherwise. Keys,
   * lengths and 32-bit values use it: anything that large is out of their range anyway.
   */
  num(end: number): number {
    const at = this.pos;
    if (at < end) {
      const tag = this.buf[at]!;
      if (tag < 0xf8) {
        this.pos = at + 1;
        return tag;
      }
    }
    const n = this.varintLength(end);
    this.pos = at + n;
    return valueNumber(this.buf, at);
  }

  /** A zigzag-encoded bijou64 as a signed `bigint` (SPEC §3.2). */
  zigzagBig(end: number): bigint {
    const at = this.pos;
    const n = this.varintLength(end);
    this.pos = at + n;
    // Below 2^48: exact as a number, one conversion instead of four bigint operations.
    return n <= 7 ? unzigzagToBig(valueNumber(this.buf, at)) : zigzagValueBigInt(this.buf, at);
  }

  /** A bijou64 as a `bigint`, every `u64` exact. */
  big(end: number): bigint {
    const at = this.pos;
    const n = this.varintLength(end);
    this.pos = at + n;
    return n <= 7 ? bigFromNumber(valueNumber(this.buf, at)) : valueBigInt(this.buf, at);
  }

  /**
   * A length prefix and the bound check of its content (SPEC §10.1 step 2): returns the
   * content's end. Refused as `truncated` at the prefix when the content does not fit.
   */
  len(end: number): number {
    const at = this.pos;
    const l = this.num(end);
    if (l > end - this.pos) throw new DecodeError("truncated", at);
    return this.pos + l;
  }

  /** Check that `n` bytes remain before `end` (a fixed-width value at `pos`). */
  need(n: number, end: number): void {
    if (end - this.pos < n) throw new DecodeError("truncated", this.pos);
  }
}
