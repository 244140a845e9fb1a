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
  it("holds while requests keep coming, up to 12 hours", () => {
    const lastSeenAt = at(ABSOLUTE_MS - 60_000).toISOString();
    expect(sessionExpiry({ createdAt: signedIn, lastSeenAt }, at(ABSOLUTE_MS - 1))).toBeNull();
    expect(sessionExpiry({ createdAt: signedIn, lastSeenAt }, at(ABSOLUTE_MS))).toBe("absolute");
  });

  it("ends after 30 minutes idle", () => {
    const session = { createdAt: signedIn, lastSeenAt: signedIn };
    expect(sessionExpiry(session, at(IDLE_MS - 1))).toBeNull();
    expect(sessionExpiry(session, at(IDLE_MS))).toBe("idle");
  });

  it("writes last-seen at most once a minute", () => {
    const session = { createdAt: signedIn, lastSeenAt: signedIn };
    expect(needsTouch(session, at(59_999))).toBe(false);
    expect(needsTouch(session, at(60_000))).toBe(true);
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
  it("is __Host-, Secure, HttpOnly and SameSite=Strict for an https console", () => {
    const cookie = sessionCookie("https://console.clinic.example");
    expect(cookie.name).toBe("__Host-console-session");
    expect(cookie.set("t")).toBe(
      "__Host-console-session=t; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=43200",
    );
    expect(cookie.clear()).toBe(
      "__Host-console-session=; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=0",
    );
  });

  it("drops __Host- and Secure on http://localhost, where WebKit keeps no Secure cookie", () => {
    const cookie = sessionCookie("http://localhost:3001");
    expect(cookie.name).toBe("console-session");
    expect(cookie.set("t")).toBe(
      "console-session=t; Path=/; HttpOnly; SameSite=Strict; Max-Age=43200",
    );
    expect(cookie.clear()).toBe("console-session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
  });

  it("is read back from a Cookie header among others, by its origin's name only", () => {
    const https = sessionCookie("https://console.clinic.example");
    expect(https.read("a=1; __Host-console-session=abc; b=2")).toBe("abc");
    expect(https.read("console-session=abc")).toBeUndefined();
    expect(https.read(undefined)).toBeUndefined();
    const http = sessionCookie("http://localhost:3001");
    expect(http.read("a=1; console-session=abc")).toBe("abc");
    expect(http.read("__Host-console-session=abc")).toBeUndefined();
  });
});
