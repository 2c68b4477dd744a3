/**
 * Message descriptions: what generated code hands the runtime. Each message type is a
 * {@link MessageType} built from a list of {@link FieldSpec}s; the decoder and the encoder
 * walk that list (one implementation of each rule, whatever the message).
 */

/** Scalar and message kinds of a field or element (SPEC §3). */
export const Kind = {
  Double: 1,
  Float: 2,
  Int64: 3,
  Uint64: 4,
  Int32: 5,
  Fixed64: 6,
  Fixed32: 7,
  Bool: 8,
  String: 9,
  Message: 11,
  Bytes: 12,
  Uint32: 13,
  Enum: 14,
  Sfixed32: 15,
  Sfixed64: 16,
  Sint32: 17,
  Sint64: 18,
} as const;
/** One of {@link Kind}'s values. */
export type Kind = (typeof Kind)[keyof typeof Kind];

/** How a singular field's presence is tracked (SPEC §5). */
export const Presence = { Implicit: 0, Explicit: 1, Required: 2 } as const;
/** One of {@link Presence}'s values. */
export type Presence = (typeof Presence)[keyof typeof Presence];

/** Wire types (SPEC §4.2). */
export const WireType = { Varint: 0, I64: 1, Len: 2, I32: 3 } as const;
/** One of {@link WireType}'s values. */
export type WireType = (typeof WireType)[keyof typeof WireType];

/** A field as generated code describes it. */
export interface FieldSpec {
  /** Field number. */
  readonly no: number;
  /** The schema's field name: error paths use it (SPEC §11.3). */
  readonly name: string;
  /** The property of the TypeScript object (and a oneof member's `case`); `name` when absent. */
  readonly prop?: string;
  /**
   * The JSON name (proto3 JSON mapping); `prop` when absent. Generated code gives it when a
   * property had to differ from it: proto2 allows two fields one JSON name, which cannot
   * also be one property.
   */
  readonly json?: string;
  /** The element kind: for a map, the value's kind. */
  readonly kind: Kind;
  /** Presence of a singular field; implicit when absent. */
  readonly presence?: Presence;
  /** A repeated field. */
  readonly repeated?: boolean;
  /** A map field: the key's kind. */
  readonly mapKey?: Kind;
  /** The oneof property holding `{ case, value }` for a member of a (real) oneof. */
  readonly oneof?: string;
  /** The message type of a message field, element or map value. */
  readonly msg?: MessageTypeLike;
  /** The enum type of an enum field, element or map value (its names, for JSON). */
  readonly enumType?: EnumTypeLike;
  /**
   * Reads the field's property (its oneof's for a oneof member) of a value: generated code
   * passes `(v) => v.name`, a property access of one name that the engine makes fast,
   * where the runtime's `v[key]` over every field of every type is slow. Optional; ignored
   * for a name every object inherits (`__proto__`, `constructor`, …).
   */
  readonly get?: (v: Record<string, any>) => unknown;
  /** Writes the same property, as `get` reads it: `(v, x) => { v.name = x; }`. */
  readonly set?: (v: Record<string, any>, x: any) => void;
}

/** An enum type as generated code describes it: full name and named values. */
export interface EnumTypeLike {
  /** Full name, `pkg.Color`. */
  readonly typeName: string;
  /** The named values, name → number, in declaration order. */
  readonly values: Readonly<Record<string, number>>;
}

/** The part of a message type fields refer to (kept structural to avoid an import cycle). */
export interface MessageTypeLike {
  /** Full name, `pkg.Outer.Inner`. */
  readonly typeName: string;
}

/** A preserved unknown record (SPEC §8.2): number, wire type and payload bytes. */
export interface UnknownField {
  /** Field number. */
  readonly no: number;
  /** Wire type. */
  readonly wireType: WireType;
  /**
   * The payload as on the wire: the bijou64 for VARINT, the 4 or 8 bytes for I32 and I64,
   * the content without its length prefix for LEN.
   */
  readonly data: Uint8Array;
}

/** What every generated message interface may hold besides its fields. */
export interface MessageShape {
  /** Unknown records kept by a preserving decode, ascending by number (SPEC §8.2). */
  $unknown?: UnknownField[];
}

/** The shape of a field: singular, repeated, map. */
export const Card = { Single: 0, Repeated: 1, Map: 2 } as const;
/** One of {@link Card}'s values. */
export type Card = (typeof Card)[keyof typeof Card];

/** A field after the runtime has resolved its spec. */
export interface Field {
  readonly no: number;
  readonly name: string;
  /** `.name`, the path segment of the field. */
  readonly seg: string;
  readonly prop: string;
  /** The JSON name: `prop` unless the spec says otherwise. */
  readonly json: string;
  readonly kind: Kind;
  readonly card: Card;
  readonly presence: Presence;
  readonly oneof: string | undefined;
  readonly keyKind: Kind;
  readonly msg: MessageTypeLike | undefined;
  /** The enum type of an enum field (for JSON). */
  readonly enumType: EnumTypeLike | undefined;
  /** The field's wire type (SPEC §4.4). */
  readonly wire: WireType;
  /** Whether its records open a message (SPEC §10.1 step 1, O7). */
  readonly opensMessage: boolean;
  /**
   * Whether its property (or its oneof's) is also a name every object inherits
   * (`__proto__`, `constructor`, `toString`, …): such a property is read only when the
   * value holds it as its own, never from `Object.prototype`.
   */
  readonly inherited: boolean;
  /** Reads the field's slot of a value: its property, its oneof's for a oneof member. */
  readonly get: (v: Record<string, unknown>) => unknown;
  /** Writes the field's slot of a value the runtime made (whose properties are its own). */
  readonly set: (v: Record<string, unknown>, x: unknown) => void;
}

/** Whether every object inherits a property named `key` (`__proto__`, `constructor`, …). */
export function isInheritedName(key: string): boolean {
  return key in Object.prototype;
}

/**
 * `v[key]` when `v` holds `key` as its own property, else `undefined`: a value built as
 * `{}` does not hold a field named `constructor` just because every object inherits one.
 */
export function ownValue(v: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(v, key) ? v[key] : undefined;
}

/**
 * Give `v` the own, enumerable, writable property `key`: unlike `v[key] = x`, this works
 * for `__proto__`, which assignment would take as the object's prototype.
 */
export function defineOwn(v: object, key: string, x: unknown): void {
  Object.defineProperty(v, key, { value: x, writable: true, enumerable: true, configurable: true });
}

/** The wire type of one element of `kind` (SPEC §4.4). */
export function wireTypeOf(kind: Kind): WireType {
  switch (kind) {
    case Kind.Double:
    case Kind.Fixed64:
    case Kind.Sfixed64:
      return WireType.I64;
    case Kind.Float:
    case Kind.Fixed32:
    case Kind.Sfixed32:
      return WireType.I32;
    case Kind.String:
    case Kind.Bytes:
    case Kind.Message:
      return WireType.Len;
    default:
      return WireType.Varint;
  }
}

/** The width of a fixed-width element, 0 for the others (SPEC §6.2). */
export function fixedWidth(kind: Kind): number {
  const w = wireTypeOf(kind);
  return w === WireType.I32 ? 4 : w === WireType.I64 ? 8 : 0;
}

/** Whether values of `kind` are `bigint`s. */
export function isBigKind(kind: Kind): boolean {
  return (
    kind === Kind.Int64 ||
    kind === Kind.Sint64 ||
    kind === Kind.Uint64 ||
    kind === Kind.Fixed64 ||
    kind === Kind.Sfixed64
  );
}

/** Resolve a spec into the runtime's field. */
export function resolveField(s: FieldSpec): Field {
  const card = s.mapKey !== undefined ? Card.Map : s.repeated ? Card.Repeated : Card.Single;
  const slot = s.oneof ?? s.prop ?? s.name;
  const inherited = isInheritedName(s.prop ?? s.name) || (s.oneof !== undefined && isInheritedName(s.oneof));
  // Accessors: the generated ones, else keyed access (own properties only for inherited names).
  const get =
    s.get !== undefined && !inherited
      ? s.get
      : inherited
        ? (v: Record<string, unknown>) => ownValue(v, slot)
        : (v: Record<string, unknown>) => v[slot];
  const set =
    s.set !== undefined && !inherited
      ? s.set
      : (v: Record<string, unknown>, x: unknown) => {
          v[slot] = x;
        };
  return {
    no: s.no,
    name: s.name,
    seg: "." + s.name,
    prop: s.prop ?? s.name,
    json: s.json ?? s.prop ?? s.name,
    kind: s.kind,
    card,
    presence: s.presence ?? Presence.Implicit,
    oneof: s.oneof,
    keyKind: s.mapKey ?? Kind.Bool,
    msg: s.msg,
    enumType: s.enumType,
    wire: card === Card.Single ? wireTypeOf(s.kind) : WireType.Len,
    opensMessage: s.kind === Kind.Message,
    inherited,
    get,
    set,
  };
}

/** The default value of an implicit-presence field of `kind` (SPEC §5.1). */
export function defaultOf(kind: Kind): unknown {
  switch (kind) {
    case Kind.Bool:
      return false;
    case Kind.String:
      return "";
    case Kind.Bytes:
      return new Uint8Array(0);
    case Kind.Message:
      return undefined;
    default:
      return isBigKind(kind) ? 0n : 0;
  }
}
