/**
 * The generated encoders checked against the runtime's field-list walk: every generated
 * type gets a twin described by the same fields but without a generated encoder, and the
 * two must give the same bytes for a value, or the same refusal (code, path and text) for a
 * value broken on purpose. The testee runs this check on every value it encodes for the
 * cross-language property tests and on every value it re-encodes after a decode.
 */

import { EncodeError, Kind, MessageType, registerType, type FieldSpec } from "../src/index.js";

const twins = new Map<MessageType<object>, MessageType<object>>();

/** `type` described by its field list alone: encoded by the field-list walk. */
export function twinOf(type: MessageType<object>): MessageType<object> {
  let t = twins.get(type);
  if (t !== undefined) return t;
  t = new MessageType<object>(type.typeName, () =>
    type.fieldList.map(
      (f): FieldSpec => ({
        no: f.no,
        name: f.name,
        prop: f.prop,
        kind: f.kind,
        presence: f.presence,
        repeated: f.card === 1,
        mapKey: f.card === 2 ? f.keyKind : undefined,
        oneof: f.oneof,
        msg: f.msg === undefined ? undefined : twinOf(f.msg as MessageType<object>),
        enumType: f.enumType,
      }),
    ),
  );
  twins.set(type, t);
  registerType(type); // the twin took its name in the JSON mapping's registry: give it back
  return t;
}

/** An encoder's outcome as comparable text: the bytes, or the refusal. */
function outcome(type: MessageType<object>, value: object, maxDepth: number): string {
  try {
    return Buffer.from(type.encode(value, { maxDepth })).toString("hex");
  } catch (e) {
    if (e instanceof EncodeError) return `refused ${e.code} at ${e.path}: ${e.message}`;
    return `threw ${e instanceof Error ? e.constructor.name : typeof e}: ${String(e)}`;
  }
}

/**
 * Why `type`'s generated encoder and its twin disagree on `value` (with depth limit
 * `maxDepth`), or `undefined` when they agree.
 */
export function disagreement(type: MessageType<object>, value: object, maxDepth = 100): string | undefined {
  const generated = outcome(type, value, maxDepth);
  const walked = outcome(twinOf(type), value, maxDepth);
  return generated === walked ? undefined : `generated encoder: ${generated}; field-list walk: ${walked}`;
}

/** Values of the wrong JavaScript type or out of range for some field kind. */
const BAD: readonly unknown[] = [
  undefined,
  null,
  "s",
  "",
  "\ud800",
  1.5,
  -1,
  0,
  -0,
  Number.NaN,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  0n,
  -1n,
  2n ** 63n,
  2n ** 64n,
  -(2n ** 63n) - 1n,
  true,
  false,
  {},
  [],
  [1, "x"],
  new Map(),
  new Map<unknown, unknown>([
    [2, 1],
    [1, 2],
  ]),
  new Map<unknown, unknown>([["b", "x"], ["a", 1n]]),
  new Uint8Array(1),
];

type Rng = () => number;

/** Put a bad value somewhere in `v`, a value of `type`: a field, an element, a map entry. */
export function corrupt(r: Rng, type: MessageType<object>, v: Record<string, unknown>): void {
  const fields = type.fieldList;
  if (fields.length === 0) return;
  // Sometimes go one message deeper first.
  const nested: [MessageType<object>, Record<string, unknown>][] = [];
  for (const f of fields) {
    if (f.kind !== Kind.Message) continue;
    const x = f.oneof !== undefined ? (v[f.oneof] as { case: string; value: unknown } | undefined) : v[f.prop];
    const own = f.oneof !== undefined ? (x as { case: string; value: unknown } | undefined) : undefined;
    const inner = own !== undefined ? (own.case === f.prop ? own.value : undefined) : x;
    const candidates = Array.isArray(inner) ? inner : inner instanceof Map ? [...inner.values()] : [inner];
    for (const c of candidates) {
      if (typeof c === "object" && c !== null) nested.push([f.msg as MessageType<object>, c as Record<string, unknown>]);
    }
  }
  if (nested.length > 0 && r() < 0.5) {
    const [t, x] = nested[Math.floor(r() * nested.length)]!;
    corrupt(r, t, x);
    return;
  }
  const f = fields[Math.floor(r() * fields.length)]!;
  const bad = BAD[Math.floor(r() * BAD.length)];
  if (f.oneof !== undefined) {
    v[f.oneof] = r() < 0.2 ? bad : { case: f.prop, value: bad };
  } else if (f.card === 1 && Array.isArray(v[f.prop]) && r() < 0.7) {
    (v[f.prop] as unknown[]).splice(Math.floor(r() * ((v[f.prop] as unknown[]).length + 1)), 0, bad);
  } else if (f.card === 2 && v[f.prop] instanceof Map && r() < 0.7) {
    const m = v[f.prop] as Map<unknown, unknown>;
    if (r() < 0.5) m.set(bad, [...m.values()][0]);
    else m.set([...m.keys()][0] ?? 0, bad);
  } else {
    v[f.prop] = bad;
  }
}
