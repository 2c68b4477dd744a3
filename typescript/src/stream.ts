/**
 * Length-delimited streams read as they arrive (SPEC §9.2): frames of `bijou64(L)` then
 * `L` bytes from a `ReadableStream<Uint8Array>` (or any async iterable of byte chunks), one
 * message at a time. Only the frame being decoded is held, plus the rest of the chunk it
 * ended in, so a stream of any length is read in memory proportional to its largest frame.
 *
 * The checks are those of the slice-based reader ({@link MessageType.decodeDelimited}), in
 * the same order: a prefix cut by the end of the stream is `truncated` at its first byte, a
 * prefix past u64 is `varint-overflow` there, a frame longer than the size limit is
 * refused at its prefix before its bytes are awaited (SPEC §9.4), a frame cut by the end
 * of the stream is `truncated` at its prefix. Every error carries the frame's index and an
 * offset counted from the stream's first byte.
 */

import { DecodeError, type ErrorCode } from "./errors.js";
import { encodedLength, tier8Overflows, valueNumber } from "./varint.js";

/** What the stream reader needs of a message type ({@link MessageType} has it). */
export interface FrameTarget<T> {
  /** The short type name, which starts error paths. */
  readonly shortName: string;
  /** Decode one whole message; errors count offsets from its first byte. */
  decodeReport(bytes: Uint8Array, options?: FrameOptions): { message: T; unknownFields: number };
}

/** The decoder settings a stream is read with (as {@link DecodeOptions}). */
export interface FrameOptions {
  preserveUnknown?: boolean;
  maxDepth?: number;
  /** The size limit per frame, counting the frame's content, not its prefix. */
  maxSize?: number;
}

/** Where frames come from: a web stream, or any async iterable of chunks (a Node stream). */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

const EMPTY = new Uint8Array(0);

/** The chunks of `src`, empty ones skipped; the stream's reader lock is released at the end. */
async function* chunksOf(src: ByteSource): AsyncGenerator<Uint8Array, void, undefined> {
  if (typeof (src as ReadableStream<Uint8Array>).getReader === "function") {
    const reader = (src as ReadableStream<Uint8Array>).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (!(value instanceof Uint8Array)) throw new TypeError("a byte stream gave a chunk that is not a Uint8Array");
        if (value.length > 0) yield value;
      }
    } finally {
      reader.releaseLock();
    }
  }
  for await (const value of src as AsyncIterable<Uint8Array>) {
    if (!(value instanceof Uint8Array)) throw new TypeError("a byte stream gave a chunk that is not a Uint8Array");
    if (value.length > 0) yield value;
  }
}

/**
 * The bytes received and not yet consumed: a list of chunks and a position in the first,
 * so appending is O(1) and a frame is copied at most once (not at all when it lies within
 * one chunk).
 */
class Pending {
  private chunks: Uint8Array[] = [];
  private head = 0;
  /** Bytes held. */
  length = 0;

  push(c: Uint8Array): void {
    this.chunks.push(c);
    this.length += c.length;
  }

  /** The first byte held (present). */
  first(): number {
    return this.chunks[0]![this.head]!;
  }

  /** The first `n` bytes held (present), consumed. */
  take(n: number): Uint8Array {
    if (n === 0) return EMPTY;
    this.length -= n;
    const c = this.chunks[0]!;
    if (c.length - this.head >= n) {
      const out = c.subarray(this.head, this.head + n);
      this.advance(c, n);
      return out;
    }
    const out = new Uint8Array(n);
    let o = 0;
    while (o < n) {
      const d = this.chunks[0]!;
      const k = Math.min(d.length - this.head, n - o);
      out.set(d.subarray(this.head, this.head + k), o);
      o += k;
      this.advance(d, k);
    }
    return out;
  }

  private advance(c: Uint8Array, k: number): void {
    this.head += k;
    if (this.head === c.length) {
      this.chunks.shift();
      this.head = 0;
    }
  }
}

/**
 * The messages of the length-delimited stream `src`, decoded as `type` one frame at a time
 * (SPEC §9.2): each as `{ message, unknownFields }`. The iteration ends after the last
 * complete frame, or throws the first {@link DecodeError}, whose `frame` is the index of
 * the frame it is in (0 for the first) and whose `offset` counts from the stream's first
 * byte, as the slice-based reader reports them.
 */
export async function* decodeFrames<T>(
  type: FrameTarget<T>,
  src: ByteSource,
  options?: FrameOptions,
): AsyncGenerator<{ message: T; unknownFields: number }, void, undefined> {
  const max = options?.maxSize;
  const chunks = chunksOf(src);
  const held = new Pending();
  let ended = false;
  /** Whether `n` bytes are held once as many chunks as needed have arrived. */
  const have = async (n: number): Promise<boolean> => {
    while (held.length < n && !ended) {
      const r = await chunks.next();
      if (r.done === true) ended = true;
      else held.push(r.value);
    }
    return held.length >= n;
  };
  let at = 0;
  let index = 0;
  const fail = (code: ErrorCode): DecodeError => new DecodeError(code, at).push(type.shortName).inFrame(index, 0);
  try {
    for (;;) {
      // Each wait is skipped when the bytes are already held: an await per frame part
      // would cost more than decoding a small frame.
      if (held.length < 1 && !(await have(1))) return; // a clean end, at a frame boundary
      // SPEC §9.2: the prefix, cut or past u64, is refused at its first byte.
      const n = encodedLength(held.first());
      if (held.length < n && !(await have(n))) throw fail("truncated");
      const prefix = held.take(n);
      if (n === 9 && tier8Overflows(prefix, 1)) throw fail("varint-overflow");
      // Exact below 2^48; anything larger is past every limit and every input here.
      const len = valueNumber(prefix, 0);
      // SPEC §9.4: the frame's size limit, after its prefix, before its bytes are awaited.
      if (max !== undefined && len > max) throw fail("size-limit-exceeded");
      if (held.length < len && !(await have(len))) throw fail("truncated");
      const body = held.take(len);
      let d: { message: T; unknownFields: number };
      try {
        d = type.decodeReport(body, options);
      } catch (e) {
        if (e instanceof DecodeError) e.inFrame(index, at + n);
        throw e;
      }
      yield d;
      at += n + len;
      index++;
    }
  } finally {
    await chunks.return(undefined);
  }
}
