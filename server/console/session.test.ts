import { describe, expect, it } from "vitest";

import {
  ABSOLUTE_MS,
  CONFIRM_MS,
  confirmedUntil,
  hashToken,
  IDLE_MS,
  needsTouch,
  newToken,
  sessionCookie,
  sessionExpiry,
  sessionId,
} from "./session.ts";

const at = (ms: number) => new Date(Date.parse("2026-11-26T09:00:00Z") + ms);
const signedIn = at(0).toISOString();

describe("session expiry", () => {
  const idle = { createdAt: signedIn, lastSeenAt: signedIn };
  const busy = { createdAt: signedIn, lastSeenAt: at(ABSOLUTE_MS - 60_000).toISOString() };
  it.each([
    ["holds while requests keep coming, up to 12 hours", busy, ABSOLUTE_MS, "absolute"],
    ["ends after 30 minutes idle", idle, IDLE_MS, "idle"],
  ] as const)("%s", (_name, session, end, reason) => {
    expect(sessionExpiry(session, at(end - 1))).toBeNull();
    expect(sessionExpiry(session, at(end))).toBe(reason);
  });

  it("writes last-seen at most once a minute", () => {
    expect(needsTouch(idle, at(59_999))).toBe(false);
    expect(needsTouch(idle, at(60_000))).toBe(true);
  });
});

describe("a confirmation with a passkey", () => {
  it("lets a session change passkeys and sessions for 5 minutes, then no more", () => {
    expect(CONFIRM_MS).toBe(5 * 60_000);
    expect(confirmedUntil(null, at(0)), "never confirmed").toBeNull();
    expect(confirmedUntil(signedIn, at(0))).toBe(at(CONFIRM_MS).toISOString());
    expect(confirmedUntil(signedIn, at(CONFIRM_MS - 1))).toBe(at(CONFIRM_MS).toISOString());
    expect(confirmedUntil(signedIn, at(CONFIRM_MS))).toBeNull();
  });
});

describe("tokens", () => {
  it("are 32 random bytes in base64url, stored as their SHA-256", () => {
    const token = newToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(newToken()).not.toBe(token);
    expect(hashToken("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("show a session by the start of its hash, never the token", () => {
    const token = newToken();
    const id = sessionId(hashToken(token));
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(hashToken(token).startsWith(id)).toBe(true);
    expect(token).not.toContain(id);
  });
});

describe("the session cookie", () => {
  // On http://localhost it drops __Host- and Secure: WebKit keeps no Secure cookie there.
  it.each([
    ["https://console.clinic.example", "__Host-console-session", " Secure;", "console-session"],
    ["http://localhost:3001", "console-session", "", "__Host-console-session"],
  ])("%s: %s, HttpOnly,%s SameSite=Strict, read by its name", (origin, name, secure, other) => {
    const cookie = sessionCookie(origin);
    const attributes = `Path=/; HttpOnly;${secure} SameSite=Strict`;
    expect(cookie.name).toBe(name);
    expect(cookie.set("t")).toBe(`${name}=t; ${attributes}; Max-Age=43200`);
    expect(cookie.clear()).toBe(`${name}=; ${attributes}; Max-Age=0`);
    expect(cookie.read(`a=1; ${name}=abc; b=2`)).toBe("abc");
    expect(cookie.read(`a=1; ${name}=abc`)).toBe("abc");
    expect(cookie.read(`${other}=abc`)).toBeUndefined();
    expect(cookie.read(undefined)).toBeUndefined();
  });
});
