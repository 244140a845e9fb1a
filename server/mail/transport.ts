import { mkdir, readdir, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

import nodemailer, { type SendMailOptions } from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool/index.js";

import { clinic } from "../../app/content/clinic.ts";
import { DEFAULT_MAIL_CONNECTIONS, dkimPrivateKey, type Env } from "../env.ts";
import type { Logger } from "../logger.ts";

export type OutgoingMail = SendMailOptions & { outboxId: string };

export type Mailer = {
  /** Resolves once the SMTP server accepted the message, or the file is on disk. */
  send(message: OutgoingMail): Promise<void>;
  close(): void;
};

/** SMTP connections kept open unless MAIL_CONNECTIONS says, and so the sends under way at once. */
export const MAIL_CONNECTIONS = DEFAULT_MAIL_CONNECTIONS;

/** Nodemailer's default leaves out List-Unsubscribe-Post, which RFC 8058 §4 requires signed. */
const DKIM_SIGNED_HEADERS =
  "From:Sender:Reply-To:To:Cc:Subject:Date:Message-ID:MIME-Version:Content-Type:" +
  "Content-Transfer-Encoding:List-Unsubscribe:List-Unsubscribe-Post";

export function mailDirectory(dataDir: string): string {
  return path.join(dataDir, "mail");
}

export async function mailFiles(dataDir: string): Promise<Array<{ file: string; id: string }>> {
  const files = await readdir(mailDirectory(dataDir)).catch(() => [] as string[]);
  return files.flatMap((file) => {
    const id = /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.eml$/.exec(
      file,
    )?.[1];
    return id ? [{ file, id }] : [];
  });
}

export async function deleteMailFiles(dataDir: string, outboxIds: readonly string[]) {
  const wanted = new Set(outboxIds);
  const doomed = (await mailFiles(dataDir)).filter((f) => wanted.has(f.id));
  for (const { file } of doomed) await unlink(path.join(mailDirectory(dataDir), file));
  return doomed.length;
}

/** Without SMTP_URL each message is written as DATA_DIR/mail/*.eml (decision 154). */
export function createMailer(
  env: Pick<Env, "SMTP_URL" | "MAIL_FROM" | "DATA_DIR" | Extract<keyof Env, `DKIM_${string}`>> &
    Partial<Pick<Env, "MAIL_CONNECTIONS">>,
  logger: Logger,
): Mailer {
  const privateKey = dkimPrivateKey(env);
  const from = env.MAIL_FROM ?? `${clinic.name} <no-reply@localhost>`;
  // The .eml files are signed too, so they show what would be sent.
  const dkim =
    env.DKIM_DOMAIN && env.DKIM_SELECTOR && privateKey
      ? {
          domainName: env.DKIM_DOMAIN,
          keySelector: env.DKIM_SELECTOR,
          privateKey,
          headerFieldNames: DKIM_SIGNED_HEADERS,
        }
      : undefined;
  if (env.SMTP_URL && !dkim) {
    logger.warn(
      "DKIM is not configured (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY): emails, the launch email too, go out unsigned unless the mail provider signs them (docs/deployment.md, Email)",
    );
  }
  const transport = env.SMTP_URL
    ? nodemailer.createTransport({
        pool: true,
        maxConnections: env.MAIL_CONNECTIONS ?? MAIL_CONNECTIONS,
        dkim,
        url: env.SMTP_URL,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      } satisfies SMTPPool.Options)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, dkim });
  const directory = mailDirectory(env.DATA_DIR);
  return {
    async send({ outboxId, ...message }) {
      const info = (await transport.sendMail({ from, ...message })) as { message?: Buffer };
      if (env.SMTP_URL) return;
      await mkdir(directory, { recursive: true, mode: 0o700 });
      // `<UTC time>-<outbox id>.eml`: sorts by time, and erasure finds a message by its id.
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const file = path.join(directory, `${stamp}-${outboxId}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      logger.info({ outboxId, file }, "email written to a file (SMTP_URL is not set)");
    },
    close: () => transport.close(),
  };
}
