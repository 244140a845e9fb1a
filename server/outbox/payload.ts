import type { SpreadsheetDelivery } from "./store.ts";
import { neutraliseFormula } from "../registrations/csv.ts";

/** JSON with every character outside printable ASCII as a \u escape (docs/decisions/078). */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[^\x20-\x7E]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

type ForwardedRegistration = Extract<
  SpreadsheetDelivery,
  { topic: "registration" }
>["registration"];

/**
 * The JSON body forwarded to the spreadsheet. Every text field goes through the
 * CSV export's formula rule, so `=HYPERLINK(…)` arrives as `'=HYPERLINK(…)` and a
 * sheet shows it as text (docs/decisions/077). Characters outside ASCII are sent
 * as \u escapes: the signed bytes are then the same however the receiver decodes
 * the body (docs/decisions/078).
 */
export function forwardedBody(registration: ForwardedRegistration): string {
  const fields = Object.fromEntries(
    Object.entries(registration).map(([key, value]) => [
      key,
      typeof value === "string" ? neutraliseFormula(value) : value,
    ]),
  );
  return asciiJson(fields);
}

/**
 * A later delivery (docs/decisions/087): the registration's confirmed and unsubscribed
 * times as they are when sent, under the same ASCII rule as the registration itself.
 */
export function statusBody(status: {
  id: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
}): string {
  return asciiJson({ event: "status", ...status });
}
