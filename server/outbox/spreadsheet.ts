import { createHmac } from "node:crypto";

import { type Claim, registrationsFor } from "./store.ts";
import {
  createWorker,
  DEFAULT_SPREADSHEET_OPTIONS,
  describeError,
  timedOut,
  type WorkerDeps,
} from "./worker.ts";
import { neutraliseFormula } from "../shared/csv.ts";

/** Printable ASCII only, so the signed bytes survive any decoding by Apps Script (078). */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[^\x20-\x7E]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Text fields under the CSV export's formula rule: `=HYPERLINK(…)` shows as text (077). */
export function registrationBody(registration: Record<string, string | null>): string {
  return asciiJson(
    Object.fromEntries(
      Object.entries(registration).map(([key, value]) => [
        key,
        typeof value === "string" ? neutraliseFormula(value) : value,
      ]),
    ),
  );
}

export type Signed = { timestamp: string; signature: string };

/** HMAC-SHA256 over `${Unix seconds}.${body}`, lowercase hex (decision 078). */
export function sign(secret: string, body: string, now: Date): Signed {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signature = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return { timestamp, signature };
}

/** Also in the query string: Apps Script's doPost(e) cannot read headers. */
export function signedUrl(url: string, signed: Signed): string {
  const target = new URL(url);
  target.searchParams.set("timestamp", signed.timestamp);
  target.searchParams.set("signature", signed.signature);
  return target.toString();
}

/** Apps Script answers 200 to everything; only a short token of its error is kept. */
function refusal(text: string): string | null {
  let parsed: { ok?: unknown; error?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null || parsed.ok !== false) return null;
  const reason = parsed.error;
  return `refused by the spreadsheet: ${typeof reason === "string" && /^[a-z][a-z-]{0,39}$/.test(reason) ? reason : "no reason given"}`;
}

type SpreadsheetDelivery = Claim & { status: boolean; body: string };

/** Each registration, then its later status, signed with SPREADSHEET_SECRET. */
export function createSpreadsheetWorker(deps: WorkerDeps & { url: string; secret: string }) {
  const { db, url, secret } = deps;
  const options = { ...DEFAULT_SPREADSHEET_OPTIONS, ...deps.options };
  return createWorker<SpreadsheetDelivery>({
    ...deps,
    options,
    channel: {
      kind: "spreadsheet",
      peer: "the spreadsheet",
      sent: "spreadsheet delivery done",
      failed: "spreadsheet delivery failed",
      async load(claims) {
        const byId = await registrationsFor(db, claims);
        return claims.flatMap((c): SpreadsheetDelivery[] => {
          const r = byId.get(c.registrationId);
          if (!r) return [];
          const status = c.topic === "status";
          const body = status
            ? asciiJson({
                event: "status",
                id: r.id,
                confirmedAt: r.confirmed_at,
                unsubscribedAt: r.unsubscribed_at,
              })
            : registrationBody({
                id: r.id,
                name: r.name,
                email: r.email,
                phone: r.phone,
                message: r.message,
                timestamp: r.client_timestamp ?? r.received_at,
              });
          return [{ ...c, status, body }];
        });
      },
      describe: (d) => ({ registrationId: d.registrationId, ...(d.status && { topic: "status" }) }),
      async send({ body }) {
        const signed = sign(secret, body, options.now());
        try {
          const response = await fetch(signedUrl(url, signed), {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "x-clinic-timestamp": signed.timestamp,
              "x-clinic-signature": `sha256=${signed.signature}`,
            },
            body,
            signal: AbortSignal.timeout(options.timeoutMs),
          });
          // Read to the end, so the connection can be reused and a refusal in a 200 seen.
          const answer = await response.text().catch(() => "");
          const refused = response.ok ? refusal(answer) : null;
          if (response.ok && refused === null) return { kind: "sent" };
          return { kind: "failed", reason: refused ?? `HTTP ${response.status}`, permanent: false };
        } catch (error) {
          if (error instanceof Error && error.name === "TimeoutError") return timedOut(options);
          return { kind: "failed", reason: describeError(error), permanent: false };
        }
      },
    },
  });
}
