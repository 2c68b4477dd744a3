/** Base64 for the proto3 JSON mapping's bytes. */

const STD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const STD_INDEX = indexOf(STD);
const URL_INDEX = indexOf(URL);

function indexOf(alphabet: string): Int8Array {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
}

/**
 * Standard or URL-safe base64 (the alphabet chosen by whether `-` or `_` occurs), padded
 * canonically or not at all, with zero trailing bits; `undefined` otherwise.
 */
export function base64Decode(s: string): Uint8Array | undefined {
  const table = /[-_]/.test(s) ? URL_INDEX : STD_INDEX;
  let n = s.length;
  if (s.endsWith("=")) {
    if (n % 4 !== 0) return undefined;
    n -= s.endsWith("==") ? 2 : 1;
  }
  const rem = n % 4;
  if (rem === 1) return undefined;
  if (s.length !== n && rem === 0) return undefined;
  const out = new Uint8Array(Math.floor(n / 4) * 3 + (rem === 0 ? 0 : rem - 1));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const d = c < 128 ? table[c]! : -1;
    if (d < 0) return undefined;
    acc = ((acc << 6) | d) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  if ((acc & ((1 << bits) - 1)) !== 0) return undefined; // trailing bits must be zero
  return out;
}

/** Standard base64 with padding. */
export function base64Encode(b: Uint8Array): string {
  let s = "";
  let i = 0;
  for (; i + 2 < b.length; i += 3) {
    const x = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!;
    s += STD[x >> 18]! + STD[(x >> 12) & 63]! + STD[(x >> 6) & 63]! + STD[x & 63]!;
  }
  if (i + 1 === b.length) {
    const x = b[i]! << 16;
    s += STD[x >> 18]! + STD[(x >> 12) & 63]! + "==";
  } else if (i + 2 === b.length) {
    const x = (b[i]! << 16) | (b[i + 1]! << 8);
    s += STD[x >> 18]! + STD[(x >> 12) & 63]! + STD[(x >> 6) & 63]! + "=";
  }
  return s;
}
