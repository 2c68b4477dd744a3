// Frames read from a ReadableStream as they arrive (SPEC §9.2): the slice reader's answers,
// whatever the chunking, errors with the frame's index and the stream's offsets.

import assert from "node:assert/strict";
import { test } from "node:test";

import { DecodeError, MessageType, bijou64, type DecodeOptions } from "../src/index.js";
import { Node, Person, hex, show } from "./schema.js";

/** `bytes` as a ReadableStream of chunks of `size` bytes. */
function streamOf(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let pos = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (pos >= bytes.length) c.close();
      else {
        c.enqueue(bytes.slice(pos, pos + size));
        pos += size;
      }
    },
  });
}

/** What a reader answered: each message re-encoded, then the error if any. */
type Answer = { frames: string[]; unknown: number[]; error?: string };

function errorText(e: unknown): string {
  if (e instanceof DecodeError) return `${e.code} at ${e.offset}, path ${e.path}, frame ${e.frame}`;
  throw e;
}

async function fromStream<T extends object>(type: MessageType<T>, src: ReadableStream<Uint8Array>, options?: DecodeOptions): Promise<Answer> {
  const a: Answer = { frames: [], unknown: [] };
  try {
    for await (const d of type.decodeFrames(src, options)) {
      a.frames.push(show(type.encode(d.message)));
      a.unknown.push(d.unknownFields);
    }
  } catch (e) {
    a.error = errorText(e);
  }
  return a;
}

/**
 * The slice reader's answer: its error for the whole stream, and the frames before the
 * first bad one, each decoded alone (the slice reader returns none of them on an error).
 */
function fromSlice<T extends object>(type: MessageType<T>, bytes: Uint8Array, options?: DecodeOptions): Answer {
  const a: Answer = { frames: [], unknown: [] };
  try {
    type.decodeDelimited(bytes, options);
  } catch (e) {
    a.error = errorText(e);
  }
  let pos = 0;
  while (pos < bytes.length) {
    const p = bijou64.decode(bytes, pos);
    if (typeof p === "string") break;
    const end = pos + p.length + Number(p.value);
    if (end > bytes.length) break;
    try {
      const d = type.decodeDelimited(bytes.subarray(pos, end), options);
      a.frames.push(show(type.encode(d.message[0]!)));
      a.unknown.push(d.unknownFields);
    } catch {
      break;
    }
    pos = end;
  }
  return a;
}

const CASES: [string, string, DecodeOptions?][] = [
  ["empty stream", ""],
  ["one empty message", "00"],
  ["Appendix A.4", "09 02 03 41 64 61 00 48 08 00 00"],
  ["Appendix A.4 and a partial frame", "09 02 03 41 64 61 00 48 08 00 00 05 02 03"],
  ["a partial frame", "05 02 03 41 64"],
  ["a prefix cut", "F8"],
  ["a prefix cut after a frame", "00 F9 01"],
  ["a prefix past u64", "00 FF FF FF FF FF FF FF FF FF"],
  ["an error in the second frame", "02 04 05 03 02 00 00"],
  ["junk inside a frame", "02 04 05 02 FF FF"],
  ["a frame over the size limit", "02 04 05 05 02 03 41 64 61", { maxSize: 3 }],
  ["a declared length over the limit with no bytes", "02 04 05 F9 FF FF", { maxSize: 3 }],
  ["frames at the size limit", "02 04 05 00 02 04 06", { maxSize: 2 }],
  ["depth past the limit in the second frame", "00 02 02 00", { maxDepth: 1 }],
  ["preserved unknown fields", "02 0C 01 02 0C 02", { preserveUnknown: true }],
];

test("frames from a ReadableStream: the slice reader's answers, in chunks of any size", async () => {
  for (const [name, h, options] of CASES) {
    const bytes = hex(h);
    const type: MessageType<object> = name.includes("depth") || name.includes("unknown") ? Node : (Person as MessageType<object>);
    const want = fromSlice(type, bytes, options);
    for (const size of [1, 2, 3, 5, 1 << 20]) {
      assert.deepEqual(await fromStream(type, streamOf(bytes, size), options), want, `${name}, chunks of ${size}`);
    }
  }
});

test("stream errors carry the frame's index and the stream's offset", async () => {
  const cases: [string, string][] = [
    ["02 04 05 03 02 00 00", "default-value-present at 4, path Person.name, frame 1"],
    ["09 02 03 41 64 61 00 48 08 00 00 05 02 03", "truncated at 11, path Person, frame 2"],
    ["00 00 F9 01", "truncated at 2, path Person, frame 2"],
    ["00 FF FF FF FF FF FF FF FF FF", "varint-overflow at 1, path Person, frame 1"],
    ["05 02 03 41 64", "truncated at 0, path Person, frame 0"],
  ];
  for (const [h, want] of cases) {
    assert.equal((await fromStream(Person, streamOf(hex(h), 1))).error, want, h);
    assert.throws(() => Person.decodeDelimited(hex(h)), (e: unknown) => errorText(e) === want, h);
  }
  // A single message has no frame.
  assert.throws(() => Person.decode(hex("03 02 00")), (e: unknown) => e instanceof DecodeError && e.frame === undefined);
});

test("a frame over the size limit is refused before its bytes are awaited (SPEC §9.4)", async () => {
  // The stream delivers a frame and a prefix declaring 1,000,000 bytes in its first chunk
  // and would end at the next pull; it is pulled only when read (high-water mark 0).
  let pulls = 0;
  const src = new ReadableStream<Uint8Array>(
    {
      pull(c) {
        pulls++;
        if (pulls === 1) c.enqueue(hex("02 04 05 FA 0E 3E 48"));
        else c.close();
      },
    },
    { highWaterMark: 0 },
  );
  const got = await fromStream(Node, src, { maxSize: 100 });
  assert.deepEqual(got.frames, ["04 05"]);
  assert.equal(got.error, "size-limit-exceeded at 3, path Node, frame 1");
  assert.equal(pulls, 1, "the frame's bytes were asked for");
});

test("a long stream is read one frame at a time: frames come out before the stream ends", async () => {
  // 100,000 frames arrive in chunks of 4,096 bytes; each message is seen before the next chunk is pulled.
  const frame = Person.encodeDelimited([Person.create({ name: "Ada", age: 36 })]);
  const count = 100_000;
  let sent = 0;
  let pulled = 0;
  const per = Math.floor(4096 / frame.length);
  const src = new ReadableStream<Uint8Array>({
    pull(c) {
      pulled++;
      if (sent >= count) return c.close();
      const k = Math.min(per, count - sent);
      const chunk = new Uint8Array(k * frame.length);
      for (let i = 0; i < k; i++) chunk.set(frame, i * frame.length);
      sent += k;
      c.enqueue(chunk);
    },
  });
  let n = 0;
  let maxAhead = 0;
  for await (const { message } of Person.decodeFrames(src)) {
    assert.equal(message.name, "Ada");
    n++;
    // Frames already sent but not yet seen: never more than two chunks' worth.
    maxAhead = Math.max(maxAhead, sent - n);
  }
  assert.equal(n, count);
  assert.ok(pulled > count / per, `pulled ${pulled} chunks`);
  assert.ok(maxAhead <= 3 * per, `${maxAhead} frames read ahead`);
});

test("an async iterable of chunks (a Node stream) reads the same", async () => {
  async function* chunks(): AsyncGenerator<Uint8Array> {
    yield hex("09 02 03");
    yield hex("41 64 61 00 48");
    yield hex("08 00 00");
  }
  const got: string[] = [];
  for await (const { message } of Person.decodeFrames(chunks())) got.push(show(Person.encode(message)));
  assert.deepEqual(got, ["02 03 41 64 61 00 48 08 00", ""]);
  // And a reader's lock is released when iteration stops early.
  const src = streamOf(hex("00 00 00"), 1);
  for await (const _ of Node.decodeFrames(src)) break;
  assert.equal(src.locked, false);
});
