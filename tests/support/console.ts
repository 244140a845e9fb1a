/**
 * The staff console in end-to-end tests (docs/decisions/133): its origin, staff and
 * sessions made in the e2e server's database by the console's own store (so a test can be
 * a viewer or a manager without a ceremony), sessions aged there, the `staff` CLI's own
 * code, and a CDP virtual authenticator for the passkey ceremonies.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  MessageChannel,
  type MessagePort,
  receiveMessageOnPort,
  Worker,
} from "node:worker_threads";

import { type BrowserContext, type Page, test as base, expect } from "@playwright/test";

import type { StaffMember, StaffRole } from "../../contract/console.ts";
import { consoleURL } from "../../playwright.config.ts";
import { operatorCli } from "../../scripts/lib/registrations.ts";
import { hashToken, INVITE_MS, sessionCookie } from "../../server/console/session.ts";
import type { StaffStore } from "../../server/console/store.ts";

export { consoleURL };

/** The e2e console's session cookie: on http://localhost, `console-session` and not Secure. */
export const consoleCookie = sessionCookie(consoleURL);

function dataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set: run the specs through playwright");
  return dir;
}

/**
 * The e2e server's database (or the one in `dir`, for a server a spec started itself),
 * writable: the server keeps it in WAL, so both can write.
 */
export function withDatabase<T>(run: (db: DatabaseSync) => T, dir: string = dataDir()): T {
  const db = new DatabaseSync(path.join(dir, "registrations.sqlite"));
  db.exec("PRAGMA busy_timeout = 5000");
  try {
    return run(db);
  } finally {
    db.close();
  }
}

let thread: MessagePort | undefined;

/**
 * Calls the console's staff store on the e2e server's database (or the one in `dir`), with
 * its clock at `at`, and waits for the answer (tests/support/staff-store-thread.ts).
 */
function staffStore<T>(
  method: keyof StaffStore,
  args: unknown[],
  options: { dir?: string; at?: Date } = {},
): T {
  if (!thread) {
    const worker = new Worker(new URL("./staff-store-thread.ts", import.meta.url));
    worker.unref();
    const { port1, port2 } = new MessageChannel();
    worker.postMessage(port2, [port2]);
    port1.unref();
    thread = port1;
  }
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const dir = options.dir ?? dataDir();
  thread.postMessage({ signal, dir, at: options.at?.toISOString(), method, args });
  if (Atomics.wait(signal, 0, 0, 30_000) === "timed-out")
    throw new Error(`the staff store did not answer ${method}`);
  const reply = receiveMessageOnPort(thread)?.message as { value?: T; error?: string } | undefined;
  if (!reply || reply.error !== undefined)
    throw new Error(`the staff store's ${method} failed: ${reply?.error ?? "no answer"}`);
  return reply.value as T;
}

/** A passkey no authenticator holds (a lost phone's): its key is not a real one. */
const lostPasskey = (transports: string[] = ["usb"]) => ({
  id: randomBytes(16).toString("base64url"),
  publicKey: new Uint8Array([1, 2, 3]),
  counter: 0,
  transports,
});

export type SeededStaff = { id: string; email: string; role: StaffRole; token: string };

/** Staff seeded in the e2e server's database by the test now running. */
const seededByThisTest: string[] = [];

/**
 * Playwright's `test`, removing the staff a test seeded once it ends: every test shares
 * the e2e database, and a staff page listing hundreds of leftovers took axe past a minute.
 */
export const test = base.extend<{ seededStaffRemoved: void }>({
  seededStaffRemoved: [
    // Playwright reads a fixture's dependencies from this pattern: none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      seededByThisTest.length = 0;
      await use();
      const ids = seededByThisTest.splice(0);
      if (ids.length === 0) return;
      withDatabase((db) =>
        db
          .prepare(
            `UPDATE staff SET removed_at = ? WHERE removed_at IS NULL
               AND id IN (${ids.map(() => "?").join(", ")})`,
          )
          .run(new Date().toISOString(), ...ids),
      );
    },
    { auto: true },
  ],
});

/** A staff member with a live session and no passkey, as if they had just signed in. */
export function seedStaff(role: StaffRole, label: string = role, dir?: string): SeededStaff {
  const email = `${label}-${randomUUID().slice(0, 8)}@clinic.example`;
  const invite = staffStore<{ token: string }>("createInvite", [email, role], { dir });
  const passkey = lostPasskey();
  const member = staffStore<StaffMember>("enrol", [invite.token, passkey], { dir });
  // Only enrolment makes a staff member; it leaves a used invite and a passkey, which a
  // seeded person has not (a spec counts both).
  staffStore("withdrawInvite", [invite.token], { dir });
  staffStore("removePasskey", [member.id, passkey.id, true], { dir });
  const token = staffStore<string>("createSession", [member.id], { dir });
  if (!dir) seededByThisTest.push(member.id);
  return { id: member.id, email, role, token };
}

/**
 * A confirmed registration who asked for news, written straight into the database with no
 * email queued; returns its id.
 */
export function seedRegistration(email: string): string {
  const id = randomUUID();
  const now = new Date().toISOString();
  withDatabase((db) =>
    db
      .prepare(
        `INSERT INTO registrations (id, name, email, phone, message, received_at, idempotency_key,
          consent_version, consent_at, wants_updates, confirmed_at)
        VALUES (?, 'Sam Target', ?, '07700 900123', 'When do you open?', ?, ?, '2026-11-23', ?, 1, ?)`,
      )
      .run(id, email, now, randomUUID(), now, now),
  );
  return id;
}

/**
 * An announcement in the given state, as if a manager had written it (decision 136);
 * `approvedAlone`: approved by its author, as a lone manager may (decision 176).
 */
export function seedAnnouncement(
  author: { id: string },
  options: { state?: string; subject?: string; body?: string; approvedAlone?: boolean } = {},
): string {
  const id = randomUUID();
  const now = new Date().toISOString();
  withDatabase((db) =>
    db
      .prepare(
        `INSERT INTO announcement_drafts (id, subject, body, audience, state, announcement_id,
           author_id, created_at, updated_at, approved_by, approved_at)
           VALUES (?, ?, ?, 'all', ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        options.subject ?? `Seeded ${id.slice(0, 8)}`,
        options.body ?? "We open on 3 March.",
        options.state ?? "draft",
        createHash("sha256").update(id).digest("hex").slice(0, 32),
        author.id,
        now,
        now,
        options.approvedAlone ? author.id : null,
        options.approvedAlone ? now : null,
      ),
  );
  return id;
}

/** Sets a session's times (an idle or a 12-hour-old session). */
export function ageSession(token: string, times: { createdAt: Date; lastSeenAt: Date }) {
  withDatabase((db) =>
    db
      .prepare("UPDATE staff_sessions SET created_at = ?, last_seen_at = ? WHERE token_hash = ?")
      .run(times.createdAt.toISOString(), times.lastSeenAt.toISOString(), hashToken(token)),
  );
}

/** Another live session of a staff member, as if they had signed in on another device. */
export function seedSession(staffId: string): string {
  return staffStore<string>("createSession", [staffId]);
}

/** A passkey row that no authenticator holds, for listing and removing; it signs no one in. */
export function seedPasskey(staffId: string): string {
  const passkey = lostPasskey();
  staffStore("addPasskey", [staffId, passkey]);
  return passkey.id;
}

/**
 * Sets when a session (by its token, or every session of `{ staffId }`) last confirmed its
 * person with a passkey (docs/decisions/178).
 */
export function setConfirmedAt(session: string | { staffId: string }, at: Date) {
  if (typeof session === "string") {
    staffStore("confirmSession", [session], { at });
    return;
  }
  withDatabase((db) =>
    db
      .prepare("UPDATE staff_sessions SET verified_at = ? WHERE staff_id = ?")
      .run(at.toISOString(), session.staffId),
  );
}

export function staffIdOf(email: string): string {
  const row = withDatabase(
    (db) =>
      db.prepare("SELECT id FROM staff WHERE email = ?").get(email) as { id: string } | undefined,
  );
  if (!row) throw new Error(`no staff member ${email}`);
  return row.id;
}

/** The audit trail's entries by a staff member, oldest first, with their detail. */
export function auditEntriesOf(staffId: string): { action: string; detail: unknown }[] {
  return withDatabase((db) =>
    (
      db
        .prepare("SELECT action, detail FROM audit_trail WHERE staff_id = ? ORDER BY id")
        .all(staffId) as { action: string; detail: string }[]
    ).map((r) => ({ action: r.action, detail: JSON.parse(r.detail) as unknown })),
  );
}

export function sessionExists(token: string): boolean {
  return withDatabase(
    (db) =>
      db.prepare("SELECT 1 FROM staff_sessions WHERE token_hash = ?").get(hashToken(token)) !==
      undefined,
  );
}

/** An invite; `expiresAt` in the past for an expired one, `used` for one enrolled with. */
export function seedInvite(role: StaffRole, options: { expiresAt?: Date; used?: boolean } = {}) {
  const email = `invited-${randomBytes(6).toString("hex")}@clinic.example`;
  const at = options.expiresAt && new Date(options.expiresAt.getTime() - INVITE_MS);
  const { token } = staffStore<{ token: string }>("createInvite", [email, role], { at });
  if (options.used) staffStore("enrol", [token, lostPasskey()]);
  return { token, email, link: `${consoleURL}/console/enrol?token=${token}` };
}

export function count(sql: string, ...params: string[]): number {
  return withDatabase(
    (db) => (db.prepare(sql).get(...params) as { n: number } | undefined)?.n ?? 0,
  );
}

export function auditActionsOf(email: string): string[] {
  return withDatabase((db) =>
    (
      db
        .prepare(
          "SELECT a.action FROM audit_trail a JOIN staff s ON s.id = a.staff_id WHERE s.email = ? ORDER BY a.id",
        )
        .all(email) as { action: string }[]
    ).map((r) => r.action),
  );
}

/** The details of a staff member's audit lines of one action, oldest first. */
export function auditDetailsOf(staffId: string, action: string): Record<string, unknown>[] {
  return withDatabase((db) =>
    (
      db
        .prepare("SELECT detail FROM audit_trail WHERE staff_id = ? AND action = ? ORDER BY id")
        .all(staffId, action) as { detail: string }[]
    ).map((r) => JSON.parse(r.detail) as Record<string, unknown>),
  );
}

/**
 * A page on another origin of the console's site (another port of localhost), as a
 * colleague's page on another host of the clinic's domain would be: SameSite cookies go
 * with its requests to the console, and the browser says `Sec-Fetch-Site: same-site`.
 */
export async function sameSitePage(html: string) {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(html);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${new URL(consoleURL).hostname}:${String(port)}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** `npm run staff -- ...` against the e2e server's database. */
export const staffCli = (...args: string[]) =>
  operatorCli({ DATA_DIR: dataDir(), CONSOLE_URL: consoleURL }, ["staff", ...args]);

/** `staff -- invite`; returns the enrolment link, the last line it printed. */
export async function inviteFromCli(email: string, role: StaffRole): Promise<string> {
  const { status, stdout } = await staffCli("invite", "--email", email, "--role", role);
  expect(status, stdout).toBe(0);
  const link = stdout.trim().split("\n").at(-1) ?? "";
  expect(link).toMatch(new RegExp(`^${consoleURL}/console/enrol\\?token=[\\w-]{43}$`));
  return link;
}

/** The browser holds this session, as after a sign-in. */
export async function signInAs(context: BrowserContext, staff: { token: string }) {
  await context.addCookies([
    {
      name: consoleCookie.name,
      value: staff.token,
      domain: new URL(consoleURL).hostname,
      path: "/",
      secure: consoleCookie.secure,
      httpOnly: true,
      sameSite: "Strict",
    },
  ]);
}

/**
 * A request to the console as a script or a forger would send it: manual redirects, and
 * the Origin and cookie we choose.
 */
export function consoleFetch(
  pathname: string,
  options: {
    method?: string;
    token?: string;
    origin?: string | null;
    body?: string;
    json?: boolean;
  } = {},
) {
  const headers: Record<string, string> = {};
  if (options.token) headers.cookie = `${consoleCookie.name}=${options.token}`;
  const origin = options.origin === undefined ? consoleURL : options.origin;
  if (origin !== null && options.method && options.method !== "GET") headers.origin = origin;
  if (options.body !== undefined) {
    headers["content-type"] = options.json
      ? "application/json"
      : "application/x-www-form-urlencoded";
  }
  if (options.json) headers.accept = "application/json";
  return fetch(`${consoleURL}${pathname}`, {
    method: options.method ?? "GET",
    headers,
    body: options.body,
    redirect: "manual",
  });
}

/** A platform authenticator with user verification, as the issue asks (CDP WebAuthn). */
export async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    remove: () => cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId }),
    credentials: async () =>
      (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
  };
}
