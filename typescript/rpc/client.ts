/**
 * The generated gRPC-web clients against the Rust servers of `examples/` (tonic with
 * tonic-web on 127.0.0.1), as the cross-language test runs them:
 *
 *     node dist/rpc-test/rpc/client.js <orders url> <deposits url> <seed hex>
 *
 * Prints one line per step; the test (`examples/tests/rpc_web.rs`) compares them.
 */

import { RefusedError, RpcError, grpcweb } from "../src/index.js";
import { OrdersClient, type OrderQuery } from "../gen/rpc/examples.orders.v1.js";
import { Deposit, DepositsClient } from "../gen/rpc/examples.deposit.v1.js";

/** The scheme of `examples/src/signing.rs`: prefix, full type name, 0x00, body. */
function signingInput(typeName: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const head = new TextEncoder().encode(`bijoubuf-sig-v1:${typeName}\0`);
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}

/** Ed25519 signing through WebCrypto (Node 20, current browsers) from a raw seed. */
async function signer(seed: Uint8Array): Promise<(input: Uint8Array<ArrayBuffer>) => Promise<Uint8Array>> {
  // PKCS #8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410).
  const pkcs8 = new Uint8Array([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20, ...seed]);
  const key = await crypto.subtle.importKey("pkcs8", pkcs8, { name: "Ed25519" }, false, ["sign"]);
  return async (input) => new Uint8Array(await crypto.subtle.sign("Ed25519", key, input));
}

function describe(e: unknown): string {
  if (e instanceof RefusedError) {
    return `${e.name} ${e.status} ${e.refusal.code} at ${e.refusal.offset} ${e.refusal.path} (by ${e.byServer ? "server" : "client"})`;
  }
  if (e instanceof RpcError) return `${e.name} ${e.status} ${e.grpcMessage}`;
  throw e;
}

async function main(): Promise<void> {
  const [ordersUrl, depositsUrl, seedHex] = process.argv.slice(2);
  const opts = { timeoutMs: 10_000 };
  const orders = new OrdersClient({ baseUrl: ordersUrl });
  const o = await orders.get({ id: 9n, count: 0 }, opts);
  console.log(`get: ${o.id} ${o.sku} ${o.quantity}`);
  const ids: bigint[] = [];
  for await (const x of orders.list({ id: 100n, count: 3 }, opts)) ids.push(x.id);
  console.log(`list: ${ids.join(",")}`);
  await orders.get({ id: 0n, count: 0 }, opts).catch((e) => console.log(`not found: ${describe(e)}`));

  // A request the TypeScript encoder could never write (OrderQuery.id holding its
  // default), sent as raw bytes: the server's codec refuses it.
  const raw = { shortName: "OrderQuery", encode: () => new Uint8Array([0x00, 0x00]), decode: () => ({}) as OrderQuery };
  await grpcweb
    .unary(orders.transport, "/examples.orders.v1.Orders/Get", raw, raw, {} as OrderQuery, opts)
    .catch((e) => console.log(`refused: ${describe(e)}`));

  const seed = Uint8Array.from(seedHex.match(/../g)!.map((h) => parseInt(h, 16)));
  const sign = await signer(seed);
  const deposits = new DepositsClient({ baseUrl: depositsUrl });
  const d = { account: "dora", amount: 700n, nonce: 1n };
  const body = Deposit.encode(d);
  const signature = await sign(signingInput(Deposit.typeName, body));
  const receipt = await deposits.deposit({ body, signature }, opts);
  console.log(`deposit: ${receipt.account} ${receipt.balance}`);
  const forged = Deposit.encode({ ...d, amount: 70_000n, nonce: 2n });
  await deposits.deposit({ body: forged, signature }, opts).catch((e) => console.log(`tampered: ${describe(e)}`));
  const history: string[] = [];
  for await (const r of deposits.history({ account: "dora" }, opts)) history.push(`${r.nonce}:${r.balance}`);
  console.log(`history: ${history.join(",")}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
