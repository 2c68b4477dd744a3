#!/usr/bin/env node
// Runs the package in a real browser: serves a compiled tree (tsc -p tsconfig.browser.json,
// dist/browser) and this directory on 127.0.0.1, opens index.html in headless Chromium,
// and waits for the page to POST its report (page.js), which is printed as one line of
// JSON on stdout. Exit status: 0 when every check and test passed, 1 when one failed or
// the page never reported (60 s), 2 when Chromium could not be found or started.
//
//   node test/browser/run.mjs [--root dist/browser] [--cases FILE] [--chromium PATH]
//
// Chromium is Debian's `chromium` package (/usr/bin/chromium; CHROMIUM=path overrides);
// nothing is downloaded. The profile is a fresh temporary directory, removed afterwards.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(here, "../..");

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const root = resolve(pkg, opt("--root", "dist/browser"));
const casesFile = opt("--cases", undefined);
const chromium = opt("--chromium", process.env.CHROMIUM ?? "/usr/bin/chromium");
const TIMEOUT_MS = 60_000;

if (!existsSync(chromium)) {
  console.error(
    `browser test: no Chromium at ${chromium}; install Debian's chromium package ` +
      "(sudo apt-get install chromium) or set CHROMIUM to a Chromium binary",
  );
  process.exit(2);
}
if (!existsSync(join(root, "src/index.js"))) {
  console.error(`browser test: ${root} holds no build; run tsc -p tsconfig.browser.json first`);
  process.exit(2);
}

// The package test modules: test/*.test.js of the build (test/node/ needs Node).
const tests = readdirSync(join(root, "test"))
  .filter((f) => f.endsWith(".test.js"))
  .sort()
  .map((f) => `test/${f}`);
const run = { tests, cases: casesFile ? JSON.parse(readFileSync(casesFile, "utf8")) : null };

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".json": "application/json", ".map": "application/json" };

/** The file under `base` that `rel` names, or undefined when it leaves `base` or is no file. */
function inside(base, rel) {
  const path = normalize(join(base, rel));
  if (path !== base && !path.startsWith(base + sep)) return undefined;
  return existsSync(path) && statSync(path).isFile() ? path : undefined;
}

let settle;
const reported = new Promise((r) => (settle = r));

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  if (req.method === "POST" && url.pathname === "/report") {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      res.writeHead(204).end();
      settle(JSON.parse(body));
    });
    return;
  }
  let file;
  if (url.pathname === "/" || url.pathname === "/index.html") file = join(here, "index.html");
  else if (url.pathname === "/run.json") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(run));
    return;
  } else if (url.pathname.startsWith("/test/browser/")) file = inside(here, decodeURIComponent(url.pathname.slice(14)));
  else file = inside(root, decodeURIComponent(url.pathname.slice(1)));
  if (file === undefined) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
  res.end(readFileSync(file));
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const port = server.address().port;

const profile = mkdtempSync(join(tmpdir(), "bijoubuf-chromium-"));
const browser = spawn(
  chromium,
  [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    `--user-data-dir=${profile}`,
    `http://127.0.0.1:${port}/`,
  ],
  { stdio: ["ignore", "ignore", "pipe"] },
);
let stderr = "";
browser.stderr.setEncoding("utf8");
browser.stderr.on("data", (c) => (stderr = (stderr + c).slice(-4000)));
const exited = new Promise((r) => browser.on("close", (code, signal) => r({ code, signal })));
browser.on("error", (e) => settle({ fatal: `chromium did not start: ${e.message}`, startError: true }));

let timer;
const outcome = await Promise.race([
  reported,
  exited.then((e) => ({ fatal: `chromium exited before the page reported (${e.code ?? e.signal})` })),
  new Promise((r) => (timer = setTimeout(() => r({ fatal: `no report within ${TIMEOUT_MS / 1000} s` }), TIMEOUT_MS))),
]);
clearTimeout(timer);
if (browser.exitCode === null && browser.signalCode === null) {
  browser.kill("SIGTERM");
  await exited;
}
server.close();
rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });

if (outcome.fatal !== undefined) outcome.chromiumStderr = stderr;
console.log(JSON.stringify(outcome));
const failed = [...(outcome.checks ?? []), ...(outcome.tests ?? [])].filter((t) => !t.ok);
const passed = (outcome.checks?.length ?? 0) + (outcome.tests?.length ?? 0) - failed.length;
if (outcome.fatal !== undefined) {
  console.error(`browser test: ${outcome.fatal}\n${stderr}`);
} else {
  console.error(`browser test: ${outcome.userAgent}: ${passed} passed, ${failed.length} failed`);
  for (const f of failed) console.error(`  FAIL ${f.file ? f.file + ": " : ""}${f.name}: ${f.error}`);
}
process.exit(outcome.startError ? 2 : outcome.fatal !== undefined || failed.length > 0 || passed === 0 ? 1 : 0);
