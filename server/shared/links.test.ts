import { describe, expect, it } from "vitest";

import { confirmToken, linkUrl, unsubscribeToken, verifyToken } from "./links.ts";

const key = "k".repeat(64);
const id = "0b6f2a4e-9d1c-4c1e-8f7a-2b3c4d5e6f70";
const issued = new Date("2026-11-23T10:00:00Z");
const later = (days: number) => new Date(issued.getTime() + days * 24 * 60 * 60 * 1000);

describe("confirm tokens", () => {
  it("verify for 7 days, then expire", () => {
    const token = confirmToken(key, id, issued);
    expect(verifyToken(key, token, "confirm", later(6.99))).toEqual({
      ok: true,
      registrationId: id,
    });
    expect(verifyToken(key, token, "confirm", later(7))).toEqual({
      ok: false,
      reason: "expired",
      registrationId: id,
    });
  });

  it("refuse every single-character alteration, another key, and the other purpose", () => {
    const token = confirmToken(key, id, issued);
    for (let i = 0; i < token.length; i++) {
      const swapped = token[i] === "A" ? "B" : "A";
      const altered = token.slice(0, i) + swapped + token.slice(i + 1);
      expect(verifyToken(key, altered, "confirm", issued).ok, altered).toBe(false);
    }
    expect(verifyToken("x".repeat(64), token, "confirm", issued)).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(verifyToken(key, token, "unsubscribe", issued).ok).toBe(false);
  });

  it("refuse a later expiry written into the token", () => {
    const [p, rid, exp, sig] = confirmToken(key, id, issued).split(".");
    const stretched = [p, rid, String(Number(exp) + 1e6), sig].join(".");
    expect(verifyToken(key, stretched, "confirm", later(8))).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it("refuse garbage", () => {
    for (const junk of ["", ".", "c...", "c.x.1.", "u..", "a".repeat(500), "c.%00.1.zz"]) {
      expect(verifyToken(key, junk, "confirm", issued).ok).toBe(false);
      expect(verifyToken(key, junk, "unsubscribe", issued).ok).toBe(false);
    }
  });
});

describe("unsubscribe tokens", () => {
  it("never expire", () => {
    const token = unsubscribeToken(key, id);
    expect(verifyToken(key, token, "unsubscribe", later(3650))).toEqual({
      ok: true,
      registrationId: id,
    });
    expect(verifyToken(key, token, "confirm", issued).ok).toBe(false);
  });
});

describe("link URLs", () => {
  it("put the token in the query string of the path under SITE_URL", () => {
    const url = new URL(linkUrl("https://clinic.example/", "confirm", "c.a.1.b"));
    expect(url.origin).toBe("https://clinic.example");
    expect(url.pathname).toBe("/register-interest/confirm");
    expect(url.searchParams.get("token")).toBe("c.a.1.b");
  });
});
