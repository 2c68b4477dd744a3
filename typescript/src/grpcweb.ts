/**
 * gRPC-web over `fetch`: the transport of generated service clients (`conformance/RPC.md`).
 *
 * Each request is one gRPC-web message frame (flag byte 0, 4-byte big-endian length) whose
 * payload is the marker byte {@link MARKER} and then the message's canonical bytes; the
 * response is message frames and one trailers frame (flag bit 0x80) carrying `grpc-status`.
 * Binary framing only (`application/grpc-web`); unary and server-streaming calls (gRPC-web
 * has no client streaming). The same code runs in browsers and in Node 18 and later.
 *
 * ```ts
 * import { OrdersClient } from "./gen/examples.orders.v1.js";
 * const orders = new OrdersClient({ baseUrl: "http://127.0.0.1:50051" });
 * const order = await orders.get({ id: 7n, count: 0 });
 * for await (const o of orders.list({ id: 1n, count: 3 })) console.log(o.sku);
 * ```
 *
 * A failed call throws {@link RpcError} with the gRPC status; when a codec refused a
 * message (the server refused the request, or this client refused the response) it is a
 * {@link RefusedError} carrying the bijoubuf error code, offset and path.
 */

import { DecodeError } from "./errors.js";
import type { DecodeOptions, EncodeOptions, MessageType } from "./message.js";

/** The first byte of every gRPC message payload: bijoubuf format 1 (RPC.md §2). */
export const MARKER = 0x01;

/** The content type requests are sent with (binary gRPC-web; RPC.md §1). */
export const CONTENT_TYPE = "application/grpc-web";

/** gRPC status codes by name. */
export const Status = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

/** A gRPC status code. */
export type StatusCode = (typeof Status)[keyof typeof Status];

const STATUS_NAMES: string[] = Object.keys(Status);

/** Where calls go and how. */
export interface Transport {
  /** The server's origin and path prefix, such as `http://127.0.0.1:50051`. */
  baseUrl: string;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
  /** Headers sent with every call. */
  headers?: Record<string, string>;
  /** Options every response message is decoded with (default: strict). */
  decodeOptions?: DecodeOptions;
  /** Options every request message is encoded with. */
  encodeOptions?: EncodeOptions;
}

/** Options of one call. */
export interface CallOptions {
  /** Headers for this call, after the transport's. */
  headers?: Record<string, string>;
  /** Aborts the call. */
  signal?: AbortSignal;
  /** A deadline in milliseconds, sent as `grpc-timeout` and enforced locally too. */
  timeoutMs?: number;
}

/** What a codec's refusal names (the `bijoubuf-error-*` metadata, RPC.md §4). */
export interface Refusal {
  /** The error code: `default-value-present`, `missing-marker`, … */
  code: string;
  /** The byte offset from the start of the message after the marker. */
  offset?: number;
  /** The field path (`Order.items[2].sku`), empty when none. */
  path: string;
}

/** A call that ended with a gRPC status other than OK. */
export class RpcError extends Error {
  /** The gRPC status code. */
  readonly status: StatusCode;
  /** The status message (`grpc-message`, percent-decoded). */
  readonly grpcMessage: string;
  /** The trailers (or headers, for a trailers-only response), lowercase keys. */
  readonly metadata: ReadonlyMap<string, string>;

  /** An error of `status` with `grpcMessage` and `metadata`. */
  constructor(status: StatusCode, grpcMessage: string, metadata: ReadonlyMap<string, string> = new Map()) {
    super(`${STATUS_NAMES[status] ?? `status ${status}`}: ${grpcMessage}`);
    this.name = "RpcError";
    this.status = status;
    this.grpcMessage = grpcMessage;
    this.metadata = metadata;
  }
}

/** A message refused by a bijoubuf codec, on either side of the call. */
export class RefusedError extends RpcError {
  /** What was refused, and where. */
  readonly refusal: Refusal;
  /** Whether the server refused the request (else this client refused the response). */
  readonly byServer: boolean;

  /** An error of `status` carrying `refusal`. */
  constructor(
    status: StatusCode,
    grpcMessage: string,
    metadata: ReadonlyMap<string, string>,
    refusal: Refusal,
    byServer: boolean,
  ) {
    super(status, grpcMessage, metadata);
    this.name = "RefusedError";
    this.refusal = refusal;
    this.byServer = byServer;
  }
}

/** The type a generated client names for each message: the runtime's `MessageType`. */
type Codec<T extends object> = Pick<MessageType<T>, "encode" | "decode" | "shortName">;

/** One unary call: `request` in, one response message out. */
export async function unary<I extends object, O extends object>(
  t: Transport,
  path: string,
  input: Codec<I>,
  output: Codec<O>,
  request: I,
  options?: CallOptions,
): Promise<O> {
  let result: O | undefined;
  let count = 0;
  for await (const m of serverStream(t, path, input, output, request, options)) {
    result = m;
    count++;
  }
  if (count !== 1 || result === undefined) {
    throw new RpcError(Status.UNIMPLEMENTED, `a unary call got ${count} response messages`);
  }
  return result;
}

/** One server-streaming call: `request` in, the response messages as they arrive. */
export async function* serverStream<I extends object, O extends object>(
  t: Transport,
  path: string,
  input: Codec<I>,
  output: Codec<O>,
  request: I,
  options?: CallOptions,
): AsyncGenerator<O, void, undefined> {
  const body = frameRequest(input.encode(request, t.encodeOptions));
  const headers: Record<string, string> = {
    ...t.headers,
    ...options?.headers,
    "content-type": CONTENT_TYPE,
    accept: CONTENT_TYPE,
    "x-grpc-web": "1",
  };
  let signal = options?.signal;
  let timeout: AbortSignal | undefined;
  if (options?.timeoutMs !== undefined) {
    headers["grpc-timeout"] = `${Math.max(1, Math.ceil(options.timeoutMs))}m`;
    timeout = AbortSignal.timeout(options.timeoutMs);
    signal = signal ? anySignal([signal, timeout]) : timeout;
  }
  const f = t.fetch ?? globalThis.fetch;
  let res: Response;
  try {
    res = await f(t.baseUrl.replace(/\/+$/, "") + path, { method: "POST", headers, body, signal });
  } catch (e) {
    throw transportFailure(e, options, timeout);
  }
  const headerMeta = new Map<string, string>();
  res.headers.forEach((v, k) => headerMeta.set(k.toLowerCase(), v));
  // A trailers-only response (an error before any message) has its status in the headers.
  if (headerMeta.has("grpc-status")) {
    await res.body?.cancel();
    throwStatus(headerMeta);
    return;
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new RpcError(httpStatus(res.status), `HTTP ${res.status} ${res.statusText}`.trim(), headerMeta);
  }
  if (res.body === null) throw new RpcError(Status.INTERNAL, "the response has no body", headerMeta);
  const frames = new FrameReader(res.body.getReader());
  for (;;) {
    let frame;
    try {
      frame = await frames.next();
    } catch (e) {
      throw e instanceof RpcError ? e : transportFailure(e, options, timeout);
    }
    if (frame === undefined) {
      throw new RpcError(Status.INTERNAL, "the response ended without trailers", headerMeta);
    }
    if (frame.trailers) {
      const meta = parseTrailers(frame.payload);
      throwStatus(meta);
      return;
    }
    yield decodeResponse(output, frame.payload, t.decodeOptions);
  }
}

/** The request body: one uncompressed message frame around the marker and `message`. */
export function frameRequest(message: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(6 + message.length);
  const len = message.length + 1;
  out[0] = 0;
  out[1] = len >>> 24;
  out[2] = (len >>> 16) & 0xff;
  out[3] = (len >>> 8) & 0xff;
  out[4] = len & 0xff;
  out[5] = MARKER;
  out.set(message, 6);
  return out;
}

/** A response message payload: the marker, then one message decoded strictly. */
export function decodeResponse<O extends object>(output: Codec<O>, payload: Uint8Array, options?: DecodeOptions): O {
  // RPC.md §3: the marker is checked before any byte of the message is read.
  if (payload.length === 0 || payload[0] !== MARKER) {
    const what = payload.length === 0 ? "the message is empty" : `not 0x${hex2(payload[0])} at byte 0`;
    const text = `missing-marker: a ${output.shortName} message must start with the bijoubuf marker 0x01, ${what}`;
    throw new RefusedError(Status.INTERNAL, text, new Map(), { code: "missing-marker", offset: 0, path: "" }, false);
  }
  try {
    return output.decode(payload.subarray(1), options);
  } catch (e) {
    if (e instanceof DecodeError) {
      const refusal = { code: e.code, offset: e.offset, path: e.path };
      throw new RefusedError(Status.INTERNAL, e.toString(), new Map(), refusal, false);
    }
    throw e;
  }
}

/** A parsed frame: its payload and whether it is the trailers frame. */
interface Frame {
  trailers: boolean;
  payload: Uint8Array;
}

/** Frames out of a byte stream, whatever its chunking. */
class FrameReader {
  private buf: Uint8Array = new Uint8Array(0);
  private done = false;

  constructor(private readonly reader: { read(): Promise<{ done: boolean; value?: Uint8Array }> }) {}

  /** The next frame, or `undefined` at a clean end of the stream. */
  async next(): Promise<Frame | undefined> {
    while (this.buf.length < 5 || this.buf.length < 5 + frameLength(this.buf)) {
      if (this.done) {
        if (this.buf.length === 0) return undefined;
        throw new RpcError(Status.INTERNAL, `the response ended inside a frame (${this.buf.length} bytes left)`);
      }
      const { done, value } = await this.reader.read();
      if (done) this.done = true;
      else if (value !== undefined && value.length > 0) this.buf = concat(this.buf, value);
    }
    const flag = this.buf[0];
    if ((flag & 0x01) !== 0) {
      throw new RpcError(Status.INTERNAL, "the response is compressed, which this client never asks for");
    }
    const end = 5 + frameLength(this.buf);
    const payload = this.buf.slice(5, end);
    this.buf = this.buf.subarray(end);
    return { trailers: (flag & 0x80) !== 0, payload };
  }
}

function frameLength(b: Uint8Array): number {
  return ((b[1] << 24) >>> 0) + (b[2] << 16) + (b[3] << 8) + b[4];
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** The trailers frame's payload: `key: value` lines separated by CRLF. */
export function parseTrailers(payload: Uint8Array): Map<string, string> {
  const meta = new Map<string, string>();
  for (const line of new TextDecoder().decode(payload).split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    meta.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return meta;
}

/** Throws the error `meta`'s `grpc-status` says, or returns when it is OK. */
function throwStatus(meta: ReadonlyMap<string, string>): void {
  const raw = meta.get("grpc-status");
  const status = raw === undefined ? Status.UNKNOWN : Number(raw);
  if (status === Status.OK) return;
  const code = (Number.isInteger(status) && status >= 0 && status <= 16 ? status : Status.UNKNOWN) as StatusCode;
  const message = raw === undefined ? "the response has no grpc-status" : decodeMessage(meta.get("grpc-message") ?? "");
  const refusal = meta.get("bijoubuf-error-code");
  if (refusal !== undefined) {
    const offset = meta.get("bijoubuf-error-offset");
    throw new RefusedError(
      code,
      message,
      meta,
      {
        code: refusal,
        offset: offset === undefined ? undefined : Number(offset),
        path: meta.get("bijoubuf-error-path") ?? "",
      },
      true,
    );
  }
  throw new RpcError(code, message, meta);
}

/** `grpc-message` is percent-encoded UTF-8. */
function decodeMessage(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The gRPC status of an HTTP error without one (the gRPC HTTP mapping). */
function httpStatus(http: number): StatusCode {
  switch (http) {
    case 400:
      return Status.INTERNAL;
    case 401:
      return Status.UNAUTHENTICATED;
    case 403:
      return Status.PERMISSION_DENIED;
    case 404:
      return Status.UNIMPLEMENTED;
    case 429:
    case 502:
    case 503:
    case 504:
      return Status.UNAVAILABLE;
    default:
      return Status.UNKNOWN;
  }
}

/**
 * A call that failed below gRPC-web (no connection, a reset, an abort) as an `RpcError`,
 * so that callers catch one type: `DEADLINE_EXCEEDED` when the call's timeout fired,
 * `CANCELLED` when the caller's signal aborted it, else `UNAVAILABLE` with what fetch
 * said (the original error is the `cause`).
 */
function transportFailure(e: unknown, options: CallOptions | undefined, timeout: AbortSignal | undefined): RpcError {
  let err: RpcError;
  if (timeout?.aborted) {
    err = new RpcError(Status.DEADLINE_EXCEEDED, `the call's timeout of ${options?.timeoutMs} ms passed`);
  } else if (options?.signal?.aborted) {
    err = new RpcError(Status.CANCELLED, "the call was cancelled by its signal");
  } else {
    const what = e instanceof Error ? e.message : String(e);
    // Node's fetch says "fetch failed" and puts the reason (ECONNREFUSED, …) in `cause`.
    const inner = (e as { cause?: unknown } | null)?.cause;
    const cause = inner instanceof Error ? ` (${inner.message})` : "";
    err = new RpcError(Status.UNAVAILABLE, `the request failed: ${what}${cause}`);
  }
  Object.defineProperty(err, "cause", { value: e, enumerable: false, writable: true, configurable: true });
  return err;
}

function anySignal(signals: AbortSignal[]): AbortSignal {
  const c = new AbortController();
  for (const s of signals) {
    if (s.aborted) {
      c.abort(s.reason);
      break;
    }
    s.addEventListener("abort", () => c.abort(s.reason), { once: true });
  }
  return c.signal;
}

function hex2(b: number): string {
  return b.toString(16).padStart(2, "0");
}
