/**
 * UTF-8 as SPEC §7 defines it (Unicode §3.9, RFC 3629): no overlong forms, no surrogates,
 * nothing above U+10FFFF, no truncated sequence, no stray continuation byte. The validator
 * reports the first byte of the first ill-formed sequence, which `TextDecoder` cannot.
 */

/**
 * The offset of the first ill-formed sequence in `buf[start..end]`, or -1 when the bytes
 * are well-formed UTF-8 (SPEC §7: the start plus the length of the longest well-formed
 * prefix).
 */
export function firstInvalidUtf8(buf: Uint8Array, start: number, end: number): number {
  let i = start;
  while (i < end) {
    const b = buf[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    // Table 3-7 of Unicode §3.9: the second byte's range depends on the first byte.
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) n = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      n = 3;
      if (b === 0xe0) lo = 0xa0; // overlong
      else if (b === 0xed) hi = 0x9f; // surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 4;
      if (b === 0xf0) lo = 0x90; // overlong
      else if (b === 0xf4) hi = 0x8f; // above U+10FFFF
    } else return i; // C0, C1, F5–FF, or a stray continuation byte
    if (i + n > end) return i;
    const b1 = buf[i + 1]!;
    if (b1 < lo || b1 > hi) return i;
    for (let k = 2; k < n; k++) {
      const c = buf[i + k]!;
      if (c < 0x80 || c > 0xbf) return i;
    }
    i += n;
  }
  return -1;
}

// Strings longer than the ASCII fast path's bound: `fatal` makes the decoder refuse
// exactly the ill-formed sequences of SPEC §7 (the WHATWG UTF-8 decoder follows Unicode
// §3.9: no overlong forms, no surrogates, nothing above U+10FFFF, no truncated sequence);
// `ignoreBOM` keeps a leading U+FEFF as a character (SPEC §7). The offset of a refusal
// comes from {@link firstInvalidUtf8}.
const decoder = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

type Slice = (this: Uint8Array, start: number, end: number) => string;

/**
 * Node's native UTF-8 decoder, `Buffer.prototype.utf8Slice(start, end)`, when the platform
 * has one that works on a plain `Uint8Array` and replaces every ill-formed sequence of
 * SPEC §7 with U+FFFD while keeping a BOM (checked once on probes); undefined elsewhere.
 * It decodes without the `subarray` and the wrapper a `TextDecoder` call costs (measured
 * in Node 20: about 65 ns against 95 ns for 33–130-byte strings). Its result is taken only
 * when it holds no U+FFFD: then no sequence was ill-formed, and the string is exactly the
 * bytes' decoding. A string holding U+FFFD (ill-formed bytes, or a well-formed EF BF BD)
 * is decoded again by the fatal `TextDecoder`, which decides.
 */
const utf8Slice: Slice | undefined = /* @__PURE__ */ (() => {
  try {
    const f = (globalThis as { Buffer?: { prototype?: { utf8Slice?: unknown } } }).Buffer?.prototype?.utf8Slice;
    if (typeof f !== "function") return undefined;
    const slice = f as Slice;
    // Each probe at offset 1 of a view at byte offset 1, between bytes that must not show.
    const run = (bytes: number[]): string => {
      const b = new Uint8Array(bytes.length + 4).subarray(1);
      b.set([0x7a, ...bytes, 0x7a]);
      return slice.call(b, 1, 1 + bytes.length);
    };
    const illFormed = [
      [0xc0, 0xaf], [0xc1, 0xbf], [0xe0, 0x80, 0x80], [0xe0, 0x9f, 0xbf], [0xed, 0xa0, 0x80],
      [0xed, 0xbf, 0xbf], [0xf0, 0x80, 0x80, 0x80], [0xf0, 0x8f, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80],
      [0xf5, 0x80, 0x80, 0x80], [0xff], [0x80], [0x61, 0xe2, 0x82], [0xf0, 0x9f, 0x98],
    ];
    for (const bytes of illFormed) if (!run(bytes).includes("\uFFFD")) return undefined;
    const wellFormed: [number[], string][] = [
      [[0xef, 0xbb, 0xbf, 0x61], "\uFEFFa"],
      [[0x68, 0xc3, 0xa9], "h\u00E9"],
      [[0xed, 0x9f, 0xbf, 0xee, 0x80, 0x80], "\uD7FF\uE000"],
      [[0xf0, 0x9f, 0x98, 0x80, 0xf4, 0x8f, 0xbf, 0xbf], "\u{1F600}\u{10FFFF}"],
      [[], ""],
    ];
    for (const [bytes, text] of wellFormed) if (run(bytes) !== text) return undefined;
    return slice;
  } catch {
    return undefined;
  }
})();

/** The longest string the ASCII fast path builds by hand; longer ones go to `TextDecoder`. */
const ASCII_MAX = 32;

/**
 * One reusable array of char codes per length up to {@link ASCII_MAX}: `String.fromCharCode`
 * applied to it builds a short string faster than a `TextDecoder` call or concatenation.
 */
const codes: number[][] = Array.from({ length: ASCII_MAX + 1 }, (_, n) => new Array<number>(n).fill(0));

/**
 * The string of the bytes `buf[start..end]` if they are well-formed UTF-8 (SPEC §7; a BOM
 * is kept), else the offset of the first byte of the first ill-formed sequence.
 */
export function decodeUtf8(buf: Uint8Array, start: number, end: number): string | number {
  const n = end - start;
  if (n <= ASCII_MAX) {
    // Short ASCII strings are most strings: every byte below 0x80 is well-formed.
    const a = codes[n]!;
    let i = 0;
    for (; i < n; i++) {
      const b = buf[start + i]!;
      if (b >= 0x80) break;
      a[i] = b;
    }
    if (i === n) return String.fromCharCode.apply(null, a);
  }
  if (utf8Slice !== undefined) {
    const s = utf8Slice.call(buf, start, end);
    if (s.indexOf("\uFFFD") < 0) return s;
  }
  try {
    return decoder.decode(buf.subarray(start, end));
  } catch {
    const bad = firstInvalidUtf8(buf, start, end);
    // Both follow Unicode §3.9; should they ever disagree, the validator's word stands.
    return bad >= 0 ? bad : new TextDecoder("utf-8", { ignoreBOM: true }).decode(buf.subarray(start, end));
  }
}

/** Slots of {@link decodeKey}'s cache (a power of two). */
const KEY_SLOTS = 256;
/** Recently decoded ASCII map keys, by a hash of their bytes; "" in an empty slot. */
const keyCache: string[] = /* @__PURE__ */ new Array<string>(KEY_SLOTS).fill("");

/**
 * {@link decodeUtf8} for a map key: keys repeat from map to map (attribute names, label
 * names), so an ASCII key up to {@link ASCII_MAX} bytes is looked up among recently
 * decoded ones first and, when its bytes equal one's char codes, that string is returned
 * (the same string value a decode would build; a string has no identity). Only ASCII keys
 * are kept, so equal bytes mean well-formed UTF-8 and the same characters.
 */
export function decodeKey(buf: Uint8Array, start: number, end: number): string | number {
  const n = end - start;
  if (n === 0 || n > ASCII_MAX) return decodeUtf8(buf, start, end);
  const h = (n * 31 + buf[start]! * 7 + buf[start + (n >> 1)]! * 3 + buf[end - 1]!) & (KEY_SLOTS - 1);
  const c = keyCache[h]!;
  if (c.length === n) {
    let i = 0;
    while (i < n && c.charCodeAt(i) === buf[start + i]) i++;
    if (i === n) return c;
  }
  const s = decodeUtf8(buf, start, end);
  // A UTF-8 length equal to the UTF-16 length: every byte is ASCII.
  if (typeof s === "string" && s.length === n) keyCache[h] = s;
  return s;
}

/**
 * The UTF-8 length of `s`, or -1 when `s` holds a lone surrogate (no UTF-8 spelling
 * exists, and the encoder must write the code points it was given: SPEC §7).
 */
export function utf8Length(s: string): number {
  // Most strings are ASCII, whose UTF-8 length is their length: the regular expression
  // engine tells so faster than a loop in JavaScript once a string is not tiny.
  if (s.length > 16 && ASCII.test(s)) return s.length;
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (d < 0xdc00 || d > 0xdfff) return -1;
      n += 2; // two UTF-16 units, four bytes
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return -1;
    else n += 2;
  }
  return n;
}

/**
 * Node's native Latin-1 writer, `Buffer.prototype.latin1Write(string, offset, length)`,
 * when the platform has one and it works on a plain `Uint8Array` (checked once on a probe);
 * undefined elsewhere (browsers, other runtimes), where the loop writes. Past a few dozen
 * units one native call costs less than a loop over the string in JavaScript; `encodeInto`
 * costs more than both (measured in Node 20: about 45 ns a call against 1–2.5 ns a unit
 * for the loop and 110 ns for `encodeInto` on 30–130-unit ASCII strings).
 */
const latin1Write: ((this: Uint8Array, s: string, offset: number, length: number) => number) | undefined =
  /* @__PURE__ */ (() => {
    try {
      const f = (globalThis as { Buffer?: { prototype?: { latin1Write?: unknown } } }).Buffer?.prototype?.latin1Write;
      if (typeof f !== "function") return undefined;
      const probe = new Uint8Array(4);
      const w = f.call(probe, "ab", 1, 2);
      return w === 2 && probe[0] === 0 && probe[1] === 0x61 && probe[2] === 0x62 && probe[3] === 0
        ? (f as (this: Uint8Array, s: string, offset: number, length: number) => number)
        : undefined;
    } catch {
      return undefined;
    }
  })();

/** A string of UTF-16 units below 0x80 only. */
const ASCII = /^[\0-\x7f]*$/;

/** Strings longer than this are written by `TextEncoder.encodeInto`, shorter ones by hand. */
const ENCODE_INTO_MIN = 64;
const encoder = /* @__PURE__ */ new TextEncoder();

/** ASCII strings longer than this are written by {@link latin1Write} where there is one. */
const LATIN1_WRITE_MIN = 24;

/**
 * Write `s` (checked by {@link utf8Length}, whose result is `n`) as UTF-8 at `pos`;
 * returns the new position. The caller has sized `buf`.
 */
export function writeUtf8(buf: Uint8Array, pos: number, s: string, n: number): number {
  if (n === s.length) {
    // ASCII: one byte per unit (any other unit takes more than one byte), which is also
    // its Latin-1 byte.
    if (n > LATIN1_WRITE_MIN && latin1Write !== undefined) latin1Write.call(buf, s, pos, n);
    else for (let i = 0; i < n; i++) buf[pos + i] = s.charCodeAt(i);
    return pos + n;
  }
  if (s.length > ENCODE_INTO_MIN) {
    // Well-formed (no lone surrogate, checked by utf8Length): encodeInto writes exactly n bytes.
    encoder.encodeInto(s, buf.subarray(pos, pos + n));
    return pos + n;
  }
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) buf[pos++] = c;
    else if (c < 0x800) {
      buf[pos++] = 0xc0 | (c >> 6);
      buf[pos++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdbff) {
      c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      buf[pos++] = 0xf0 | (c >> 18);
      buf[pos++] = 0x80 | ((c >> 12) & 0x3f);
      buf[pos++] = 0x80 | ((c >> 6) & 0x3f);
      buf[pos++] = 0x80 | (c & 0x3f);
    } else {
      buf[pos++] = 0xe0 | (c >> 12);
      buf[pos++] = 0x80 | ((c >> 6) & 0x3f);
      buf[pos++] = 0x80 | (c & 0x3f);
    }
  }
  return pos;
}

/**
 * Compare two strings by code point (SPEC §6.4: the order of their UTF-8 bytes), not by
 * UTF-16 code unit as `<` does.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (D800–DFFF) stand for code points above FFFF: move them above E000–FFFF.
    if (x >= 0xd800) x = x < 0xe000 ? x + 0x2000 : x - 0x800;
    if (y >= 0xd800) y = y < 0xe000 ? y + 0x2000 : y - 0x800;
    return x - y;
  }
  return a.length - b.length;
}

/** Compare `buf[a..aEnd]` with `buf[b..bEnd]` bytewise; a prefix sorts first. */
export function compareBytes(buf: Uint8Array, a: number, aEnd: number, b: number, bEnd: number): number {
  const n = Math.min(aEnd - a, bEnd - b);
  for (let i = 0; i < n; i++) {
    const d = buf[a + i]! - buf[b + i]!;
    if (d !== 0) return d;
  }
  return aEnd - a - (bEnd - b);
}
