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

/** One message as a mail provider would receive it. */
export type ReceivedMail = {
  /** The envelope recipient (RCPT TO), lower-cased. */
  to: string;
  /** The message as it arrived (headers and body), e.g. to check its DKIM signature. */
  raw: Buffer;
  /** When it was accepted (Date.now(), just before the answer), e.g. to time a delivery. */
  receivedAt: number;
  /** A header by its lower-case name, as text (as sent: encoded words are not decoded unparsed). */
  header(name: string): string | undefined;
};

/** A message parsed by mailparser. */
export type CaughtMail = ReceivedMail & { parsed: ParsedMail };

/** A raw message's headers by lower-case name, unfolded (the first of each), without parsing the rest. */
function rawHeaders(raw: Buffer): Map<string, string> {
  const head = raw.toString("latin1", 0, Math.max(0, raw.indexOf("\r\n\r\n")));
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    if (colon > 0 && !headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return headers;
}

export type MailCatcher<M extends ReceivedMail = CaughtMail> = {
  url: string;
  /**
   * While set, messages are answered with this SMTP code (451: try again later; 550:
   * mailbox unavailable) and not kept: the next `refuseTimes` of them (every one while
   * it is Infinity). `refused` counts them.
   */
  refuseWith: number | null;
  refuseTimes: number;
  refused: number;
  /** Milliseconds each message waits before its answer (a slow server). */
  delayMs: number;
  /**
   * While set, a message's answer waits until `release()` (a hung server). A message whose
   * connection the sender closed before the answer is not kept, as a real server drops it.
   */
  hanging: boolean;
  release(): void;
  /** Answers RCPT TO for this address with the code, e.g. 451 or 550 (null: accept). */
  refuseAddress(address: string, code: number | null): void;
  /** Makes a message to this address wait this long for its answer (null: as the others). */
  slowAddress(address: string, delayMs: number | null): void;
  /** Every RCPT TO seen, lower-cased, accepted or not: how often each address was tried. */
  attempts: string[];
  messages: M[];
  /** Messages to one address. */
  to(address: string): M[];
  /** Waits until `count` messages have arrived for the address, or fails after `timeoutMs`. */
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<M[]>;
  close(): Promise<void>;
};

/**
 * A real SMTP server (smtp-server) on a free port of this machine, for tests: no TLS
 * and no authentication, every message accepted and parsed (mailparser), unless the test
 * makes it slow, hang, or refuse. The one fake of the mail provider. `parse: false` keeps
 * messages raw: a benchmark's mail server must not spend the CPU the site is measured on.
 */
export async function startMailCatcher(options?: {
  port?: number;
  parse?: true;
}): Promise<MailCatcher>;
export async function startMailCatcher(options: {
  port?: number;
  parse: false;
}): Promise<MailCatcher<ReceivedMail>>;
export async function startMailCatcher(
  options: { port?: number; parse?: boolean } = {},
): Promise<MailCatcher<ReceivedMail>> {
  const messages: Array<ReceivedMail | CaughtMail> = [];
  const refusedAddresses = new Map<string, number>();
  const slowAddresses = new Map<string, number>();
  const closedSessions = new Set<string>();
  let waiting: Array<() => void> = [];
  const catcher = {
    refuseWith: null,
    refuseTimes: Infinity,
    refused: 0,
    delayMs: 0,
    hanging: false,
    attempts: [],
    release() {
      catcher.hanging = false;
      const released = waiting;
      waiting = [];
      for (const go of released) go();
    },
    refuseAddress(address: string, code: number | null) {
      if (code === null) refusedAddresses.delete(address.toLowerCase());
      else refusedAddresses.set(address.toLowerCase(), code);
    },
    slowAddress(address: string, delayMs: number | null) {
      if (delayMs === null) slowAddresses.delete(address.toLowerCase());
      else slowAddresses.set(address.toLowerCase(), delayMs);
    },
  } as unknown as MailCatcher<ReceivedMail>;
  /** Waits out the delay and any hang; false when the sender hung up meanwhile. */
  async function answerLater(recipients: string[], closed: () => boolean): Promise<boolean> {
    const delayMs = Math.max(
      catcher.delayMs,
      ...recipients.map((to) => slowAddresses.get(to) ?? 0),
    );
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (catcher.hanging) await new Promise<void>((resolve) => waiting.push(resolve));
    return !closed();
  }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onClose(session) {
      closedSessions.add(session.id);
    },
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      catcher.attempts.push(to);
      const code = refusedAddresses.get(to);
      if (code === undefined) return callback();
      callback(Object.assign(new Error(`<${to}> refused by the test`), { responseCode: code }));
    },
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
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      new Promise<Buffer>((resolve, reject) => {
        stream.once("end", () => resolve(Buffer.concat(chunks)));
        stream.once("error", reject);
      })
        .then(async (raw) => ({
          raw,
          parsed: options.parse === false ? null : await simpleParser(raw),
        }))
        .then(async ({ raw, parsed }) => {
          const recipients = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          if (!(await answerLater(recipients, () => closedSessions.has(session.id)))) return;
          const receivedAt = Date.now();
          // Once per message: a benchmark looks at every message's subject many times a second.
          const headers = parsed ? null : rawHeaders(raw);
          for (const recipient of session.envelope.rcptTo) {
            const to = recipient.address.toLowerCase();
            messages.push(
              parsed
                ? { to, raw, parsed, receivedAt, header: (name) => rawHeader(parsed, name) }
                : { to, raw, receivedAt, header: (name) => headers?.get(name.toLowerCase()) },
            );
          }
          callback();
        })
        .catch((error: unknown) => callback(error as Error));
    },
  });
  // A sender killed in the middle of a message (the crash tests do it) resets its connection;
  // smtp-server reports that as a server error, which unhandled would fail the test itself.
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "ECONNRESET" && error.code !== "EPIPE") throw error;
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
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
    close: () => {
      catcher.release();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
  return catcher;
}
