import { describe, expect, it, vi } from "vitest";

import {
  checkConfirmLink,
  checkUnsubscribeLink,
  confirmLink,
  linkToken,
  rejoinLink,
  unsubscribeLink,
} from "./email-links.server.ts";
import type { RegistrationService } from "../../../contract/registrations.ts";

/** Built here, not imported: the loader must recognise the error by name across bundles. */
class StorageUnavailableError extends Error {
  override name = "StorageUnavailableError";
}

const links = { confirmLink, checkConfirmLink, rejoinLink, checkUnsubscribeLink, unsubscribeLink };
type Link = keyof typeof links;
/** A confirm link's token, or an unsubscribe link's (which rejoining uses too). */
const tokenFor = (link: Link) =>
  link.toLowerCase().includes("confirm") ? "c.id.1.sig" : "u.id.sig";

/** Storage whose every link call answers with `answer()`, and the spy behind it. */
function storage(answer: () => Promise<unknown>) {
  const call = vi.fn((_token: string) => answer());
  const service = {
    confirm: call,
    checkConfirm: call,
    checkUnsubscribe: call,
    unsubscribe: call,
    rejoin: call,
  } as unknown as RegistrationService;
  return { call, service };
}
const answering = (result: object) => storage(() => Promise.resolve(result));
const down = () => storage(() => Promise.reject(new StorageUnavailableError("down"))).service;

describe("linkToken", () => {
  it("reads the token from the query string first, then from a posted form", () => {
    const form = new FormData();
    form.set("token", "from-form");
    expect(linkToken("https://x.example/unsubscribe?token=from-query", form)).toBe("from-query");
    expect(linkToken("https://x.example/unsubscribe", form)).toBe("from-form");
    expect(linkToken("https://x.example/unsubscribe?token=%20a.b%20")).toBe("a.b");
  });

  it("is null when neither carries one", () => {
    const form = new FormData();
    form.set("List-Unsubscribe", "One-Click");
    expect(linkToken("https://x.example/unsubscribe?token=", form)).toBeNull();
    expect(linkToken("https://x.example/register-interest/confirm")).toBeNull();
  });
});

describe("the email links' answers", () => {
  it.each<[Link, object, string, number]>([
    ["confirmLink", { kind: "confirmed", firstTime: true }, "confirmed", 200],
    ["confirmLink", { kind: "confirmed", firstTime: false }, "alreadyConfirmed", 200],
    ["confirmLink", { kind: "expired" }, "expired", 410],
    ["confirmLink", { kind: "invalid" }, "invalid", 400],
    ["confirmLink", { kind: "gone" }, "gone", 410],
    // A look (GET, HEAD, .data) at a confirm link.
    ["checkConfirmLink", { kind: "valid", alreadyConfirmed: false }, "ask", 200],
    ["checkConfirmLink", { kind: "valid", alreadyConfirmed: true }, "alreadyConfirmed", 200],
    ["checkConfirmLink", { kind: "expired" }, "expired", 410],
    ["checkConfirmLink", { kind: "invalid" }, "invalid", 400],
    ["checkConfirmLink", { kind: "gone" }, "gone", 410],
    ["rejoinLink", { kind: "rejoined" }, "rejoined", 200],
    ["rejoinLink", { kind: "invalid" }, "invalid", 400],
    ["rejoinLink", { kind: "gone" }, "gone", 410],
    // A look (GET) at an unsubscribe link: they never expire, so "expired" is not ours.
    ["checkUnsubscribeLink", { kind: "valid", alreadyUnsubscribed: false }, "ask", 200],
    [
      "checkUnsubscribeLink",
      { kind: "valid", alreadyUnsubscribed: true },
      "alreadyUnsubscribed",
      200,
    ],
    ["checkUnsubscribeLink", { kind: "invalid" }, "invalid", 400],
    ["checkUnsubscribeLink", { kind: "expired" }, "invalid", 400],
    ["checkUnsubscribeLink", { kind: "gone" }, "gone", 410],
    // The unsubscribe button's or a mail provider's one-click POST.
    ["unsubscribeLink", { kind: "unsubscribed", firstTime: true }, "done", 200],
    ["unsubscribeLink", { kind: "unsubscribed", firstTime: false }, "done", 200],
    ["unsubscribeLink", { kind: "invalid" }, "invalid", 400],
    ["unsubscribeLink", { kind: "gone" }, "gone", 410],
  ])("%s answered %j shows %s with %i", async (link, result, view, status) => {
    const { call, service } = answering(result);
    expect(await links[link](service, tokenFor(link))).toEqual({ view, status });
    expect(call).toHaveBeenCalledWith(tokenFor(link));
  });

  it.each<[Link, object]>([
    ["confirmLink", { kind: "confirmed", firstTime: true }],
    ["checkConfirmLink", { kind: "valid", alreadyConfirmed: false }],
    ["rejoinLink", { kind: "rejoined" }],
    ["unsubscribeLink", { kind: "unsubscribed", firstTime: true }],
  ])("%s answers a missing token with 400 without asking storage", async (link, result) => {
    const { call, service } = answering(result);
    expect(await links[link](service, null)).toEqual({ view: "invalid", status: 400 });
    expect(call).not.toHaveBeenCalled();
  });

  it.each<Link>(["checkConfirmLink", "checkUnsubscribeLink", "unsubscribeLink"])(
    "%s answers 503 while storage is unavailable",
    async (link) => {
      expect((await links[link](down(), "t")).status).toBe(503);
    },
  );

  it("answers 503 with Retry-After while storage is unavailable, and lets other faults through", async () => {
    expect(await confirmLink(down(), "t")).toEqual({
      view: "unavailable",
      status: 503,
      headers: { "Retry-After": expect.stringMatching(/^\d+$/) as unknown },
    });
    const bug = vi.fn(() => Promise.reject(new TypeError("a bug")));
    await expect(confirmLink({ confirm: bug }, "t")).rejects.toThrow("a bug");
  });
});
