/**
 * Decode and encode errors (SPEC §11).
 *
 * A {@link DecodeError} carries the same stable code, absolute byte offset and field path
 * as the Rust runtime's `DecodeError`, and displays the same way:
 * `default-value-present: Person.age holds its default at byte 17`.
 */

/** The stable kebab-case codes of SPEC §11.1, one per decoder obligation O1–O17. */
export type ErrorCode =
  | "truncated"
  | "varint-overflow"
  | "field-number-overflow"
  | "unknown-field"
  | "wire-type-mismatch"
  | "oneof-conflict"
  | "depth-limit-exceeded"
  | "integer-out-of-range"
  | "invalid-bool"
  | "non-canonical-nan"
  | "invalid-utf8"
  | "default-value-present"
  | "empty-repeated"
  | "packed-length-mismatch"
  | "map-key-order"
  | "missing-required-field"
  | "size-limit-exceeded";

/** The phrase between the path and the offset in an error's text; the Rust runtime's words. */
const WHAT: Record<ErrorCode, string> = {
  truncated: "ends inside an element",
  "varint-overflow": "holds a bijou64 above u64::MAX",
  "integer-out-of-range": "holds a value outside its declared width",
  "invalid-bool": "holds a bool other than 0 or 1",
  "field-number-overflow": "has a key past field number 536870911",
  "wire-type-mismatch": "has a wire type its schema type does not use",
  "default-value-present": "holds its default",
  "missing-required-field": "is required but absent",
  "oneof-conflict": "is a second member of its oneof",
  "empty-repeated": "is a repeated record with no elements",
  "packed-length-mismatch": "has a packed length that is not a multiple of its element width",
  "map-key-order": "has a key not above the previous key",
  "invalid-utf8": "is not valid UTF-8",
  "non-canonical-nan": "holds a non-canonical NaN",
  "unknown-field": "is not in the schema",
  "depth-limit-exceeded": "nests deeper than the depth limit",
  "size-limit-exceeded": "is longer than the size limit",
};

/**
 * An error with a field path that grows while the error travels outwards: segments are
 * kept innermost first, so pushing one is O(1), and the text is derived on demand.
 */
abstract class PathError extends Error {
  private readonly revPath: string[] = [];

  protected constructor(name: string) {
    super();
    this.name = name;
    Object.defineProperty(this, "message", { get: () => this.toString(), configurable: true });
  }

  /** The field path rendered as text (SPEC §11.3): `Outer.inner[3].name`. */
  get path(): string {
    let s = "";
    for (let i = this.revPath.length - 1; i >= 0; i--) s += this.revPath[i];
    return s;
  }

  /** Append an outer path segment (already rendered: `.name`, `[3]`, `["k"]`, `Msg`). */
  push(segment: string): this {
    this.revPath.push(segment);
    return this;
  }
}

/**
 * Why a byte string was refused: the code, the absolute byte offset in the top-level input
 * (or stream) and the field path, outermost first (`Order.lines[3].sku`).
 */
export class DecodeError extends PathError {
  /** The stable code (SPEC §11.1). */
  readonly code: ErrorCode;
  /**
   * The absolute byte offset (SPEC §11.1 says which byte): in a stream, counted from the
   * stream's first byte (SPEC §9.2).
   */
  readonly offset: number;
  /**
   * In a length-delimited stream, the index of the frame the error is in (the first frame
   * is 0); `undefined` for a single message.
   */
  readonly frame: number | undefined;
  /** An error of `code` at `offset` with an empty path. */
  constructor(code: ErrorCode, offset: number) {
    super("DecodeError");
    this.code = code;
    this.offset = offset;
    this.frame = undefined;
  }

  /**
   * This error placed in frame `index` of a stream whose frame starts `start` bytes after
   * the bytes the error's offset counts from (0 when it already counts from the stream's
   * first byte).
   */
  inFrame(index: number, start: number): this {
    (this as { offset: number }).offset += start;
    (this as { frame: number | undefined }).frame = index;
    return this;
  }

  /** The error's text, as the Rust runtime prints it (SPEC §11.4). */
  override toString(): string {
    return `${this.code}: ${this.path || "input"} ${WHAT[this.code]} at byte ${this.offset}`;
  }
}

/** Why a value could not be encoded. */
export type EncodeErrorCode =
  | "depth-limit-exceeded"
  | "missing-required-field"
  | "size-limit-exceeded"
  | "unknown-field-order"
  | "invalid-unknown-field"
  | "integer-out-of-range"
  | "invalid-utf8"
  | "invalid-value";

/** Why the encoder refused a value (SPEC §9): the code and where in the value. */
export class EncodeError extends PathError {
  /** What went wrong. */
  readonly code: EncodeErrorCode;
  private readonly detail: string;

  /** An error of `code` with a short explanation. */
  constructor(code: EncodeErrorCode, detail: string) {
    super("EncodeError");
    this.code = code;
    this.detail = detail;
  }

  /** `missing-required-field: Reading.sensor is required but unset`. */
  override toString(): string {
    return `${this.code}: ${this.path || "value"} ${this.detail}`;
  }
}

/** A map key as a path segment (SPEC §11.3): `["k"]` with escapes, `[5]`, `[-1]`, `[true]`. */
export function keySegment(key: string | number | bigint | boolean): string {
  if (typeof key !== "string") return `[${String(key)}]`;
  let s = '["';
  for (const ch of key) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === "\\") s += "\\" + ch;
    else if (c <= 0x1f || c === 0x7f) s += `\\u{${c.toString(16)}}`;
    else s += ch;
  }
  return s + '"]';
}
