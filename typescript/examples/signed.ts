/**
 * The signed envelope of `examples/` (schemas/examples/signed.proto) in TypeScript:
 * Ed25519 through WebCrypto (Node 20 and current browsers) over
 * `"bijoubuf-sig-v1:" + full type name + 0x00 + body`, the body decoded strictly first.
 *
 * As a program (used by the cross-language test):
 *
 *     node dist/examples/signed.js sign <seed hex>                  # signs the demo transfer
 *     node dist/examples/signed.js verify <public key hex> <signed hex>
 *
 * Both print one line of JSON. Imported instead (in Node or a browser: see the README's
 * "Browsers" section), the module only exports its functions.
 */

import { DecodeError } from "../src/index.js";
import { Transfer } from "../gen/examples/examples.ledger.v1.js";
import { SignedMessage } from "../gen/examples/examples.signed.v1.js";

/** The scheme's prefix (examples/src/signing.rs). */
const DOMAIN_PREFIX = new TextEncoder().encode("bijoubuf-sig-v1:");

/** The bytes a signature covers: prefix, type name, a zero byte, body. */
export function signingInput(typeName: string, body: Uint8Array): Uint8Array {
  const name = new TextEncoder().encode(typeName);
  const out = new Uint8Array(DOMAIN_PREFIX.length + name.length + 1 + body.length);
  out.set(DOMAIN_PREFIX, 0);
  out.set(name, DOMAIN_PREFIX.length);
  out.set(body, DOMAIN_PREFIX.length + name.length + 1);
  return out;
}

/** The bytes as WebCrypto's types want them (an `ArrayBuffer`-backed view). */
function buf(b: Uint8Array): Uint8Array<ArrayBuffer> {
  return b as Uint8Array<ArrayBuffer>;
}

/** PKCS #8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410), which WebCrypto imports. */
function pkcs8(seed: Uint8Array): Uint8Array {
  const head = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];
  const out = new Uint8Array(head.length + 32);
  out.set(head, 0);
  out.set(seed, head.length);
  return out;
}

/** Encode `transfer`, sign it with the Ed25519 `seed`, and return the encoded envelope. */
export async function signTransfer(seed: Uint8Array, transfer: Transfer): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("pkcs8", buf(pkcs8(seed)), { name: "Ed25519" }, false, ["sign"]);
  const body = Transfer.encode(transfer);
  const signature = new Uint8Array(await crypto.subtle.sign("Ed25519", key, buf(signingInput(Transfer.typeName, body))));
  return SignedMessage.encode(SignedMessage.create({ body, signature }));
}

/** Why a signed message was refused: the decoder's error (envelope or body), or the signature. */
export type Verdict =
  | { ok: true; transfer: Transfer }
  | { ok: false; part: "envelope" | "body"; error: DecodeError }
  | { ok: false; part: "signature" };

/** Decode the envelope and the body strictly, then check the signature over the body. */
export async function verifyTransfer(publicKey: Uint8Array, signed: Uint8Array): Promise<Verdict> {
  let envelope: SignedMessage;
  try {
    envelope = SignedMessage.decode(signed);
  } catch (e) {
    if (e instanceof DecodeError) return { ok: false, part: "envelope", error: e };
    throw e;
  }
  let transfer: Transfer;
  try {
    transfer = Transfer.decode(envelope.body);
  } catch (e) {
    if (e instanceof DecodeError) return { ok: false, part: "body", error: e };
    throw e;
  }
  if (envelope.signature.length !== 64) return { ok: false, part: "signature" };
  const key = await crypto.subtle.importKey("raw", buf(publicKey), { name: "Ed25519" }, false, ["verify"]);
  const good = await crypto.subtle.verify("Ed25519", key, buf(envelope.signature), buf(signingInput(Transfer.typeName, envelope.body)));
  return good ? { ok: true, transfer } : { ok: false, part: "signature" };
}

/** The transfer of the Rust example (examples/src/tamper.rs, `demo_transfer`). */
export function demoTransfer(): Transfer {
  return Transfer.create({
    payer: "alice",
    payee: "bob",
    amount: 2500n,
    labels: new Map([
      ["project", "roof"],
      ["invoice", "2024-117"],
    ]),
  });
}

function fromHex(s: string): Uint8Array {
  return Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16));
}

function toHex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

async function main(args: string[]): Promise<void> {
  if (args[0] === "sign" && args.length === 2) {
    console.log(JSON.stringify({ signed: toHex(await signTransfer(fromHex(args[1]!), demoTransfer())) }));
  } else if (args[0] === "verify" && args.length === 3) {
    const v = await verifyTransfer(fromHex(args[1]!), fromHex(args[2]!));
    if (v.ok) {
      const t = v.transfer;
      console.log(JSON.stringify({ ok: true, payer: t.payer, payee: t.payee, amount: String(t.amount) }));
    } else if (v.part === "signature") {
      console.log(JSON.stringify({ ok: false, part: v.part, code: "bad-signature" }));
    } else {
      const e = v.error;
      console.log(JSON.stringify({ ok: false, part: v.part, code: e.code, offset: e.offset, path: e.path, message: e.message }));
    }
  } else {
    console.error("usage: signed.js sign <seed hex> | verify <public key hex> <signed hex>");
    process.exitCode = 2;
  }
}

/**
 * The command line runs only when this file is Node's entry point (`node signed.js …`).
 * Imported — by a browser page, a bundle or another module — it only exports: browsers
 * have no `process`, so the check reads it through `globalThis` and never names it bare.
 */
function isEntryPoint(): boolean {
  const entry = (globalThis as { process?: { argv?: string[] } }).process?.argv?.[1];
  if (entry === undefined) return false;
  const here = decodeURIComponent(new URL(import.meta.url).pathname);
  return here === entry.replace(/\\/g, "/") || here === "/" + entry.replace(/\\/g, "/");
}

if (isEntryPoint()) await main(process.argv.slice(2));
