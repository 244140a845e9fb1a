import type { StoredRegistration } from "../../contract/registrations.ts";

/** OWASP "CSV injection": a leading apostrophe shows such a cell as text, not a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** One RFC 4180 field: quoted when it holds a comma, quote, CR or LF, with quotes doubled. */
export function csvField(value: string | null): string {
  const text = neutraliseFormula(value ?? "");
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 text: CRLF after every record, the header included. */
export function toCsv(
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | null>>,
): string {
  return [header, ...rows].map((row) => `${row.map(csvField).join(",")}\r\n`).join("");
}

const REGISTRATION_CSV_HEADER = [
  "id",
  "received_at",
  "client_timestamp",
  "name",
  "email",
  "phone",
  "message",
  "consent_version",
  "wants_updates",
  "confirmed_at",
  "unsubscribed_at",
];

export function registrationsCsv(registrations: readonly StoredRegistration[]): string {
  return toCsv(
    REGISTRATION_CSV_HEADER,
    registrations.map((r) => [
      r.id,
      r.receivedAt,
      r.clientTimestamp,
      r.name,
      r.email,
      r.phone,
      r.message,
      r.consent?.version ?? null,
      r.consent ? (r.consent.wantsUpdates ? "yes" : "no") : null,
      r.confirmedAt,
      r.unsubscribedAt,
    ]),
  );
}
