import { type Claim, handOff, registrationsFor, suppress, trackSend } from "./store.ts";
import {
  createWorker,
  DEFAULT_MAIL_OPTIONS,
  describeError,
  timedOut,
  type WorkerDeps,
} from "./worker.ts";
import type { Db } from "../db/schema.ts";
import { buildEmail, type MailJob } from "../mail/build-email.ts";
import type { Mailer } from "../mail/transport.ts";
import { emailHasher } from "../shared/address.ts";

/** How long past the send's own timeout others still treat it as under way. */
const HANDOFF_MARGIN_MS = 2_000;

/** Code and enhanced status only ("SMTP 550 5.1.1"): a reply's text often echoes the address. */
function smtpFailure(error: unknown): { reason: string; permanent: boolean; slowDown: boolean } {
  const e = (error ?? {}) as { responseCode?: unknown; response?: unknown; command?: unknown };
  if (typeof e.responseCode !== "number")
    return { reason: describeError(error), permanent: false, slowDown: false };
  const enhanced =
    typeof e.response === "string"
      ? /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})(?=\s|$)/.exec(e.response)?.[1]
      : undefined;
  // A 5xx answer to RCPT TO or DATA refuses the address for good.
  const permanent =
    e.responseCode >= 500 &&
    e.responseCode < 600 &&
    (e.command === "RCPT TO" || e.command === "DATA");
  return {
    reason: `SMTP ${e.responseCode}${enhanced ? ` ${enhanced}` : ""}`,
    permanent,
    // "Service not available" and "try again later": how providers say we send too fast.
    slowDown: e.responseCode === 421 || e.responseCode === 451,
  };
}

type MailDelivery = Claim & MailJob;

/** The emails as they would be built now; whether each may go is `handOff`'s to decide. */
async function mailDeliveries(db: Db, claims: Claim[]): Promise<MailDelivery[]> {
  const byId = await registrationsFor(db, claims);
  const announcementIds = [...new Set(claims.flatMap((c) => c.announcementId ?? []))];
  const texts =
    announcementIds.length === 0
      ? []
      : await db
          .selectFrom("announcements")
          .select(["id", "subject", "body"])
          .where("id", "in", announcementIds)
          .execute();
  const announcements = new Map(texts.map(({ id, ...text }) => [id, text]));
  return claims.flatMap((c): MailDelivery[] => {
    const r = byId.get(c.registrationId);
    if (!r || (c.topic !== "confirmation" && c.topic !== "announcement")) return [];
    return [
      {
        ...c,
        topic: c.topic,
        registration: {
          id: r.id,
          name: r.name,
          email: r.email,
          receivedAt: r.received_at,
          wantsUpdates: Number(r.wants_updates) === 1,
        },
        announcement: c.announcementId ? (announcements.get(c.announcementId) ?? null) : null,
      },
    ];
  });
}

/** Each email passes the handoff gate; one past `timeoutMs` is aborted, not abandoned (095). */
export function createMailWorker(
  deps: WorkerDeps & { mailer: Mailer; siteOrigin: string; linkKey: string },
) {
  const { db, dialect, mailer, siteOrigin, linkKey } = deps;
  const options = { ...DEFAULT_MAIL_OPTIONS, ...deps.options };
  let hasher: Promise<(email: string) => string> | undefined;
  const hash = async (email: string) => (await (hasher ??= emailHasher(db)))(email);
  return createWorker<MailDelivery>({
    ...deps,
    options,
    channel: {
      kind: "mail",
      peer: "the mail server",
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
        const stop = new AbortController();
        const signal = AbortSignal.any([stop.signal, AbortSignal.timeout(options.timeoutMs)]);
        try {
          const message = buildEmail(job, { siteOrigin, linkKey });
          const refused = await handOff(
            db,
            dialect,
            { ...job, email: job.registration.email },
            new Date(options.now().getTime() + options.timeoutMs + HANDOFF_MARGIN_MS),
            hash,
          );
          if (refused !== null) return { kind: "skipped", reason: refused };
          const sending = mailer.send({ ...message, signal });
          trackSend(job.outboxId, stop, sending);
          await sending;
          return { kind: "sent" };
        } catch (error) {
          if (!signal.aborted) return { kind: "failed", ...smtpFailure(error) };
          // Stopped by an erasure or unsubscribe, which dealt with the row.
          if (stop.signal.aborted) return { kind: "skipped", reason: "stopped" };
          return timedOut(options);
        }
      },
    },
  });
}
