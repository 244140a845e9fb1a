import type { Kysely } from "kysely";

import type { Database, Dialect } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { forwardedBody, statusBody } from "./payload.ts";
import { sign, signatureHeaders, signedUrl } from "./signature.ts";
import { type SpreadsheetDelivery, spreadsheetDeliveries } from "./store.ts";
import {
  createWorker,
  describeError,
  type OutboxWorker,
  type OutboxWorkerOptions,
} from "./worker.ts";

/**
 * A receiver that cannot choose its HTTP status (Google Apps Script answers 200
 * to everything) refuses with `{"ok": false, "error": "…"}`. Only a short token
 * is kept from it: the log and the outbox row never hold a response body.
 */
function refusal(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null || (parsed as { ok?: unknown }).ok !== false)
    return null;
  const reason = (parsed as { error?: unknown }).error;
  return `refused by the receiver: ${typeof reason === "string" && /^[a-z][a-z-]{0,39}$/.test(reason) ? reason : "no reason given"}`;
}

/**
 * The spreadsheet delivery: each registration, then its later status, to the clinic's
 * endpoint, signed with SHEETS_WEBHOOK_SECRET (docs/decisions/078). Its outbox rows
 * have kind 'sheet'.
 */
export function createSpreadsheetWorker(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  url: string;
  secret: string;
  logger: Logger;
  options: OutboxWorkerOptions;
}): OutboxWorker {
  const { db, url, secret, options } = deps;
  return createWorker<SpreadsheetDelivery>({
    ...deps,
    channel: {
      kind: "sheet",
      sent: "spreadsheet delivery done",
      failed: "spreadsheet delivery failed",
      load: (claims) => spreadsheetDeliveries(db, claims),
      describe: (delivery) => ({
        registrationId: delivery.topic === "status" ? delivery.status.id : delivery.registration.id,
        ...(delivery.topic === "status" ? { topic: "status" } : {}),
      }),
      async send(delivery) {
        const body =
          delivery.topic === "status"
            ? statusBody(delivery.status)
            : forwardedBody(delivery.registration);
        const signed = sign(secret, body, options.now());
        try {
          const response = await fetch(signedUrl(url, signed), {
            method: "POST",
            headers: { "content-type": "application/json", ...signatureHeaders(signed) },
            body,
            signal: AbortSignal.timeout(options.timeoutMs),
          });
          // Read to the end, so the connection can be reused and a refusal in a 200 seen.
          const answer = await response.text().catch(() => "");
          const refused = response.ok ? refusal(answer) : null;
          if (response.ok && refused === null) return { kind: "sent" };
          return { kind: "failed", reason: refused ?? `HTTP ${response.status}`, permanent: false };
        } catch (error) {
          const reason =
            error instanceof Error && error.name === "TimeoutError"
              ? `timed out after ${options.timeoutMs} ms`
              : describeError(error);
          return { kind: "failed", reason, permanent: false };
        }
      },
    },
  });
}
