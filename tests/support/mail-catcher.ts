import type { AddressInfo } from "node:net";

import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A header as it was sent (unfolded). mailparser turns some headers into objects
 * (List-* becomes `list`), so the raw lines are the faithful source.
 */
export function rawHeader(parsed: ParsedMail, name: string): string | undefined {
  const line = parsed.headerLines.find((h) => h.key === name.toLowerCase())?.line;
  return line
    ?.slice(line.indexOf(":") + 1)
    .replace(/\r?\n[ \t]+/g, " ")
    .trim();
}

/** One message as a mail provider would receive it, parsed by mailparser. */
export type CaughtMail = {
  /** The envelope recipient (RCPT TO), lower-cased. */
  to: string;
  parsed: ParsedMail;
  /** A header by its lower-case name, as text. */
  header(name: string): string | undefined;
};

export type MailCatcher = {
  url: string;
  /**
   * While set, messages are answered with this SMTP code (451: try again later; 550:
   * mailbox unavailable) and not kept: the next `refuseTimes` of them (every one while
   * it is Infinity). `refused` counts them.
   */
  refuseWith: number | null;
  refuseTimes: number;
  refused: number;
  messages: CaughtMail[];
  /** Messages to one address. */
  to(address: string): CaughtMail[];
  /** Waits until `count` messages have arrived for the address, or fails after `timeoutMs`. */
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<CaughtMail[]>;
  close(): Promise<void>;
};

/**
 * A real SMTP server (smtp-server) on a free port of this machine, for tests: no TLS
 * and no authentication, every message accepted and parsed (mailparser).
 */
export async function startMailCatcher(): Promise<MailCatcher> {
  const messages: CaughtMail[] = [];
  const catcher = {
    refuseWith: null,
    refuseTimes: Infinity,
    refused: 0,
  } as unknown as MailCatcher;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      if (catcher.refuseWith !== null && catcher.refuseTimes > 0) {
        catcher.refused += 1;
        catcher.refuseTimes -= 1;
        stream.resume();
        stream.on("end", () =>
          callback(
            Object.assign(new Error("refused by the test"), { responseCode: catcher.refuseWith }),
          ),
        );
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          for (const recipient of session.envelope.rcptTo) {
            const to = recipient.address.toLowerCase();
            messages.push({
              to,
              parsed,
              header: (name) => rawHeader(parsed, name),
            });
          }
          callback();
        })
        .catch((error: unknown) => callback(error as Error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  const to = (address: string) => messages.filter((m) => m.to === address.toLowerCase());
  Object.assign(catcher, {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to,
    async waitFor(address: string, count = 1, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (to(address).length < count) {
        if (Date.now() > deadline) {
          throw new Error(
            `${to(address).length} of ${count} messages to ${address} after ${timeoutMs} ms`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return to(address);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
  return catcher;
}
