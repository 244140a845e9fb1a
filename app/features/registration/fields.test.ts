import { describe, expect, it } from "vitest";

import { isMissingRequired, readSubmission } from "./fields.ts";

describe("isMissingRequired", () => {
  it("is true when the name or the email is blank", () => {
    expect(isMissingRequired({ name: " ", email: "a@b.co" })).toBe(true);
    expect(isMissingRequired({ name: "Sam", email: "" })).toBe(true);
    expect(isMissingRequired({ name: "Sam", email: "not checked here" })).toBe(false);
  });
});

describe("readSubmission", () => {
  it("reads every field and treats a missing or file field as empty", () => {
    const form = new FormData();
    form.set("name", "Sam");
    form.set("website", new Blob(["x"]));
    expect(readSubmission(form)).toEqual({
      name: "Sam",
      email: "",
      phone: "",
      message: "",
      honeypot: "",
      idempotencyKey: "",
      clientTimestamp: "",
      updates: "",
      consentVersion: "",
    });
  });
});
