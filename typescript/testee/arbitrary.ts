/**
 * Arbitrary values of any message type, built from its field description and a seed:
 * biased towards the tier edges of bijou64, ±0.0, NaN, infinities and multi-byte strings,
 * like the Rust suite's generator (conformance/src/arbitrary.rs). The cross-language
 * property test asks the testee for such values' encodings and decodes them in Rust.
 */

import { Kind, MessageType } from "../src/index.js";

type Rng = () => number;

/** mulberry32: a small seeded generator, uniform in [0, 1). */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(r: Rng, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

const U64_EDGES = [0n, 1n, 247n, 248n, 503n, 504n, 66039n, 66040n, 4294967295n, 72340172838076919n, 72340172838076920n, 18446744073709551615n];
const I64_EDGES = [0n, 1n, -1n, 123n, -124n, 9223372036854775807n, -9223372036854775808n, 36170086419038460n];
const STRINGS = ["", "a", "hé", "Ａ", "😀", "\u0000", "\u007f\"\\", "rush", "gift"];

function scalar(r: Rng, kind: number): unknown {
  switch (kind) {
    case Kind.Int32:
    case Kind.Sint32:
    case Kind.Enum:
    case Kind.Sfixed32:
      return pick(r, [0, 1, -1, 124, -125, 2147483647, -2147483648, Math.floor(r() * 2 ** 32) - 2 ** 31]);
    case Kind.Uint32:
    case Kind.Fixed32:
      return pick(r, [0, 1, 247, 248, 503, 504, 66040, 4294967295, Math.floor(r() * 2 ** 32)]);
    case Kind.Uint64:
    case Kind.Fixed64:
      return pick(r, U64_EDGES);
    case Kind.Int64:
    case Kind.Sint64:
    case Kind.Sfixed64:
      return pick(r, I64_EDGES);
    case Kind.Bool:
      return r() < 0.5;
    case Kind.Float:
      return pick(r, [0, -0, 1.5, Number.NaN, Infinity, -Infinity, Math.fround(r() * 1e6 - 5e5)]);
    case Kind.Double:
      return pick(r, [0, -0, 1.5, Number.NaN, Infinity, -Infinity, 5e-324, r() * 1e12 - 5e11]);
    case Kind.String:
      return pick(r, STRINGS) + (r() < 0.3 ? pick(r, STRINGS) : "");
    default:
      return Uint8Array.from({ length: Math.floor(r() * 4) }, () => Math.floor(r() * 256));
  }
}

function element(r: Rng, kind: number, msg: unknown, depth: number): unknown {
  return kind === Kind.Message ? value(r, msg as MessageType<object>, depth + 1) : scalar(r, kind);
}

function value(r: Rng, type: MessageType<object>, depth: number): object {
  const v = type.create() as Record<string, unknown>;
  for (const f of type.fieldList) {
    if (f.opensMessage && depth >= 3) continue; // keep values small; required message fields are rare
    if (f.card === 1) {
      const n = Math.floor(r() * 3);
      v[f.prop] = Array.from({ length: n }, () => element(r, f.kind, f.msg, depth));
    } else if (f.card === 2) {
      const m = new Map<unknown, unknown>();
      for (let i = Math.floor(r() * 3); i > 0; i--) m.set(scalar(r, f.keyKind), element(r, f.kind, f.msg, depth));
      v[f.prop] = m;
    } else if (f.oneof !== undefined) {
      if (v[f.oneof] === undefined && r() < 0.4) v[f.oneof] = { case: f.prop, value: element(r, f.kind, f.msg, depth) };
    } else if (f.presence === 2 || r() < 0.6) {
      v[f.prop] = element(r, f.kind, f.msg, depth);
    }
  }
  return v;
}

/** An arbitrary value of `type` from `seed`. */
export function arbitrary(type: MessageType<object>, seed: number): object {
  return value(rng(seed), type, 1);
}
