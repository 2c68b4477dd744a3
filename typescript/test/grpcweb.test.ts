import assert from "node:assert/strict";
import { test } from "node:test";

import { grpcweb, RefusedError, RpcError } from "../src/index.js";
import { Person, show } from "./schema.js";

/** A response body of gRPC-web frames, delivered in chunks of `chunk` bytes. */
function response(frames: Uint8Array[], headers: Record<string, string> = {}, chunk = 3): Response {
  const all = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) {
    all.set(f, at);
    at += f.length;
  }
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < all.length; i += chunk) c.enqueue(all.slice(i, i + chunk));
      c.close();
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "application/grpc-web", ...headers } });
}

function frame(flag: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + payload.length);
  out[0] = flag;
  new DataView(out.buffer).setUint32(1, payload.length);
  out.set(payload, 5);
  return out;
}

const trailers = (text: string) => frame(0x80, new TextEncoder().encode(text));
const message = (bytes: number[]) => frame(0, new Uint8Array(bytes));

/** A transport whose fetch records the request and answers `res`. */
function transport(res: () => Response, seen: { url?: string; init?: RequestInit } = {}): grpcweb.Transport {
  return {
    baseUrl: "http://example.test/",
    fetch: (async (url: string, init: RequestInit) => {
      seen.url = url;
      seen.init = init;
      return res();
    }) as typeof fetch,
  };
}

const ADA = Person.create({ name: "Ada", age: 36 });

test("a request is one frame: flag 0, length, the marker, the canonical bytes", () => {
  assert.equal(show(grpcweb.frameRequest(Person.encode(ADA))), "00 00 00 00 08 01 02 03 41 64 61 00 48");
});

test("a unary call posts the frame and decodes the one response message", async () => {
  const seen: { url?: string; init?: RequestInit } = {};
  const t = transport(() => response([message([1, ...Person.encode(ADA)]), trailers("grpc-status: 0\r\n")]), seen);
  const back = await grpcweb.unary(t, "/conformance.People/Get", Person, Person, ADA);
  assert.deepEqual(back, ADA);
  assert.equal(seen.url, "http://example.test/conformance.People/Get");
  assert.equal((seen.init?.headers as Record<string, string>)["content-type"], "application/grpc-web");
});

test("server streaming yields each message, whatever the chunking", async () => {
  for (const chunk of [1, 2, 7, 100]) {
    const frames = [0, 1, 2].map((age) => message([1, ...Person.encode(Person.create({ name: "x", age }))]));
    const t = transport(() => response([...frames, trailers("grpc-status:0")], {}, chunk));
    const ages: number[] = [];
    for await (const p of grpcweb.serverStream(t, "/p/L", Person, Person, ADA)) ages.push(p.age);
    assert.deepEqual(ages, [0, 1, 2], `chunk ${chunk}`);
  }
});

test("a server refusal becomes a RefusedError with the bijoubuf code, offset and path", async () => {
  const t = transport(() =>
    response([
      trailers(
        "grpc-status: 3\r\ngrpc-message: default-value-present%3A%20Order.id%20holds%20its%20default%20at%20byte%200\r\n" +
          "bijoubuf-error-code: default-value-present\r\nbijoubuf-error-offset: 0\r\nbijoubuf-error-path: Order.id\r\n",
      ),
    ]),
  );
  await assert.rejects(grpcweb.unary(t, "/p/G", Person, Person, ADA), (e: unknown) => {
    assert.ok(e instanceof RefusedError);
    assert.equal(e.status, grpcweb.Status.INVALID_ARGUMENT);
    assert.equal(e.grpcMessage, "default-value-present: Order.id holds its default at byte 0");
    assert.deepEqual(e.refusal, { code: "default-value-present", offset: 0, path: "Order.id" });
    assert.equal(e.byServer, true);
    return true;
  });
});

test("a trailers-only error in the headers is an RpcError without a refusal", async () => {
  const t = transport(() => response([], { "grpc-status": "12", "grpc-message": "no such method" }));
  await assert.rejects(grpcweb.unary(t, "/p/G", Person, Person, ADA), (e: unknown) => {
    assert.ok(e instanceof RpcError && !(e instanceof RefusedError));
    assert.equal(e.status, grpcweb.Status.UNIMPLEMENTED);
    assert.equal(e.message, "UNIMPLEMENTED: no such method");
    return true;
  });
});

test("a response without the marker is refused, never misread", async () => {
  // Protobuf's spelling of a Person (`0a 03 41 64 61 10 24`): refused before decoding.
  const t = transport(() => response([message([0x0a, 3, 0x41, 0x64, 0x61, 0x10, 0x24]), trailers("grpc-status: 0")]));
  await assert.rejects(grpcweb.unary(t, "/p/G", Person, Person, ADA), (e: unknown) => {
    assert.ok(e instanceof RefusedError);
    assert.equal(e.refusal.code, "missing-marker");
    assert.equal(e.byServer, false);
    assert.match(e.grpcMessage, /not 0x0a at byte 0/);
    return true;
  });
  // A marked but non-canonical message is refused by the strict decoder.
  const bad = transport(() => response([message([1, 0x02, 0x00]), trailers("grpc-status: 0")]));
  await assert.rejects(grpcweb.unary(bad, "/p/G", Person, Person, ADA), (e: unknown) => {
    assert.ok(e instanceof RefusedError);
    assert.equal(e.refusal.code, "default-value-present");
    return true;
  });
});

test("a stream cut inside a frame or before the trailers is an error", async () => {
  const cut = message([1, ...Person.encode(ADA)]).slice(0, 7);
  await assert.rejects(grpcweb.unary(transport(() => response([cut])), "/p/G", Person, Person, ADA), /inside a frame/);
  const noTrailers = message([1, ...Person.encode(ADA)]);
  await assert.rejects(
    grpcweb.unary(transport(() => response([noTrailers])), "/p/G", Person, Person, ADA),
    /without trailers/,
  );
});

test("a call that fails below gRPC-web is an RpcError: unavailable, cancelled, deadline exceeded", async () => {
  const refused: grpcweb.Transport = {
    baseUrl: "http://example.test",
    fetch: (async () => {
      throw Object.assign(new TypeError("fetch failed"), { cause: new Error("connect ECONNREFUSED 127.0.0.1:9") });
    }) as typeof fetch,
  };
  await assert.rejects(grpcweb.unary(refused, "/conformance.People/Get", Person, Person, ADA), (e: unknown) => {
    assert.ok(e instanceof RpcError, String(e));
    assert.equal(e.status, grpcweb.Status.UNAVAILABLE);
    assert.equal(e.message, "UNAVAILABLE: the request failed: fetch failed (connect ECONNREFUSED 127.0.0.1:9)");
    assert.ok((e as Error & { cause?: unknown }).cause instanceof TypeError);
    return true;
  });
  // A fetch that waits for its signal, as a real one does.
  const hanging: grpcweb.Transport = {
    baseUrl: "http://example.test",
    fetch: ((_url: string, init: RequestInit) =>
      new Promise((_, reject) => {
        init.signal?.addEventListener("abort", () => reject(init.signal?.reason), { once: true });
      })) as typeof fetch,
  };
  await assert.rejects(
    grpcweb.unary(hanging, "/conformance.People/Get", Person, Person, ADA, { timeoutMs: 5 }),
    (e: unknown) => e instanceof RpcError && e.status === grpcweb.Status.DEADLINE_EXCEEDED,
  );
  const c = new AbortController();
  const call = grpcweb.unary(hanging, "/conformance.People/Get", Person, Person, ADA, { signal: c.signal });
  c.abort();
  await assert.rejects(call, (e: unknown) => e instanceof RpcError && e.status === grpcweb.Status.CANCELLED);
  // A body that breaks off mid-stream.
  const broken: grpcweb.Transport = {
    baseUrl: "http://example.test",
    fetch: (async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(ctl) {
            ctl.error(new TypeError("terminated"));
          },
        }),
        { status: 200, headers: { "content-type": "application/grpc-web" } },
      )) as typeof fetch,
  };
  await assert.rejects(
    grpcweb.unary(broken, "/conformance.People/Get", Person, Person, ADA),
    (e: unknown) => e instanceof RpcError && e.status === grpcweb.Status.UNAVAILABLE && e.message.includes("terminated"),
  );
});
