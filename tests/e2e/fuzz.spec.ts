import { spawnSync } from "node:child_process";
import path from "node:path";

import { expect, test } from "@playwright/test";
import fc from "fast-check";

import { registrationSchema } from "../../app/features/registration/form.ts";
import { inParallel, sqliteRows } from "../../scripts/lib/registrations.ts";
import { type ServerProcess, startServer } from "../../scripts/lib/server-process.ts";
import { MAX_BODY_BYTES } from "../../server/registrations/guards.ts";
import { parseCsv } from "../support/csv.ts";
import { type FakeSpreadsheet, startFakeSpreadsheet } from "../support/fake-spreadsheet.ts";

/**
 * Property-based fuzzing of the one write path. 10,000 generated requests go to
 * POST /register-interest, as the no-JavaScript form (answered with HTML) and as the
 * island asking for JSON: every content type, duplicated
 * and missing keys, wrong types, huge strings, Unicode edge cases, control
 * characters, HTML/SQL/CSV-formula payloads. Then every surface that shows stored
 * data is checked: the database rows, the re-rendered form, the CSV export and the
 * JSON forwarded to the spreadsheet.
 */

const BATCH = 50;
const RUNS = 200; // 200 x 50 = 10,000 requests
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const root = path.resolve(import.meta.dirname, "..", "..");

/** Markers that only appear in a response if something was not escaped. */
const MARKER_TAG = "<x-fuzz";
const MARKER_ATTR = 'x-fuzz-attr="';

/**
 * Hostile strings, a row per kind: markup and script, SQL, spreadsheet formulas, templates and
 * NUL, direction marks and invisible characters, surrogates and combining marks, separators
 * and controls, real names.
 */
const PAYLOADS = [
  ["<x-fuzz>bold</x-fuzz>", "<script>x-fuzz()</script>", "</script><x-fuzz-script>"],
  ['"><x-fuzz-img src=x onerror=alert(1)>', '" x-fuzz-attr="1', "' x-fuzz-attr='1"],
  ["javascript:alert(1)"],
  ["'; DROP TABLE registrations; --", "Robert'); DELETE FROM outbox; --", "1 OR 1=1"],
  ['=HYPERLINK("http://evil.example","click")', "=1+2", "+44 7700 900123", "-2+3"],
  ["@SUM(A1:A2)", "\t=cmd|' /C calc'!A0", "\r=1", "=cmd"],
  ["{{7*7}}", "${7*7}", "%00", "\u0000nul"],
  ["\u202Eevil\u202C", "\u200F\u05E9\u05DC\u05D5\u05DD", "\u0645\u0631\u062D\u0628\u0627"],
  ["\uFEFFbom", "\u200B\u200C\u200D"],
  ["\uD800lone", "lone\uDFFF", "\uD83D\uDE00 smile", "e\u0301\u0301\u0301"],
  ["\u2028line\u2029para", "\u0085next", "\x1B[31mred", "\x7F\x01\x02\x1F"],
  ["José Müller-Ørsted", "O'Brien"],
].flat();

/** Single code units: controls, zero-width and direction marks, lone surrogates, separators, syntax. */
const controlUnit = fc.constantFrom(
  ...[
    ["\u0000", "\u0001", "\u0008", "\u000B", "\u000C", "\u001F", "\u007F", "\u0085"],
    ["\u200B", "\u200E", "\u200F", "\u202A", "\u202E", "\u2066", "\u2069", "\uFEFF"],
    ["\uD800", "\uDFFF", "\u2028", "\u2029", "\r", "\n", "\t", " "],
    ["<", ">", '"', "'", "&", "=", "+", "-", "@", ";", ",", "%", "\\"],
  ].flat(),
);

const nasty = fc.oneof(
  fc.constantFrom(...PAYLOADS),
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.string({ unit: controlUnit, maxLength: 40 }),
  fc
    .tuple(fc.constantFrom(...PAYLOADS), fc.string({ unit: controlUnit, maxLength: 10 }))
    .map(([a, b]) => a + b),
);

/** A name that passes validation more often than not: a letter, then anything nasty. */
const plausibleName = fc
  .tuple(fc.constantFrom("A", "Zoë", "李", "محمد"), nasty)
  .map(([a, b]) => `${a} ${b}`.slice(0, 100));

const email = fc.oneof(
  { weight: 6, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: nasty },
  { weight: 1, arbitrary: nasty.map((s) => `${s}@example.co.uk`) },
  { weight: 1, arbitrary: fc.constant("") },
);

const huge = fc
  .tuple(
    fc.constantFrom("a", "=", "<x-fuzz>", "\u0000", "é", "\uD83D\uDE00"),
    fc.integer({ min: 101, max: 9000 }),
  )
  .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)));

const fieldValue = fc.oneof(
  { weight: 5, arbitrary: nasty },
  { weight: 1, arbitrary: huge },
  { weight: 1, arbitrary: fc.constant("") },
);

const timestamp = fc.oneof(
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  nasty,
);

const anyFields = fc.record(
  {
    name: fc.oneof({ weight: 4, arbitrary: plausibleName }, { weight: 2, arbitrary: fieldValue }),
    email,
    phone: fc.oneof(fc.constant(""), fc.constant("+44 7700 900123"), fieldValue),
    message: fieldValue,
    website: fc.oneof({ weight: 9, arbitrary: fc.constant("") }, { weight: 1, arbitrary: nasty }),
    idempotencyKey: fc.oneof(fc.uuid(), nasty, fc.constant("")),
    clientTimestamp: timestamp,
  },
  { requiredKeys: [] },
);

/** Submissions that pass validation, so hostile text reaches storage and every surface after it. */
const storableFields = fc.record({
  name: plausibleName,
  email: fc
    .tuple(
      fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,20}[a-z0-9]$/),
      fc.constantFrom("example.co.uk", "example.com", "nhs.example.org"),
    )
    .map(([local, domain]) => `${local.replace(/\.{2,}/g, ".")}@${domain}`),
  phone: fc.constantFrom("", "07700 900123", "+44 (0)20 7946 0000", "020-7946-0001"),
  message: fc.oneof(
    nasty,
    nasty.map((m) => m.slice(0, 2000)),
    fc.constant(""),
  ),
  website: fc.constant(""),
  idempotencyKey: fc.oneof(fc.uuid(), fc.constant(""), nasty),
  clientTimestamp: timestamp,
});

const fields: fc.Arbitrary<Partial<Record<string, string>>> = fc.oneof(
  { weight: 1, arbitrary: anyFields },
  { weight: 1, arbitrary: storableFields },
);

type FuzzRequest = {
  kind: string;
  /** Posted as the island does, with Accept: application/json. */
  island: boolean;
  headers: Record<string, string>;
  body: string | Uint8Array | FormData;
};

/** Percent-encodes every byte, then swaps in malformed escapes now and then. */
function rawEncode(value: string, broken: number): string {
  const encoded = encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, "\uFFFD"));
  return ["", "", "", "", "%ED%A0%80", "%FF%FE", "%", "%G1", "%00", "+"][broken % 10] + encoded;
}

const encodings: fc.Arbitrary<
  Omit<FuzzRequest, "island" | "headers"> & { headers?: Record<string, string> }
>[] = [
  // The form's own encoding.
  fields.map((f) => ({
    kind: "urlencoded",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(f as Record<string, string>).toString(),
  })),
  // Hand-made urlencoded: duplicated keys, array-style keys, broken escapes.
  fc
    .tuple(
      fields,
      fc.nat(),
      fc.array(
        fc.constantFrom("name", "email", "name[]", "email[0]", "__proto__", "constructor", "", "="),
        { maxLength: 4 },
      ),
      nasty,
    )
    .map(([f, n, extraKeys, extra]) => ({
      kind: "urlencoded-raw",
      headers: { "content-type": "application/x-www-form-urlencoded;charset=UTF-8" },
      body: [
        ...Object.entries(f).map(
          ([k, v = ""], i) => `${k}=${rawEncode(v, k === "website" ? 0 : n + i)}`,
        ),
        ...extraKeys.map((k) => `${encodeURIComponent(k)}=${rawEncode(extra, n)}`),
        ...(n % 3 === 0 ? Object.entries(f).map(([k]) => `${k}=second`) : []),
      ].join(n % 5 === 0 ? ";" : "&"),
    })),
  // multipart/form-data, with files where text belongs.
  fc.tuple(fields, fc.boolean()).map(([f, withFile]) => {
    const form = new FormData();
    for (const [k, v = ""] of Object.entries(f)) form.append(k, v);
    if (withFile) form.set("message", new Blob(["=1+1<x-fuzz>"], { type: "text/html" }), "x.html");
    if (withFile) form.append("name", "second name");
    return { kind: "multipart", body: form };
  }),
  // Broken multipart: wrong or missing boundary, truncated parts.
  fc
    .tuple(
      fields,
      fc.constantFrom(
        "multipart/form-data",
        "multipart/form-data; boundary=nope",
        "multipart/form-data; boundary=",
      ),
    )
    .map(([f, type]) => ({
      kind: "multipart-broken",
      headers: { "content-type": type },
      body: `--b\r\nContent-Disposition: form-data; name="name"\r\n\r\n${f.name ?? ""}\r\n--b`,
    })),
  // JSON, with wrong types.
  fc.tuple(fields, fc.anything({ maxDepth: 2 })).map(([f, anything]) => ({
    kind: "json",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...f, phone: anything, extra: anything }),
  })),
  fc.anything({ maxDepth: 3 }).map((anything) => ({
    kind: "json-anything",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(anything) ?? "null",
  })),
  // text/plain (a form with enctype="text/plain") and other wrong types.
  fc
    .tuple(
      fields,
      fc.constantFrom(
        "text/plain",
        "application/xml",
        "image/png",
        "application/octet-stream",
        "application/x-www-form-urlencoded; charset=utf-16",
        "text/html",
        "",
      ),
    )
    .map(([f, type]) => ({
      kind: `wrong-type:${type || "none"}`,
      headers: (type ? { "content-type": type } : {}) as Record<string, string>,
      body: Object.entries(f)
        .map(([k, v]) => `${k}=${v}`)
        .join("\r\n"),
    })),
  // Raw bytes.
  fc.uint8Array({ maxLength: 2000 }).map((bytes) => ({
    kind: "bytes",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: bytes,
  })),
];

const request: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.oneof(...encodings),
    fc.constantFrom(true, true, true, false),
    fc.constantFrom("same", "same", "same", "same", "none", "foreign", "null"),
  )
  .map(([encoded, island, origin]) => ({
    ...encoded,
    island,
    headers: {
      ...encoded.headers,
      ...(island ? { accept: "application/json" } : {}),
      ...(origin === "none" ? {} : { origin }),
    },
  }));

/** The size of a body as fetch sends it (a FormData's boundary has the same length every time). */
async function bodyBytes(body: FuzzRequest["body"]): Promise<number> {
  if (typeof body === "string") return Buffer.byteLength(body);
  if (body instanceof Uint8Array) return body.byteLength;
  return (await new Response(body).arrayBuffer()).byteLength;
}

test.describe.configure({ mode: "serial" });

let server: ServerProcess;
let spreadsheet: FakeSpreadsheet;

test.beforeAll(async () => {
  spreadsheet = await startFakeSpreadsheet();
  server = await startServer({ env: { ...spreadsheet.env, LOG_LEVEL: "info" } });
});

test.afterAll(async () => {
  await server?.stop();
  await spreadsheet?.close();
});

test("10,000 generated requests: never a 5xx, and every stored row is valid, inert data", async () => {
  test.setTimeout(600_000);
  /** Answers (or early closes) per kind of request, each request counted once. */
  const statuses = new Map<string, number>();
  const tally = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);
  const origins: Record<string, string> = {
    same: server.url,
    foreign: "https://evil.example",
    null: "null",
  };

  await fc.assert(
    fc.asyncProperty(fc.array(request, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
      const problems: string[] = [];
      await inParallel(batch, 16, async (r) => {
        const headers = { ...r.headers };
        if (headers.origin) headers.origin = origins[headers.origin] ?? headers.origin;
        const kind = r.kind.split(":")[0];
        let response: Response;
        try {
          response = await fetch(`${server.url}/register-interest`, {
            method: "POST",
            headers,
            body: r.body as BodyInit,
            // A form posted without JavaScript is answered 303: look at that answer itself.
            redirect: "manual",
          });
        } catch (error) {
          // Two guards answer without reading the body: a foreign (or "null") origin, and
          // a body over the cap (server/registrations/guards.ts, which closes the
          // connection after a 413). The client may then see EPIPE or a reset while it is
          // still writing: a refusal, not a server error. Any other request must get an answer.
          const code = (error as { cause?: { code?: string } }).cause?.code;
          const guarded =
            r.headers.origin === "foreign" ||
            r.headers.origin === "null" ||
            (await bodyBytes(r.body)) > MAX_BODY_BYTES;
          if (!guarded || (code !== "EPIPE" && code !== "ECONNRESET")) throw error;
          tally(`${kind} closed early`);
          return;
        }
        const text = await response.text();
        tally(`${kind} ${response.status}`);
        const what = `${r.kind} ${r.island ? "island" : "form"}`;
        const body = String(r.body).slice(0, 200);
        const location = response.headers.get("location");
        if (response.status === 303 && location !== "/register-interest/thank-you") {
          problems.push(`303 to ${location} for ${what}`);
        }
        if (response.status >= 500) problems.push(`${response.status} for ${what}: ${body}`);
        const type = response.headers.get("content-type") ?? "";
        if (type.startsWith("text/html")) {
          if (text.includes(MARKER_TAG) || text.includes(MARKER_ATTR)) {
            problems.push(`unescaped payload in HTML for ${r.kind}: ${body}`);
          }
          for (const tag of text.matchAll(/<script\b[^>]*>/g)) {
            if (!/\snonce="/.test(tag[0]) && !/application\/ld\+json/.test(tag[0])) {
              problems.push(`script without nonce in rendered HTML: ${tag[0]}`);
            }
          }
        } else if (r.island && response.status < 300) {
          expect(type).toContain("application/json");
        }
      });
      expect(problems).toEqual([]);
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  const sent = [...statuses.values()].reduce((sum, n) => sum + n, 0);
  expect(sent).toBeGreaterThanOrEqual(BATCH * RUNS);

  const summary = [...statuses]
    .sort()
    .map(([k, n]) => `${k}: ${n}`)
    .join(", ");
  test.info().annotations.push({ type: "statuses", description: summary });
  console.log(`fuzz: ${sent} requests (seed ${SEED}); ${summary}`);

  // 1. Every stored row satisfies the form's schema, unchanged by parsing it again.
  const rows = sqliteRows(server.dataDir);
  expect(rows.length).toBeGreaterThan(1000);
  for (const row of rows) {
    const { name, email, phone, message } = row;
    const parsed = registrationSchema.safeParse({
      name,
      email,
      phone: phone ?? "",
      message: message ?? "",
    });
    expect(parsed.success, JSON.stringify(row)).toBe(true);
    expect(parsed.data).toEqual({ name, email, phone, message });
  }

  // 2. The CSV export (the operator's CLI) neutralises formulas and round-trips the text.
  const cli = spawnSync(
    process.execPath,
    ["server/cli/registrations.ts", "export", "--format", "csv"],
    {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", DATA_DIR: server.dataDir, LOG_LEVEL: "silent" },
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  expect(cli.status, cli.stderr).toBe(0);
  const [header, ...records] = parseCsv(cli.stdout);
  expect(records).toHaveLength(rows.length);
  const column = (name: string) => header?.indexOf(name) ?? -1;
  const byId = new Map(rows.map((r) => [r.id, r]));
  // The export's rule (server/shared/csv.ts): a formula start gets a leading apostrophe.
  const formulaStart = /^[=+\-@\t\r]/;
  const defused = (value: string | null) =>
    value !== null && formulaStart.test(value) ? `'${value}` : value;
  for (const record of records) {
    const row = byId.get(record[column("id")] ?? "");
    expect(row).toBeDefined();
    for (const name of ["name", "email", "phone", "message"] as const) {
      const cell = record[column(name)] ?? "";
      expect(cell, `${name} of ${row?.id}`).not.toMatch(formulaStart);
      expect(cell).toBe(defused(row?.[name] ?? ""));
    }
  }

  // 3. The spreadsheet receives every stored row, signed, as valid JSON with the same
  // strings, formulas defused by the export's rule and no field starting a formula.
  await expect.poll(() => spreadsheet.rows.size, { timeout: 90_000 }).toBe(rows.length);
  // Nothing refused: every request was signed right and its body parsed as JSON.
  expect(spreadsheet.refused).toEqual([]);
  for (const row of rows) {
    const delivered = spreadsheet.rows.get(row.id);
    expect(delivered).toMatchObject({
      name: defused(row.name),
      email: defused(row.email),
      phone: defused(row.phone),
      message: defused(row.message),
    });
    for (const value of Object.values(delivered ?? {})) {
      if (typeof value === "string") expect(value).not.toMatch(formulaStart);
    }
  }
});
