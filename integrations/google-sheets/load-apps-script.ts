/*
 * Runs the Apps Script files under Node for tests: like Apps Script, every file
 * of the project is evaluated in one shared global scope. Nothing here ships to
 * Google; the website's tests use it to check deliveries with the shipped logic.
 */
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";

export type DeliveryRequest = { parameter: Record<string, string>; body: string };
export type RegistrationsSheet = {
  hasId(id: string): boolean;
  appendTextRow(values: string[]): void;
  /** Fills in cells of the row with this id; false when there is no such row. */
  setTextCells(id: string, cells: Record<string, string>): boolean;
};
export type DeliveryDeps = {
  secret: string | null;
  nowSeconds(): number;
  hmacSha256Hex(key: string, message: string): string;
  sheet: RegistrationsSheet;
};
export type DeliveryResult = { ok: true; duplicate?: true } | { ok: false; error: string };

const here = import.meta.dirname;
const source = (file: string) => readFileSync(path.join(here, file), "utf8");

/** Evaluates the given script files, in order, in one fresh context holding `globals`. */
export function loadAppsScript(files: string[], globals: Record<string, unknown> = {}) {
  const context = vm.createContext({ ...globals });
  for (const file of files) vm.runInContext(source(file), context, { filename: file });
  return context as Record<string, unknown>;
}

const shipped = loadAppsScript(["delivery.js"]);

export const receiveDelivery = shipped.receiveDelivery as (
  request: DeliveryRequest,
  deps: DeliveryDeps,
) => DeliveryResult;
export const SPREADSHEET_COLUMNS = shipped.SPREADSHEET_COLUMNS as readonly string[];

export function hmacSha256Hex(key: string, message: string): string {
  return createHmac("sha256", key).update(message, "utf8").digest("hex");
}

/** Splits a request URL into the `parameter` object Apps Script would build from it. */
export function parametersOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url, "http://spreadsheet.invalid").searchParams);
}

/** The secret the website's tests share with their stand-in spreadsheets. */
export const TEST_SPREADSHEET_SECRET = "test-only-secret-0123456789abcdef0123456789";

/**
 * Checks one HTTP request the way the shipped script would (signature in the query
 * string, timestamp within five minutes), and that the headers carry the same
 * signature for endpoints that read headers. Writes nothing: the caller keeps rows.
 */
export function checkSignedRequest(
  request: { url: string; headers: Record<string, string | string[] | undefined>; body: string },
  secret = TEST_SPREADSHEET_SECRET,
): DeliveryResult {
  const parameter = parametersOf(request.url);
  if (
    request.headers["x-clinic-timestamp"] !== parameter.timestamp ||
    request.headers["x-clinic-signature"] !== `sha256=${parameter.signature}`
  ) {
    return { ok: false, error: "headers-differ" };
  }
  return receiveDelivery(
    { parameter, body: request.body },
    {
      secret,
      nowSeconds: () => Math.floor(Date.now() / 1000),
      hmacSha256Hex,
      sheet: { hasId: () => false, appendTextRow: () => undefined, setTextCells: () => true },
    },
  );
}
