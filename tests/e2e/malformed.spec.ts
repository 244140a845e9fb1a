import { readdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";

import { expect, test } from "@playwright/test";

import { type ServerProcess, startServer } from "../../scripts/lib/server-process.ts";
import { logProblems } from "../support/log-lines.ts";
import { staticPaths } from "../support/site.ts";

/**
 * Malformed and odd requests, sent over raw sockets (fetch would tidy most of them
 * up): each must get its 4xx, never a 5xx or a stack trace, and the server's output
 * must stay JSON lines throughout (docs/decisions/074).
 */

type RawAnswer = { status: number; headers: Map<string, string>; body: string; raw: string };

/** Sends bytes as they are and reads until the server closes the connection. */
function raw(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.setTimeout(15_000, () => socket.destroy(new Error(`no answer to ${request}`)));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const [head = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = new Map<string, string>();
      for (const line of lines) {
        const colon = line.indexOf(":");
        if (colon > 0)
          headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
      }
      resolve({
        status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0),
        headers,
        body: rest.join("\r\n\r\n"),
        raw: text,
      });
    });
    socket.write(request);
  });
}

/** An HTTP/1.1 request that asks the server to close when done. */
function http11(method: string, target: string, headers: Record<string, string> = {}, body = "") {
  const lines = Object.entries({ Host: "127.0.0.1", Connection: "close", ...headers }).map(
    ([k, v]) => `${k}: ${v}`,
  );
  return `${method} ${target} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n${body}`;
}

/** "METHOD target" as an HTTP/1.1 request with this site's Origin and an empty body. */
function fromSite(line: string) {
  const [method = "", target = ""] = line.split(" ");
  return http11(method, target, { Origin: "http://127.0.0.1", "Content-Length": "0" });
}

const form = { "Content-Type": "application/x-www-form-urlencoded" };
const allowed = "GET, HEAD, POST, OPTIONS";
const someAsset = readdirSync(
  path.join(
    path.resolve(import.meta.dirname, "..", "..", process.env.BUILD_DIR ?? "build", "client"),
    "assets",
  ),
).find((f) => f.endsWith(".js"));

test.describe.configure({ mode: "serial" });

let server: ServerProcess;

test.beforeAll(async () => {
  server = await startServer({ env: { LOG_LEVEL: "info" } });
});

test.afterAll(async () => {
  expect(await server?.stop()).toBe(0);
});

/** Sends a raw request: no answer carries a stack trace or a 5xx, and it is `status` if given. */
async function send(request: string, label: string, status?: number) {
  const answer = await raw(server.port, request);
  expect(answer.status, `${label}: ${answer.raw.slice(0, 200)}`).toBeGreaterThanOrEqual(200);
  expect(answer.status, `${label}: ${answer.raw.slice(0, 200)}`).toBeLessThan(500);
  expect(answer.raw, label).not.toMatch(/\n\s+at [^\n]+:\d+:\d+/);
  if (status !== undefined) expect(answer.status, label).toBe(status);
  return answer;
}

/** A GET whose answer is checked by the caller alone. */
const get = (target: string, headers: Record<string, string> = {}) =>
  raw(server.port, http11("GET", target, headers));

test("a range past the end of any prerendered page is 416, not 500", async () => {
  for (const page of staticPaths) {
    const answer = await send(http11("GET", page, { Range: "bytes=99999999-" }), page, 416);
    expect(answer.headers.get("content-range"), page).toMatch(/^bytes \*\/\d+$/);
    expect(answer.headers.get("cache-control"), page).toBe("no-store");
  }
});

test("a range past the end of an asset is 416 without the one-year immutable caching", async () => {
  expect(someAsset).toBeDefined();
  const asset = `/assets/${someAsset}`;
  for (const encoding of ["identity", "gzip", "br"]) {
    const headers = { Range: "bytes=99999999-", "Accept-Encoding": encoding };
    const answer = await send(http11("GET", asset, headers), encoding, 416);
    expect(answer.headers.get("cache-control")).not.toMatch(/immutable|max-age=[1-9]/);
    expect(answer.headers.has("content-encoding")).toBe(false);
  }
  // A satisfiable range on the same asset is still served, with its long caching.
  const partial = await get(asset, { Range: "bytes=0-9" });
  expect(partial.status).toBe(206);
  expect(partial.headers.get("cache-control")).toContain("immutable");
});

test("methods the site does not answer are 405 with Allow; OPTIONS lists them", async () => {
  for (const line of [
    "TRACE /",
    "TRACE /register-interest",
    "PUT /register-interest",
    "DELETE /register-interest.data",
    "PATCH /team",
    "PROPFIND /",
  ]) {
    const answer = await send(fromSite(line), line, 405);
    expect(answer.headers.get("allow"), line).toBe(allowed);
  }
  const options = await raw(server.port, http11("OPTIONS", "*"));
  expect(options.status).toBe(204);
  expect(options.headers.get("allow")).toBe(allowed);
  // A POST to a page without a form is React Router's 405, and is logged as JSON.
  await send(fromSite("POST /team"), "POST /team", 405);
});

test("a request without a usable Host is 400; the health check still answers without one", async () => {
  for (const request of [
    "GET / HTTP/1.0\r\n\r\n",
    "GET /team HTTP/1.0\r\n\r\n",
    "GET /pricing?plan=x HTTP/1.0\r\n\r\n",
    "GET /no-such-page HTTP/1.0\r\n\r\n",
    "POST /register-interest.data HTTP/1.0\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 6\r\n\r\nname=a",
    "POST /register-interest HTTP/1.0\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 6\r\n\r\nname=a",
    http11("GET", "/pricing?plan=x", { Host: "[::1" }),
    http11("GET", "/", { Host: "a b" }),
    http11("GET", "/quiz?x=1", { Host: "x@evil.example" }),
  ]) {
    await send(request, request, 400);
  }
  expect((await raw(server.port, "GET /healthz HTTP/1.0\r\n\r\n")).status).toBe(200);
});

test("other malformed requests get a 4xx, never a 5xx", async () => {
  const post = (headers: Record<string, string>, body: string) =>
    http11("POST", "/register-interest", headers, body);
  const cases: Array<[string, string, number | "4xx" | "any"]> = [
    ["broken percent-encoding", http11("GET", "/%E0%A4%A"), "4xx"],
    ["a byte that is not UTF-8", http11("GET", "/team%ff"), "4xx"],
    ["a broken asset name", http11("GET", "/assets/%ff.js"), "4xx"],
    ["a broken data URL", http11("GET", "/%ff.data"), "4xx"],
    ["a broken query", http11("GET", "/pricing?x=%ff%%"), "any"],
    ["a NUL in the path", http11("GET", "/team%00"), 404],
    ["an absurdly long URL", http11("GET", `/${"a".repeat(20_000)}`), 431],
    ["a method no parser knows", http11("FOO", "/"), 400],
    ["TRACK, which Node's parser refuses", http11("TRACK", "/"), 400],
    ["two Content-Lengths", post({ "Content-Length": "5", "content-length": "6" }, "name="), 400],
    [
      "Content-Length with chunked",
      post({ "Content-Length": "5", "Transfer-Encoding": "chunked" }, "0\r\n\r\n"),
      400,
    ],
    ["a header without a colon", http11("GET", "/", { "Bad Header": "x" }), 400],
    ["several ranges", http11("GET", "/team", { Range: "bytes=0-1,5-6,3-4" }), "any"],
    ["a range that is not one", http11("GET", "/team", { Range: "bytes=abc" }), 200],
    ["a reversed range", http11("GET", "/team", { Range: "bytes=9-1" }), "any"],
    ["an If-Match nothing matches", http11("GET", "/team", { "If-Match": '"nope"' }), 412],
    [
      "an old If-Unmodified-Since",
      http11("GET", "/team", { "If-Unmodified-Since": "Mon, 01 Jan 2001 00:00:00 GMT" }),
      412,
    ],
    [
      "odd Accept-Encoding weights",
      http11("GET", "/team", { "Accept-Encoding": "br;q=nan, gzip;q=-1" }),
      200,
    ],
    ["a path climbing out", http11("GET", "/../../etc/passwd"), 404],
  ];
  for (const [label, request, expected] of cases) {
    const answer = await send(request, label, typeof expected === "number" ? expected : undefined);
    if (expected === "4xx") expect(answer.status, label).toBeGreaterThanOrEqual(400);
  }
});

test("an absolute-form target is its path (RFC 9112 3.2.2): never a 500 and no error logged", async () => {
  const ours = `127.0.0.1:${server.port}`;
  const before = server.output.length;
  for (const [target, host] of [
    ["http://evil.example/", "127.0.0.1"],
    [`http://${ours}/`, ours],
    [`http://${ours}/team`, "127.0.0.1"],
    [`HTTP://${ours}/pricing?plan=x`, ours],
    ["http://evil.example/faq", ours],
  ] as const) {
    await send(http11("GET", target, { Host: host }), target, 200);
  }
  // A prerendered page at its path, allowed its inline scripts by the build's hashes.
  const team = await get(`http://${ours}/team`);
  expect(team.body).toContain("Meet the Team");
  expect(team.headers.get("content-security-policy")).toMatch(/'sha256-/);
  for (const target of ["ftp://evil.example/", "http:", "*"]) {
    await send(http11("GET", target), target, 400);
  }
  await get("/healthz");
  const lines = server.output.slice(before);
  expect(lines.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  // Logged by their path, like any request.
  expect(lines.filter((line) => line.includes('"path":"http'))).toEqual([]);
});

test("two Host headers are 400 (RFC 9112 3.2)", async () => {
  for (const second of ["evil.example", "127.0.0.1"]) {
    const request = `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: ${second}\r\nConnection: close\r\n\r\n`;
    const answer = await send(request, `127.0.0.1 + ${second}`, 400);
    expect(answer.headers.get("cache-control")).toBe("no-store");
  }
});

test("an idle keep-alive socket still answers after 6 s, longer than Node's default 5 s", async () => {
  // A proxy or client reuses idle sockets; one the server closed first fails the next
  // request with "other side closed" (a CI run lost two tests that way).
  const socket = net.connect(server.port, "127.0.0.1");
  const answers: string[] = [];
  let closed = false;
  socket.on("data", (chunk) => answers.push(chunk.toString("latin1")));
  socket.on("close", () => (closed = true));
  const healthz = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  socket.write(healthz);
  await expect.poll(() => answers.join("")).toMatch(/^HTTP\/1\.1 200/);
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  expect(closed).toBe(false);
  answers.length = 0;
  socket.write(healthz);
  await expect.poll(() => answers.join("")).toMatch(/^HTTP\/1\.1 200/);
  socket.destroy();
});

test("escapes that decode to no text are a plain 400 from the final error handler", async () => {
  for (const line of [
    "GET /%c0%ae",
    "GET /%c0%ae?x=1",
    "HEAD /assets/%ff.js",
    "POST /%c0%ae",
    "POST /register-interest/%ff",
  ]) {
    const answer = await send(fromSite(line), line, 400);
    expect(answer.headers.get("content-type"), line).toBe("text/plain; charset=utf-8");
    expect(answer.headers.get("cache-control"), line).toBe("no-store");
    expect(answer.headers.get("x-content-type-options"), line).toBe("nosniff");
    if (!line.startsWith("HEAD ")) expect(answer.body, line).toBe("Bad Request\n");
  }
});

test("index files are reachable only at their clean path, in no other spelling", async () => {
  for (const target of [
    "/faq%2findex.html",
    "/faq%2Findex.html",
    "/faq/index%2ehtml",
    "/faq/index.html",
    "/index.html",
    "/%69ndex.html",
  ]) {
    await send(http11("GET", target), target, 404);
  }
  expect((await get("/faq")).status).toBe(200);
});

test("a .data refusal names no internal route id", async () => {
  for (const line of [
    "POST /faq.data",
    "POST /pricing.data",
    "GET /no-such-page.data",
    "POST /no-such-page.data",
  ]) {
    const answer = await send(fromSite(line), line);
    expect(answer.status, line).toBeGreaterThanOrEqual(400);
    expect(answer.raw, line).not.toMatch(/routes\/|"root"/);
    expect(answer.headers.get("cache-control"), line).toMatch(/^no-(cache|store)$/);
  }
});

test("a body cut short (the client hangs up mid-POST) leaves no error behind", async () => {
  const cut = { Origin: "http://127.0.0.1", ...form, "Content-Length": "500" };
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(server.port, "127.0.0.1", () => {
      socket.write(http11("POST", "/register-interest", cut, "name=Sam&email=sa"));
      setImmediate(() => socket.destroy());
    });
    socket.on("close", () => resolve());
    socket.on("error", reject);
  });
  // The server is still well and answers the next request.
  expect((await get("/healthz")).status).toBe(200);
});

test("after all of that, every line the server wrote is JSON and none reports a 5xx", async () => {
  // Wait for the log lines of the requests above (a closed socket's line may trail it).
  await get("/healthz");
  await expect
    .poll(() => server.output.filter((line) => line.includes('"path":"/healthz"')).length)
    .toBeGreaterThan(2);
  expect(logProblems(server.output)).toEqual({ notJson: [], serverErrors: [] });
  // The refusals were logged, as JSON, by the error handler and React Router's handler.
  expect(server.output.some((line) => line.includes('"msg":"request refused"'))).toBe(true);
  expect(server.output.some((line) => line.includes('"msg":"route refused"'))).toBe(true);
});
