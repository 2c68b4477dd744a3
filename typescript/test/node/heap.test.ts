// What decoding costs in the JavaScript heap, per input byte (SPEC §9.4 keeps memory
// proportional to input; these bounds say by how much). The heap is measured around a
// decode with the collector run before and after, so what is counted is what the decoded
// value holds: the bound is the measured cost with a little room, and a change that makes
// values larger fails here.

import assert from "node:assert/strict";
import { test } from "node:test";
import v8 from "node:v8";
import vm from "node:vm";

import { Kind, MessageType, Presence, bijou64, type MessageShape } from "../../src/index.js";
import { Person } from "../schema.js";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

function heap(): number {
  gc();
  gc();
  return v8.getHeapStatistics().used_heap_size;
}

/** The heap and the array buffers outside it (where byte chunks live), after collection. */
function heapAndBuffers(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** A repeated message record of `n` empty elements: key, length, then `00` per element. */
function emptyElements(key: number, n: number): Uint8Array {
  const l = bijou64.encode(n);
  const b = new Uint8Array(1 + l.length + n);
  b[0] = key;
  b.set(l, 1);
  return b;
}

/** Bytes the decoded value of `bytes` holds, per input byte. */
function retainedPerByte(type: MessageType<object>, bytes: Uint8Array): number {
  const before = heap();
  const v = type.decode(bytes);
  const after = heap();
  assert.ok(v !== undefined);
  return (after - before) / bytes.length;
}

interface Leaf extends MessageShape {
  x: number;
}
const Leaf = new MessageType<Leaf>("heap.Leaf", () => [{ no: 1, name: "x", kind: Kind.Uint32 }], () => ({ x: 0 }));
interface Holder extends MessageShape {
  leaves: Leaf[];
}
const Holder = new MessageType<Holder>("heap.Holder", () => [{ no: 1, name: "leaves", kind: Kind.Message, msg: Leaf, repeated: true }], () => ({
  leaves: [],
}));
interface Tree extends MessageShape {
  child?: Tree;
  val: number;
  kids: Tree[];
  named: Map<number, Tree>;
}
const Tree: MessageType<Tree> = new MessageType<Tree>(
  "heap.Tree",
  () => [
    { no: 1, name: "child", kind: Kind.Message, msg: Tree, presence: Presence.Explicit },
    { no: 2, name: "val", kind: Kind.Uint32 },
    { no: 3, name: "kids", kind: Kind.Message, msg: Tree, repeated: true },
    { no: 4, name: "named", mapKey: Kind.Uint32, kind: Kind.Message, msg: Tree },
  ],
  () => ({ child: undefined, val: 0, kids: [], named: new Map() }),
);

const MB = 1 << 20;

test("1 MB of empty messages: about 42 bytes per input byte without list or map fields", () => {
  const per = retainedPerByte(Holder as MessageType<object>, emptyElements(0x02, MB));
  // Measured 41.8 (Node 20): an object of one field and its slot in the list.
  assert.ok(per < 56, `${per.toFixed(1)} bytes per input byte`);
});

test("1 MB of empty messages with a list and a map field: about 282 bytes per input byte", () => {
  const per = retainedPerByte(Tree as MessageType<object>, emptyElements(0x0a, MB));
  // Measured 282.0 (Node 20): each one-byte element is an object with an empty array and
  // an empty Map of its own (values keep lists and maps present, SPEC-shaped), and an
  // empty Map is most of it.
  assert.ok(per < 320, `${per.toFixed(1)} bytes per input byte`);
});

test("a stream is read in constant memory: 32 MB of frames, the heap and buffers grow by less than 8 MB", async () => {
  // Frames of about 1 KB (a long name), so the stream is large and the frames few.
  const frame = Person.encodeDelimited([Person.create({ name: "Ada ".repeat(256), age: 36 })]);
  const total = 32 * MB;
  const count = Math.floor(total / frame.length);
  const per = Math.floor(65536 / frame.length);
  let sent = 0;
  const src = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent >= count) return c.close();
      const k = Math.min(per, count - sent);
      const chunk = new Uint8Array(k * frame.length);
      for (let i = 0; i < k; i++) chunk.set(frame, i * frame.length);
      sent += k;
      c.enqueue(chunk);
    },
  });
  const base = heapAndBuffers();
  let peak = 0;
  let n = 0;
  for await (const { message } of Person.decodeFrames(src)) {
    assert.equal(message.age, 36);
    if (++n % 4096 === 0) peak = Math.max(peak, heapAndBuffers() - base);
  }
  assert.equal(n, count);
  // Measured 1.29 to 1.47 MB; a reader that kept every chunk grew by 31 MB.
  assert.ok(peak < 8 * MB, `the heap grew by ${peak} bytes`);
});
