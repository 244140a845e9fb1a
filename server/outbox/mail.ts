import type { Kysely } from "kysely";

import type { Database, Dialect } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { trackSend } from "./in-flight.ts";
import { handOff, type MailDelivery, mailDeliveries, suppress } from "./store.ts";
import {
  createWorker,
  describeError,
  type OutboxWorker,
  type OutboxWorkerOptions,
} from "./worker.ts";
import { composeMail } from "../mail/compose.ts";
import type { Mailer } from "../mail/transport.ts";
import { emailHasher } from "../registrations/erasure.ts";

/** Time the gate allows beyond the send's own timeout before others treat it as over. */
const HANDOFF_MARGIN_MS = 2_000;

/**
 * An SMTP failure as its code and enhanced status only ("SMTP 550 5.1.1"): a reply's text
 * often echoes the address, and must reach neither the log nor the outbox row. A 5xx
 * answer to RCPT TO or DATA refuses the address for good; anything else is temporary.
 */
export function smtpFailure(error: unknown): { reason: string; permanent: boolean } {
  const e = (error ?? {}) as { responseCode?: unknown; response?: unknown; command?: unknown };
  if (typeof e.responseCode === "number") {
    const enhanced =
      typeof e.response === "string"
        ? /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})(?=\s|$)/.exec(e.response)?.[1]
        : undefined;
    const permanent =
      e.responseCode >= 500 &&
      e.responseCode < 600 &&
      (e.command === "RCPT TO" || e.command === "DATA");
    return { reason: `SMTP ${e.responseCode}${enhanced ? ` ${enhanced}` : ""}`, permanent };
  }
  return { reason: describeError(error), permanent: false };
}

/**
 * Sends the emails (docs/decisions/088, 095): the confirmation each registration queues,
 * and announcements. Each message passes the handoff gate (server/outbox/store.ts) at the
 * moment it is handed to the transport, and a send that takes longer than `timeoutMs`
 * is aborted, not abandoned. Links come from `siteOrigin`, read when each is built.
 */
export function createMailWorker(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  mailer: Mailer;
  siteOrigin: string;
  linkKey: string;
  logger: Logger;
  options: OutboxWorkerOptions;
}): OutboxWorker {
  const { db, dialect, mailer, siteOrigin, linkKey, options } = deps;
  let hasher: Promise<(email: string) => string> | undefined;
  const hash = async (email: string) => (await (hasher ??= emailHasher(db)))(email);
  return createWorker<MailDelivery>({
    ...deps,
    channel: {
      kind: "mail",
      sent: "email sent",
      failed: "email failed",
      load: (claims) => mailDeliveries(db, claims),
      describe: (job) => ({
        outboxId: job.outboxId,
        topic: job.topic,
        registrationId: job.registration.id,
      }),
      async onPermanentFailure(job, reason) {
        await suppress(db, await hash(job.registration.email), reason, options.now());
      },
      async send(job) {
        const controller = new AbortController();
        const timeout = setTimeout(
          () => controller.abort(Object.assign(new Error("timed out"), { name: "TimeoutError" })),
          options.timeoutMs,
        );
        try {
          const message = composeMail(job, { siteOrigin, linkKey });
          const refused = await handOff(
            db,
            dialect,
            { ...job, registrationId: job.registration.id },
            new Date(options.now().getTime() + options.timeoutMs + HANDOFF_MARGIN_MS),
            hash,
          );
          if (refused !== null) return { kind: "skipped", reason: refused };
          const sending = mailer.send({ ...message, signal: controller.signal });
          trackSend(job.outboxId, controller, sending);
          await sending;
          return { kind: "sent" };
        } catch (error) {
          if (controller.signal.aborted) {
            const reason = controller.signal.reason as Error;
            // Stopped by an erasure or unsubscribe, which has dealt with the row.
            if (reason.name !== "TimeoutError") return { kind: "skipped", reason: "stopped" };
            return {
              kind: "failed",
              reason: `timed out after ${options.timeoutMs} ms`,
              permanent: false,
            };
          }
          return { kind: "failed", ...smtpFailure(error) };
        } finally {
          clearTimeout(timeout);
        }
      },
    },
  });
}
