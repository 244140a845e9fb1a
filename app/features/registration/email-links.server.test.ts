import { describe, expect, it, vi } from "vitest";

import {
  checkConfirmLink,
  checkUnsubscribeLink,
  confirmLink,
  linkToken,
  rejoinLink,
  unsubscribeLink,
} from "./email-links.server.ts";
import type {
  ConfirmCheck,
  ConfirmResult,
  RejoinResult,
  UnsubscribeCheck,
  UnsubscribeResult,
} from "../../../contract/registrations.ts";

/** Built here, not imported: the loader must recognise the error by name across bundles. */
class StorageUnavailableError extends Error {
  override name = "StorageUnavailableError";
}

const answers = <T>(result: T) => vi.fn((_token: string) => Promise.resolve(result));

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

describe("confirmLink", () => {
  it.each<[ConfirmResult, string, number]>([
    [{ kind: "confirmed", firstTime: true }, "confirmed", 200],
    [{ kind: "confirmed", firstTime: false }, "alreadyConfirmed", 200],
    [{ kind: "expired" }, "expired", 410],
    [{ kind: "invalid" }, "invalid", 400],
    [{ kind: "gone" }, "gone", 410],
  ])("answers %j with %s and %i", async (result, view, status) => {
    const confirm = answers(result);
    expect(await confirmLink({ confirm }, "c.id.1.sig")).toEqual({ view, status });
    expect(confirm).toHaveBeenCalledWith("c.id.1.sig");
  });

  it("answers a missing token with 400 without asking storage", async () => {
    const confirm = answers<ConfirmResult>({ kind: "confirmed", firstTime: true });
    expect(await confirmLink({ confirm }, null)).toEqual({ view: "invalid", status: 400 });
    expect(confirm).not.toHaveBeenCalled();
  });

  it("answers 503 with Retry-After while storage is unavailable, and lets other faults through", async () => {
    const down = vi.fn(() => Promise.reject(new StorageUnavailableError("down")));
    expect(await confirmLink({ confirm: down }, "t")).toEqual({
      view: "unavailable",
      status: 503,
      headers: { "Retry-After": expect.stringMatching(/^\d+$/) as unknown },
    });
    const bug = vi.fn(() => Promise.reject(new TypeError("a bug")));
    await expect(confirmLink({ confirm: bug }, "t")).rejects.toThrow("a bug");
  });
});

describe("checkConfirmLink", () => {
  it.each<[ConfirmCheck, string, number]>([
    [{ kind: "valid", alreadyConfirmed: false }, "ask", 200],
    [{ kind: "valid", alreadyConfirmed: true }, "alreadyConfirmed", 200],
    [{ kind: "expired" }, "expired", 410],
    [{ kind: "invalid" }, "invalid", 400],
    [{ kind: "gone" }, "gone", 410],
  ])("a look (GET, HEAD, .data) at %j shows %s with %i", async (result, view, status) => {
    const checkConfirm = answers(result);
    expect(await checkConfirmLink({ checkConfirm }, "c.id.1.sig")).toEqual({ view, status });
  });

  it("never asks storage about a missing token, and answers 503 while it is down", async () => {
    const checkConfirm = answers<ConfirmCheck>({ kind: "valid", alreadyConfirmed: false });
    expect(await checkConfirmLink({ checkConfirm }, null)).toEqual({
      view: "invalid",
      status: 400,
    });
    expect(checkConfirm).not.toHaveBeenCalled();
    const down = vi.fn(() => Promise.reject(new StorageUnavailableError("down")));
    expect((await checkConfirmLink({ checkConfirm: down }, "t")).status).toBe(503);
  });
});

describe("rejoinLink", () => {
  it.each<[RejoinResult, string, number]>([
    [{ kind: "rejoined" }, "rejoined", 200],
    [{ kind: "invalid" }, "invalid", 400],
    [{ kind: "gone" }, "gone", 410],
  ])("a press answered %j shows %s with %i", async (result, view, status) => {
    const rejoin = answers(result);
    expect(await rejoinLink({ rejoin }, "u.id.sig")).toEqual({ view, status });
  });

  it("never asks storage about a missing token", async () => {
    const rejoin = answers<RejoinResult>({ kind: "rejoined" });
    expect(await rejoinLink({ rejoin }, null)).toEqual({ view: "invalid", status: 400 });
    expect(rejoin).not.toHaveBeenCalled();
  });
});

describe("unsubscribe links", () => {
  it.each<[UnsubscribeCheck, string, number]>([
    [{ kind: "valid", alreadyUnsubscribed: false }, "ask", 200],
    [{ kind: "valid", alreadyUnsubscribed: true }, "alreadyUnsubscribed", 200],
    [{ kind: "invalid" }, "invalid", 400],
    [{ kind: "expired" }, "invalid", 400],
    [{ kind: "gone" }, "gone", 410],
  ])("a look (GET) at %j shows %s with %i", async (result, view, status) => {
    const checkUnsubscribe = answers(result);
    expect(await checkUnsubscribeLink({ checkUnsubscribe }, "u.id.sig")).toEqual({
      view,
      status,
    });
  });

  it.each<[UnsubscribeResult, string, number]>([
    [{ kind: "unsubscribed", firstTime: true }, "done", 200],
    [{ kind: "unsubscribed", firstTime: false }, "done", 200],
    [{ kind: "invalid" }, "invalid", 400],
    [{ kind: "gone" }, "gone", 410],
  ])("a POST answered %j shows %s with %i", async (result, view, status) => {
    const unsubscribe = answers(result);
    expect(await unsubscribeLink({ unsubscribe }, "u.id.sig")).toEqual({ view, status });
  });

  it("never asks storage about a missing token, and answers 503 while it is down", async () => {
    const unsubscribe = answers<UnsubscribeResult>({ kind: "unsubscribed", firstTime: true });
    expect(await unsubscribeLink({ unsubscribe }, null)).toEqual({ view: "invalid", status: 400 });
    expect(unsubscribe).not.toHaveBeenCalled();
    const down = vi.fn(() => Promise.reject(new StorageUnavailableError("down")));
    expect((await checkUnsubscribeLink({ checkUnsubscribe: down }, "t")).status).toBe(503);
    expect((await unsubscribeLink({ unsubscribe: down }, "t")).status).toBe(503);
  });
});
