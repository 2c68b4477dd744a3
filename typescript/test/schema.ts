// Message types written by hand in the form the code generator emits: the SPEC's
// Appendix A messages, so the runtime's tests need no generated code.

import { Kind, MessageType, Presence, type MessageShape } from "../src/index.js";

export interface Person extends MessageShape {
  name: string;
  age: number;
  active: boolean;
  score?: number;
}
export const Person = new MessageType<Person>("conformance.Person", () => [
  { no: 1, name: "name", kind: Kind.String },
  { no: 2, name: "age", kind: Kind.Int32 },
  { no: 3, name: "active", kind: Kind.Bool },
  { no: 5, name: "score", kind: Kind.Int32, presence: Presence.Explicit },
]);

export interface Customer extends MessageShape {
  name: string;
}
export const Customer = new MessageType<Customer>("conformance.Customer", () => [
  { no: 1, name: "name", kind: Kind.String },
]);

export interface Line extends MessageShape {
  sku: string;
  qty: number;
}
export const Line = new MessageType<Line>("conformance.Line", () => [
  { no: 1, name: "sku", kind: Kind.String },
  { no: 2, name: "qty", kind: Kind.Uint32 },
]);

export interface Order extends MessageShape {
  id: bigint;
  customer?: Customer;
  lines: Line[];
  tags: Map<string, bigint>;
}
export const Order = new MessageType<Order>("conformance.Order", () => [
  { no: 1, name: "id", kind: Kind.Uint64 },
  { no: 2, name: "customer", kind: Kind.Message, msg: Customer, presence: Presence.Explicit },
  { no: 4, name: "lines", kind: Kind.Message, msg: Line, repeated: true },
  { no: 7, name: "tags", mapKey: Kind.String, kind: Kind.Sint64 },
]);

export interface Reading extends MessageShape {
  sensor: bigint;
  value?: number;
  samples: number[];
  unit?: { case: "celsius"; value: boolean } | { case: "other"; value: string };
  offset?: number;
}
export const Reading = new MessageType<Reading>("conformance.Reading", () => [
  { no: 1, name: "sensor", kind: Kind.Fixed64, presence: Presence.Required },
  { no: 2, name: "value", kind: Kind.Double, presence: Presence.Explicit },
  { no: 3, name: "samples", kind: Kind.Float, repeated: true },
  { no: 4, name: "celsius", kind: Kind.Bool, oneof: "unit" },
  { no: 5, name: "other", kind: Kind.String, oneof: "unit" },
  { no: 6, name: "offset", kind: Kind.Sint32, presence: Presence.Explicit },
]);

export interface Node extends MessageShape {
  child?: Node;
  val: number;
}
export const Node: MessageType<Node> = new MessageType<Node>("conformance.Node", () => [
  { no: 1, name: "child", kind: Kind.Message, msg: Node, presence: Presence.Explicit },
  { no: 2, name: "val", kind: Kind.Uint32 },
]);

export interface Keyed extends MessageShape {
  str: Map<string, number>;
  s32: Map<number, number>;
}
export const Keyed = new MessageType<Keyed>("conformance.Keyed", () => [
  { no: 1, name: "str", mapKey: Kind.String, kind: Kind.Uint32 },
  { no: 2, name: "s32", mapKey: Kind.Sint32, kind: Kind.Uint32 },
]);

/** Bytes from the SPEC's notation. */
export function hex(s: string): Uint8Array {
  const t = s.trim();
  return Uint8Array.from(t === "" ? [] : t.split(/\s+/).map((b) => parseInt(b, 16)));
}

/** Bytes to the SPEC's notation. */
export function show(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).toUpperCase().padStart(2, "0")).join(" ");
}
