import { mkdir, readdir, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

import nodemailer, { type SendMailOptions } from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool/index.js";

import { clinic } from "../../app/content/clinic.ts";
import { dkimPrivateKey, type Env } from "../env.ts";
import type { Logger } from "../logger.ts";

/** A message ready to go: nodemailer's options, plus the outbox row it comes from. */
export type OutgoingMail = SendMailOptions & { outboxId: string };

export type Mailer = {
  /** "smtp" sends; "file" writes each message under DATA_DIR/mail/ (SMTP_URL unset). */
  mode: "smtp" | "file";
  from: string;
  /**
   * Resolves once the SMTP server accepted the message, or the file is on disk. Its
   * `signal` aborts the send: the message leaves nodemailer's queue, or the connection
   * carrying it is closed before the server's answer.
   */
  send(message: OutgoingMail): Promise<void>;
  close(): void;
};

/** SMTP connections kept open, and so sends under way at once (server/outbox/worker.ts). */
export const MAIL_CONNECTIONS = 3;

/**
 * The headers DKIM signs: those our messages carry. nodemailer's default list leaves out
 * List-Unsubscribe-Post, which RFC 8058 section 4 requires the signature to cover, so
 * that nobody on the way can turn a one-click unsubscribe into something else.
 */
const DKIM_SIGNED_HEADERS = [
  "From",
  "Sender",
  "Reply-To",
  "To",
  "Cc",
  "Subject",
  "Date",
  "Message-ID",
  "MIME-Version",
  "Content-Type",
  "Content-Transfer-Encoding",
  "List-Unsubscribe",
  "List-Unsubscribe-Post",
].join(":");

/** The From when SMTP_URL is unset (the messages are files nobody receives). */
export const LOCAL_MAIL_FROM = `${clinic.name} <no-reply@localhost>`;

export function mailDirectory(dataDir: string): string {
  return path.join(dataDir, "mail");
}

/** `<UTC time>-<outbox id>.eml`: sorts by time, and erasure finds a message by its id. */
function fileNameFor(outboxId: string, at: Date): string {
  return `${at.toISOString().replace(/[:.]/g, "-")}-${outboxId}.eml`;
}

/**
 * Deletes the files written for these outbox rows (erasure): the local stand-in for
 * sent mail holds the address and the name too. Returns how many went.
 */
export async function deleteMailFiles(dataDir: string, outboxIds: readonly string[]) {
  if (outboxIds.length === 0) return 0;
  const wanted = new Set(outboxIds.map((id) => `-${id}.eml`));
  const files = await readdir(mailDirectory(dataDir)).catch(() => [] as string[]);
  let deleted = 0;
  for (const file of files) {
    if (![...wanted].some((suffix) => file.endsWith(suffix))) continue;
    await unlink(path.join(mailDirectory(dataDir), file));
    deleted += 1;
  }
  return deleted;
}

/** The outbox ids of the .eml files under DATA_DIR/mail (`<time>-<outbox id>.eml`). */
export async function mailFileIds(dataDir: string): Promise<string[]> {
  const files = await readdir(mailDirectory(dataDir)).catch(() => [] as string[]);
  return files.flatMap(
    (file) =>
      /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.eml$/.exec(file)?.[1] ?? [],
  );
}

/**
 * The mail transport (docs/decisions/088). With SMTP_URL, nodemailer's SMTP transport
 * (STARTTLS on 587, TLS with smtps://); without it, nodemailer builds the same message
 * and it is written to DATA_DIR/mail/ as an .eml file, so `npm start` works on a
 * fresh machine and a person can open what would have been sent.
 */
export function createMailer(
  env: Pick<
    Env,
    | "SMTP_URL"
    | "MAIL_FROM"
    | "DATA_DIR"
    | "DKIM_DOMAIN"
    | "DKIM_SELECTOR"
    | "DKIM_PRIVATE_KEY"
    | "DKIM_PRIVATE_KEY_FILE"
  >,
  logger: Logger,
  now: () => Date = () => new Date(),
): Mailer {
  const privateKey = dkimPrivateKey(env);
  // Signed when DKIM_* are set (docs/deployment.md): the .eml files too, so they show it.
  const dkim =
    env.DKIM_DOMAIN && env.DKIM_SELECTOR && privateKey
      ? {
          domainName: env.DKIM_DOMAIN,
          keySelector: env.DKIM_SELECTOR,
          privateKey,
          headerFieldNames: DKIM_SIGNED_HEADERS,
        }
      : undefined;
  if (env.SMTP_URL) {
    if (!dkim) {
      logger.warn(
        "DKIM is not configured (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY): emails, the launch email too, go out unsigned unless the mail provider signs them (docs/deployment.md, Email)",
      );
    }
    // A few pooled connections, reused: a batch of emails does not open one connection
    // each. The mail worker sends as many at once as there are connections
    // (DEFAULT_MAIL_OPTIONS.concurrency), so no message waits in the pool's queue.
    const options: SMTPPool.Options = {
      pool: true,
      maxConnections: MAIL_CONNECTIONS,
      dkim,
      url: env.SMTP_URL,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    };
    const transport = nodemailer.createTransport(options);
    const from = env.MAIL_FROM ?? LOCAL_MAIL_FROM;
    return {
      mode: "smtp",
      from,
      async send({ outboxId: _outboxId, ...message }) {
        await transport.sendMail({ from, ...message });
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, dkim });
  const directory = mailDirectory(env.DATA_DIR);
  const from = env.MAIL_FROM ?? LOCAL_MAIL_FROM;
  return {
    mode: "file",
    from,
    async send({ outboxId, ...message }) {
      const info = await transport.sendMail({ from, ...message });
      await mkdir(directory, { recursive: true, mode: 0o700 });
      const file = path.join(directory, fileNameFor(outboxId, now()));
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      logger.info({ outboxId, file }, "email written to a file (SMTP_URL is not set)");
    },
    close: () => transport.close(),
  };
}
