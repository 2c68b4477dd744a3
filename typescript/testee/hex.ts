/**
 * The vector notation of the conformance suite: two hex digits per byte separated by
 * whitespace, `XX{n}` for the byte `XX` written `n` times.
 */

/** Parse the notation into bytes. */
export function parseHex(text: string): Uint8Array {
  const tokens = text.split(/\s+/).filter((t) => t.length > 0);
  let n = 0;
  const parsed: [number, number][] = [];
  for (const t of tokens) {
    const m = /^([0-9A-Fa-f]{2})(?:\{(\d+)\})?$/.exec(t);
    if (m === null) throw new Error(`bad hex token \`${t}\``);
    const count = m[2] === undefined ? 1 : Number(m[2]);
    parsed.push([parseInt(m[1]!, 16), count]);
    n += count;
  }
  const out = new Uint8Array(n);
  let pos = 0;
  for (const [b, count] of parsed) {
    out.fill(b, pos, pos + count);
    pos += count;
  }
  return out;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).toUpperCase().padStart(2, "0"));

/** Format bytes, writing every run of 8 or more equal bytes as `XX{n}`. */
export function formatHex(bytes: Uint8Array): string {
  const parts: string[] = [];
  let i = 0;
  while (i < bytes.length) {
    let j = i + 1;
    while (j < bytes.length && bytes[j] === bytes[i]) j++;
    if (j - i >= 8) parts.push(`${HEX[bytes[i]!]}{${j - i}}`);
    else for (let k = i; k < j; k++) parts.push(HEX[bytes[k]!]!);
    i = j;
  }
  return parts.join(" ");
}
