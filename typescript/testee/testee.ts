/**
 * The conformance testee for the TypeScript implementation (conformance/README.md, "The
 * testee protocol"): frames of a 4-byte big-endian length and UTF-8 JSON on stdin, one
 * answer frame per request on stdout, over the code generated from conformance/schemas
 * (and from the key and wide schemas of conformance/src/typescript.rs, `keys.*`, `wide.*`
 * and `wide2.*`).
 *
 * Decode requests run the generated types' strict (or preserving) decoder and re-encode
 * the value under the request's limits (a stream is read twice, from the bytes and as a
 * ReadableStream arriving in small chunks, and the two answers must agree); encode requests read the value from proto3 JSON and
 * run the canonical encoder with the request's depth and size limits, answering its
 * refusals as `refused`. Two requests
 * beyond the protocol serve the cross-language property tests: `{"op": "arbitrary",
 * "type": …, "seed": n}` answers the encoding of an arbitrary value built in TypeScript,
 * and `{"op": "json", "type": …, "input": hex}` the proto3 JSON TypeScript writes for the
 * decoded value (`{"status": "json", "output": text}`, or `failed` when it refuses).
 *
 * Every value the testee encodes for `arbitrary`, and every value it re-encodes after a
 * decode, is also encoded by the runtime's field-list walk (`reference.ts`), as are broken
 * copies of each arbitrary value: a disagreement with the generated encoder, in bytes or in
 * a refusal's code, path or text, is answered as `failed`.
 */

import { DecodeError, EncodeError, JsonError, MAX_DEPTH_LIMIT, MessageType, type DecodeOptions, type EncodeOptions } from "../src/index.js";
import * as conformance from "../gen/conformance/conformance.js";
import * as evolutionV1 from "../gen/conformance/evolution.v1.js";
import * as evolutionV2 from "../gen/conformance/evolution.v2.js";
import * as wkt from "../gen/conformance/google.protobuf.js";
import * as keys from "../gen/keys/keys.js";
import * as wide from "../gen/wide/wide.js";
import * as wide2 from "../gen/wide/wide2.js";
import { arbitrary, rng } from "./arbitrary.js";
import { corrupt, disagreement } from "./reference.js";
import { formatHex, parseHex } from "./hex.js";

const types = new Map<string, MessageType<object>>();
for (const mod of [conformance, evolutionV1, evolutionV2, wkt, keys, wide, wide2]) {
  for (const v of Object.values(mod)) {
    if (v instanceof MessageType) types.set(v.typeName, v);
  }
}

interface Config {
  "depth-limit"?: number;
  "size-limit"?: number;
  preserving?: boolean;
  stream?: boolean;
}

interface Request {
  op: string;
  type: string;
  input?: string;
  json?: string;
  decoder?: Config;
  seed?: number;
}

type Response = Record<string, unknown>;

/** Answer one request. */
export function answer(req: Request): Response {
  const type = types.get(req.type);
  if (req.op === "encode") {
    if (type === undefined) return { status: "failed", message: `no message type ${req.type}` };
    return encode(type, req);
  }
  if (req.op === "arbitrary" && type !== undefined) {
    // Not part of the testee protocol: the cross-language property test's request for the
    // encoding of an arbitrary value built in TypeScript.
    const seed = req.seed ?? 0;
    try {
      const value = arbitrary(type, seed);
      const why = disagreement(type, value);
      if (why !== undefined) return { status: "failed", message: why };
      // Broken copies: a field, element or map entry of the wrong type or out of range,
      // sometimes with a depth limit the value may exceed.
      const r = rng(seed ^ 0x5bd1e995);
      for (let i = 0; i < 8; i++) {
        const broken = arbitrary(type, seed) as Record<string, unknown>;
        corrupt(r, type, broken);
        const why = disagreement(type, broken, r() < 0.25 ? 1 + Math.floor(r() * 3) : 100);
        if (why !== undefined) return { status: "failed", message: `broken copy ${i}: ${why}` };
      }
      return { status: "encoded", output: formatHex(type.encode(value)) };
    } catch (e) {
      return { status: "failed", message: String(e) };
    }
  }
  if (req.op === "json" && type !== undefined) {
    // Not part of the testee protocol: the JSON TypeScript writes for a decoded value.
    try {
      return { status: "json", output: type.toJson(type.decode(parseHex(req.input ?? ""))) };
    } catch (e) {
      return { status: "failed", message: String(e) };
    }
  }
  if (req.op !== "decode") return { status: "failed", message: `unknown op ${req.op}` };
  if (type === undefined) return { status: "unsupported", message: `no message type ${req.type}` };
  let bytes: Uint8Array;
  try {
    bytes = parseHex(req.input ?? "");
  } catch (e) {
    return { status: "failed", message: String(e) };
  }
  const c = req.decoder ?? {};
  const options: DecodeOptions = {
    preserveUnknown: c.preserving ?? false,
    maxDepth: c["depth-limit"] ?? 100,
  };
  if (c["size-limit"] !== undefined) options.maxSize = c["size-limit"];
  // Re-encoded under the request's limits (SPEC §9: an encoder's limits are the decoder's),
  // so a value accepted under a limit above the default encodes again.
  const limits = encodeLimits(c);
  try {
    let output: Uint8Array;
    let unknown: number;
    if (c.stream) {
      const d = type.decodeDelimited(bytes, options);
      output = type.encodeDelimited(d.message, limits);
      unknown = d.unknownFields;
    } else {
      const d = type.decodeReport(bytes, options);
      output = type.encode(d.message, limits);
      unknown = d.unknownFields;
      const why = disagreement(type, d.message, limits.maxDepth);
      if (why !== undefined) return { status: "failed", message: why };
    }
    return { status: "accepted", output: formatHex(output), unknown };
  } catch (e) {
    if (e instanceof DecodeError) {
      return { status: "refused", code: e.code, offset: e.offset, path: e.path };
    }
    if (e instanceof EncodeError) return { status: "failed", message: `re-encoding: ${e.message}` };
    return { status: "failed", message: String(e) };
  }
}

/** The encoder's limits for a request's configuration: its depth limit and size limit. */
function encodeLimits(c: Config): EncodeOptions {
  const o: EncodeOptions = { maxDepth: c["depth-limit"] ?? 100 };
  if (c["size-limit"] !== undefined) o.maxSize = c["size-limit"];
  return o;
}

/** Answer an encode request: the JSON's value, encoded with the request's depth and size limits. */
function encode(type: MessageType<object>, req: Request): Response {
  let value: object;
  try {
    // Read at the cap, as the Rust testee does: the request's limits are the encoder's.
    value = type.fromJson(req.json ?? "", { maxDepth: MAX_DEPTH_LIMIT });
  } catch (e) {
    if (e instanceof JsonError) return { status: "failed", message: `json: ${e.message}` };
    return { status: "failed", message: String(e) };
  }
  try {
    return { status: "encoded", output: formatHex(type.encode(value, encodeLimits(req.decoder ?? {}))) };
  } catch (e) {
    // The encoder's refusal (SPEC §9): offset 0, the path as free text.
    if (e instanceof EncodeError) return { status: "refused", code: e.code, offset: 0, path: e.path };
    return { status: "failed", message: String(e) };
  }
}

/**
 * Answer one request, reading a stream request's frames twice: with the slice reader
 * ({@link answer}) and as a `ReadableStream` arriving in small chunks (`decodeFrames`). The
 * two must give the same answer; a difference is answered as `failed`.
 */
async function answerAll(req: Request): Promise<Response> {
  const res = answer(req);
  const type = types.get(req.type);
  if (req.op !== "decode" || req.decoder?.stream !== true || type === undefined) return res;
  let bytes: Uint8Array;
  try {
    bytes = parseHex(req.input ?? "");
  } catch {
    return res;
  }
  const c = req.decoder;
  const options: DecodeOptions = { preserveUnknown: c.preserving ?? false, maxDepth: c["depth-limit"] ?? 100 };
  if (c["size-limit"] !== undefined) options.maxSize = c["size-limit"];
  // Chunks of 7 bytes cut prefixes and frames at every position; long inputs in 64 KiB.
  const size = bytes.length < 4096 ? 7 : 65536;
  let pos = 0;
  const src = new ReadableStream<Uint8Array>({
    pull(ctl) {
      if (pos >= bytes.length) ctl.close();
      else {
        ctl.enqueue(bytes.subarray(pos, pos + size));
        pos += size;
      }
    },
  });
  let streamed: Response;
  try {
    const messages: object[] = [];
    let unknown = 0;
    for await (const d of type.decodeFrames(src, options)) {
      messages.push(d.message);
      unknown += d.unknownFields;
    }
    streamed = { status: "accepted", output: formatHex(type.encodeDelimited(messages, encodeLimits(c))), unknown };
  } catch (e) {
    if (e instanceof DecodeError) streamed = { status: "refused", code: e.code, offset: e.offset, path: e.path };
    else streamed = { status: "failed", message: String(e) };
  }
  const a = JSON.stringify(res);
  const b = JSON.stringify(streamed);
  return a === b ? res : { status: "failed", message: `slice reader: ${a}; ReadableStream reader: ${b}` };
}

function frame(obj: Response): Buffer {
  const body = Buffer.from(JSON.stringify(obj), "utf8");
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length, 0);
  return Buffer.concat([head, body]);
}

/** Read frames from stdin until it ends, answering each in order. */
function main(): void {
  // Chunks are kept in a list and joined once a frame is complete: no quadratic copying
  // when a large request arrives in many pieces.
  let chunks: Buffer[] = [];
  let have = 0;
  let need = -1;
  // Answers go out in request order: each waits for the one before it.
  let last: Promise<void> = Promise.resolve();
  process.stdin.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    have += chunk.length;
    for (;;) {
      if (need < 0 && have >= 4) need = 4 + Buffer.concat(chunks).readUInt32BE(0);
      if (need < 0 || have < need) break;
      const all: Buffer = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const body = all.subarray(4, need).toString("utf8");
      const rest = all.subarray(need);
      chunks = rest.length > 0 ? [rest] : [];
      have = rest.length;
      need = -1;
      last = last.then(async () => {
        let res: Response;
        try {
          res = await answerAll(JSON.parse(body) as Request);
        } catch (e) {
          res = { status: "failed", message: `bad request: ${String(e)}` };
        }
        process.stdout.write(frame(res));
      });
    }
  });
}

main();
