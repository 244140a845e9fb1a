import { createHmac } from "node:crypto";

import { describe, expect, it } from "vitest";

import {
  hmacSha256Hex,
  loadAppsScript,
  parametersOf,
  SPREADSHEET_COLUMNS,
  receiveDelivery,
  type DeliveryDeps,
  type DeliveryRequest,
} from "./load-apps-script.ts";
import { registrationBody, sign, signedUrl } from "../../server/outbox/spreadsheet.ts";

const SECRET = "a-shared-secret-of-at-least-32-characters";
const NOW = 1_800_000_000;
const delivery = {
  id: "0f8fad5b-d9cb-469f-a165-70867728950e",
  name: '=HYPERLINK("http://evil.example","click")',
  email: "ann@example.com",
  phone: "+44 7700 900123",
  message: "@SUM(A1)\r\nthanks",
  timestamp: "2026-11-23T10:00:00.000Z",
};

function fakeSheet() {
  const rows: string[][] = [];
  return {
    rows,
    hasId: (id: string) => rows.some((row) => row[0] === id),
    appendTextRow: (values: string[]) => void rows.push(values),
    setTextCells(id: string, cells: Record<string, string>) {
      const row = rows.find((r) => r[0] === id);
      if (!row) return false;
      for (const [column, value] of Object.entries(cells))
        row[SPREADSHEET_COLUMNS.indexOf(column)] = value;
      return true;
    },
  };
}

const body = JSON.stringify(delivery);
const ok = { ok: true };
const refused = (error: string) => ({ ok: false, error });
const confirmedAt = "2026-11-24T08:00:00.000Z";
/** The sheet's header before the status columns came. */
const firstColumns = ["id", "timestamp", "name", "email", "phone", "message"];
/** The row `delivery` becomes with this name and message: its phone defused, no status yet. */
function rowOf(name: string, message: string) {
  const { id, timestamp } = delivery;
  return [id, timestamp, name, "ann@example.com", "'+44 7700 900123", message, "", ""];
}
/** A later delivery: the registration's status. */
const status = (confirmed: string | null, unsubscribedAt: string | null = null) =>
  JSON.stringify({ event: "status", id: delivery.id, confirmedAt: confirmed, unsubscribedAt });

/** A request as the website's outbox sends it, signed at `signedAt`. */
function request(content = body, signedAt = NOW, secret = SECRET): DeliveryRequest {
  const signature = createHmac("sha256", secret).update(`${signedAt}.${content}`).digest("hex");
  return { parameter: { timestamp: String(signedAt), signature }, body: content };
}

function deps(overrides: Partial<DeliveryDeps> = {}) {
  const sheet = fakeSheet();
  const d = { secret: SECRET, nowSeconds: () => NOW, hmacSha256Hex, sheet, ...overrides };
  return { sheet, receive: (req = request()) => receiveDelivery(req, d) };
}

describe("the spreadsheet's handling of a delivery (delivery.js)", () => {
  it("writes a signed delivery as one row of text, formulas defused, and keeps one row per registration id however often it arrives", () => {
    const { sheet, receive } = deps();
    expect(receive()).toEqual(ok);
    expect(SPREADSHEET_COLUMNS).toEqual([...firstColumns, "confirmed_at", "unsubscribed_at"]);
    expect(sheet.rows).toEqual([
      rowOf('\'=HYPERLINK("http://evil.example","click")', "'@SUM(A1)\r\nthanks"),
    ]);
    expect(receive(request(body, NOW - 10))).toEqual({ ok: true, duplicate: true });
    expect(sheet.rows).toHaveLength(1);
  });

  it("fills in a registration's status from a later delivery, and refuses one whose row is not there yet", () => {
    const { sheet, receive } = deps();
    expect(receive(request(status(confirmedAt)))).toEqual(refused("unknown-id"));
    expect(receive()).toEqual(ok);
    expect(receive(request(status(confirmedAt)))).toEqual(ok);
    expect(sheet.rows[0]?.slice(6)).toEqual([confirmedAt, ""]);
    // Repeated or later: the row shows the newest state, still one row.
    const later = status(confirmedAt, "2026-12-01T09:00:00.000Z");
    expect(receive(request(later))).toEqual(ok);
    expect(receive(request(later))).toEqual(ok);
    expect(sheet.rows).toHaveLength(1);
    expect(sheet.rows[0]?.slice(6)).toEqual([confirmedAt, "2026-12-01T09:00:00.000Z"]);
    // Signed like any other delivery.
    const otherSecret = "another-secret-of-32-characters-or-more";
    expect(receive(request(later, NOW, otherSecret))).toEqual(refused("bad-signature"));
  });

  it("refuses what the website did not sign, or signed too long ago", () => {
    const cases: Array<[string, DeliveryRequest, Partial<DeliveryDeps>?]> = [
      ["unsigned", { parameter: {}, body }],
      ["unsigned", { parameter: { timestamp: "soon", signature: "ab" }, body }],
      ["bad-signature", request(body, NOW, "another-secret-of-at-least-32-chars!")],
      ["bad-signature", { ...request(body), body: body.replace("ann@", "eve@") }],
      [
        "bad-signature",
        { ...request(body), parameter: { ...request(body).parameter, timestamp: String(NOW - 1) } },
      ],
      ["too-old", request(body, NOW - 301)],
      ["from-the-future", request(body, NOW + 61)],
      ["not-configured", request(body), { secret: null }],
      ["not-json", request("{not json")],
      ["no-id", request(JSON.stringify({ ...delivery, id: "1; drop" }))],
    ];
    for (const [error, req, overrides] of cases) {
      const { sheet, receive } = deps(overrides);
      expect(receive(req), error).toEqual(refused(error));
      expect(sheet.rows).toEqual([]);
    }
    // The edges of the window are inside it.
    for (const signedAt of [NOW - 300, NOW + 60]) {
      expect(deps().receive(request(body, signedAt))).toEqual(ok);
    }
  });

  it("accepts exactly what the website's outbox sends, non-ASCII text included", () => {
    const registration = { ...delivery, name: "Zoë Ångström سلام", message: "Tschüß 👋" };
    const sent = registrationBody(registration);
    expect(sent).toMatch(/^[\x20-\x7E]*$/);
    const signed = sign(SECRET, sent, new Date(NOW * 1000));
    const url = signedUrl("https://script.google.com/macros/s/abc/exec", signed);
    const { sheet, receive } = deps();
    expect(receive({ parameter: parametersOf(url), body: sent })).toEqual(ok);
    expect(sheet.rows[0]).toEqual(rowOf("Zoë Ångström سلام", "Tschüß 👋"));
  });
});

/** Just enough of Apps Script's services for Code.js, recording what it does. */
function appsScriptFakes(secret: string | null, property = "SPREADSHEET_SECRET") {
  const cells: string[][] = [];
  const formats: string[] = [];
  const lock = { held: false, waits: 0 };
  let sheetExists = false;
  const sheet = {
    getRange(...args: unknown[]) {
      if (args[0] === "A:A") {
        return {
          createTextFinder: (text: string) => ({
            matchEntireCell: () => ({
              findNext: () => {
                const index = cells.findIndex((row) => row[0] === text);
                return index === -1 ? null : { getRow: () => index + 1 };
              },
            }),
          }),
        };
      }
      const [row, column] = args as [number, number];
      const range = {
        getValues: () => [cells[row - 1] ?? []],
        setNumberFormat(format: string) {
          formats.push(format);
          return range;
        },
        setValues(values: string[][]) {
          cells[row - 1] = [...values[0]!];
          return range;
        },
        setValue(value: string) {
          (cells[row - 1] ??= [])[column - 1] = value;
          return range;
        },
      };
      return range;
    },
    getLastRow: () => cells.length,
  };
  const globals = {
    LockService: {
      getScriptLock: () => ({
        waitLock: () => {
          lock.waits += 1;
          lock.held = true;
        },
        releaseLock: () => void (lock.held = false),
      }),
    },
    PropertiesService: {
      getScriptProperties: () => ({
        getProperty: (name: string) => (name === property ? secret : null),
      }),
    },
    SpreadsheetApp: {
      getActiveSpreadsheet: () => ({
        getSheetByName: () => (sheetExists ? sheet : null),
        insertSheet: () => {
          sheetExists = true;
          return sheet;
        },
      }),
    },
    Utilities: {
      Charset: { UTF_8: "UTF-8" },
      // Apps Script returns Java's signed bytes.
      computeHmacSha256Signature: (value: string, key: string, charset: string) => {
        expect(charset).toBe("UTF-8");
        return [...createHmac("sha256", key).update(value, "utf8").digest()].map((b) =>
          b > 127 ? b - 256 : b,
        );
      },
    },
    ContentService: {
      MimeType: { JSON: "application/json" },
      createTextOutput: (text: string) => ({ setMimeType: (type: string) => ({ text, type }) }),
    },
  };
  return { globals, cells, formats, lock };
}

describe("the Apps Script entry point (Code.js)", () => {
  const event = (req: DeliveryRequest) => ({
    parameter: req.parameter,
    postData: { contents: req.body, type: "application/json" },
  });
  function load(secret: string | null = SECRET, property?: string) {
    const fakes = appsScriptFakes(secret, property);
    const script = loadAppsScript(["delivery.js", "Code.js"], fakes.globals);
    const doPost = script.doPost as (e: unknown) => { text: string; type: string };
    /** Posts `content` signed at `signedAt`, by default now (the script reads the real clock). */
    const post = (content = body, signedAt = Math.floor(Date.now() / 1000)): unknown =>
      JSON.parse(doPost(event(request(content, signedAt))).text);
    return { ...fakes, doPost, post };
  }

  it("verifies with Utilities' HMAC, writes plain-text cells under a header, and answers JSON", () => {
    const { doPost, post, cells, formats, lock } = load();
    const signedNow = Math.floor(Date.now() / 1000);
    const answer = doPost(event(request(body, signedNow)));
    expect(answer).toEqual({ text: '{"ok":true}', type: "application/json" });
    expect(cells[0]).toEqual(SPREADSHEET_COLUMNS);
    expect(cells[1]?.[0]).toBe(delivery.id);
    expect(cells[1]?.[2]).toBe('\'=HYPERLINK("http://evil.example","click")');
    expect(formats).toEqual(["@"]);
    expect(lock).toEqual({ held: false, waits: 1 });

    expect(post(body, signedNow)).toEqual({ ok: true, duplicate: true });
    expect(cells).toHaveLength(2);

    expect(post(status(confirmedAt), signedNow)).toEqual(ok);
    expect(cells[1]?.slice(6)).toEqual([confirmedAt, ""]);
    expect(cells).toHaveLength(2);
  });

  it("still reads the secret under its name before issue 30, SHEETS_WEBHOOK_SECRET", () => {
    expect(load(SECRET, "SHEETS_WEBHOOK_SECRET").post()).toEqual(ok);
  });

  it("grows the header of a sheet made by an earlier version", () => {
    const { post, cells } = load();
    cells.push([...firstColumns]);
    cells.push(["an-old-row"]);
    post();
    expect(cells[0]).toEqual(SPREADSHEET_COLUMNS);
    expect(cells[2]?.[0]).toBe(delivery.id);
  });

  it("answers a refusal as JSON, without writing, and always releases the lock", () => {
    const unconfigured = load(null);
    expect(unconfigured.post(body, NOW)).toEqual(refused("not-configured"));
    expect(unconfigured.cells.slice(1)).toEqual([]);
    expect(unconfigured.lock.held).toBe(false);

    const broken = load();
    broken.globals.SpreadsheetApp.getActiveSpreadsheet = () => {
      throw new Error("Service Spreadsheets failed");
    };
    expect(broken.post()).toEqual(refused("script-error"));
    expect(broken.lock).toEqual({ held: false, waits: 1 });
  });
});
