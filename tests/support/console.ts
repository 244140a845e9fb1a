/**
 * The staff console in end-to-end tests (docs/decisions/133): its origin, staff and
 * sessions written straight into the e2e server's database (so a test can be a viewer or
 * a manager without a ceremony, or age a session), the real `npm run staff` CLI, and a
 * CDP virtual authenticator for the passkey ceremonies.
 */
import { spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

import { type BrowserContext, type Page, expect } from "@playwright/test";

import type { StaffRole } from "../../contract/console.ts";
import { consoleURL } from "../../playwright.config.ts";
import { sessionCookie } from "../../server/console/session.ts";

export { consoleURL };

const root = path.resolve(import.meta.dirname, "..", "..");
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

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export type SeededStaff = { id: string; email: string; role: StaffRole; token: string };

/** A staff member with a live session, as if they had just signed in. */
export function seedStaff(role: StaffRole, label: string = role, dir?: string): SeededStaff {
  const id = randomUUID();
  const email = `${label}-${id.slice(0, 8)}@clinic.example`;
  const token = randomBytes(32).toString("base64url");
  const now = new Date().toISOString();
  withDatabase((db) => {
    db.prepare(
      "INSERT INTO staff (id, email, role, created_at, removed_at) VALUES (?, ?, ?, ?, NULL)",
    ).run(id, email, role, now);
    db.prepare(
      "INSERT INTO staff_sessions (token_hash, staff_id, created_at, last_seen_at) VALUES (?, ?, ?, ?)",
    ).run(sha256(token), id, now, now);
  }, dir);
  return { id, email, role, token };
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
 * What a manager's approval in the console leaves, for the delivery tests that submit with
 * `registrations -- announce` and run it again to queue (decision 136); the approval
 * itself is tested through the console in console-announce.spec.ts. Takes the first run's
 * output, which names the draft.
 */
export function approveSubmitted(cliOutput: string, dir: string): void {
  const id = /\/console\/announcements\/draft\?id=([\w-]+)/.exec(cliOutput)?.[1];
  if (!id) throw new Error(`announce did not submit a draft:\n${cliOutput}`);
  const now = new Date().toISOString();
  withDatabase(
    (db) =>
      db
        .prepare(
          "UPDATE announcement_drafts SET state = 'approved', approved_at = ? WHERE id = ? AND state = 'submitted'",
        )
        .run(now, id),
    dir,
  );
}

/** An announcement in the given state, as if a manager had written it (decision 136). */
export function seedAnnouncement(
  author: { id: string },
  options: { state?: string; subject?: string; body?: string } = {},
): string {
  const id = randomUUID();
  const now = new Date().toISOString();
  withDatabase((db) =>
    db
      .prepare(
        `INSERT INTO announcement_drafts (id, subject, body, audience, state, announcement_id,
           author_id, created_at, updated_at) VALUES (?, ?, ?, 'all', ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        options.subject ?? `Seeded ${id.slice(0, 8)}`,
        options.body ?? "We open on 3 March.",
        options.state ?? "draft",
        sha256(id).slice(0, 32),
        author.id,
        now,
        now,
      ),
  );
  return id;
}

/** Sets a session's times (an idle or a 12-hour-old session). */
export function ageSession(token: string, times: { createdAt: Date; lastSeenAt: Date }) {
  withDatabase((db) =>
    db
      .prepare("UPDATE staff_sessions SET created_at = ?, last_seen_at = ? WHERE token_hash = ?")
      .run(times.createdAt.toISOString(), times.lastSeenAt.toISOString(), sha256(token)),
  );
}

export function sessionExists(token: string): boolean {
  return withDatabase(
    (db) =>
      db.prepare("SELECT 1 FROM staff_sessions WHERE token_hash = ?").get(sha256(token)) !==
      undefined,
  );
}

/** An invite written straight into the database; `expiresAt` in the past for an expired one. */
export function seedInvite(role: StaffRole, options: { expiresAt?: Date; used?: boolean } = {}) {
  const token = randomBytes(32).toString("base64url");
  const email = `invited-${token.slice(0, 8).toLowerCase()}@clinic.example`;
  const now = new Date();
  withDatabase((db) =>
    db
      .prepare(
        "INSERT INTO staff_invites (token_hash, email, role, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(
        sha256(token),
        email,
        role,
        now.toISOString(),
        (options.expiresAt ?? new Date(now.getTime() + 86_400_000)).toISOString(),
        options.used ? now.toISOString() : null,
      ),
  );
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

/** Runs the real `npm run staff -- ...` against the e2e server's database. */
export function staffCli(...args: string[]): { status: number | null; stdout: string } {
  const result = spawnSync("npm", ["run", "--silent", "staff", "--", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, DATA_DIR: dataDir(), CONSOLE_URL: consoleURL, LOG_LEVEL: "warn" },
  });
  return { status: result.status, stdout: result.stdout };
}

/** `staff -- invite`; returns the enrolment link, the last line it printed. */
export function inviteFromCli(email: string, role: StaffRole): string {
  const { status, stdout } = staffCli("invite", "--email", email, "--role", role);
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
