import { describe, expect, it } from "vitest";

import { guardAvailability, isUnavailableError } from "./unavailable.ts";

function withFields(message: string, fields: Record<string, unknown>): Error {
  return Object.assign(new Error(message), fields);
}

describe("isUnavailableError", () => {
  it.each([
    ["SQLite busy beyond the timeout", withFields("database is locked", { errcode: 5 })],
    ["SQLite read-only file", withFields("attempt to write a readonly database", { errcode: 8 })],
    [
      "SQLite disk I/O error (extended code)",
      withFields("disk I/O error", { errcode: 10 | (4 << 8) }),
    ],
    ["SQLite disk full", withFields("database or disk is full", { errcode: 13 })],
    [
      "PostgreSQL refusing connections",
      withFields("connect ECONNREFUSED 127.0.0.1:5432", { code: "ECONNREFUSED" }),
    ],
    [
      "PostgreSQL shut down by an administrator",
      withFields("terminating connection", { code: "57P01" }),
    ],
    ["PostgreSQL starting up", withFields("the database system is starting up", { code: "57P03" })],
    ["PostgreSQL too many connections", withFields("too many connections", { code: "53300" })],
    ["PostgreSQL connection failure", withFields("connection failure", { code: "08006" })],
    ["PostgreSQL read-only standby", withFields("read-only transaction", { code: "25006" })],
    ["pg losing its socket", new Error("Connection terminated unexpectedly")],
    ["pg pool timing out", new Error("timeout exceeded when trying to connect")],
    ["storage closed", new Error("driver has already been destroyed")],
    [
      "a wrapped socket error",
      new Error("query failed", { cause: withFields("x", { code: "ECONNRESET" }) }),
    ],
    [
      "several addresses refused",
      new AggregateError([withFields("x", { code: "ECONNREFUSED" })], "all failed"),
    ],
  ])("counts %s", (_label, error) => {
    expect(isUnavailableError(error)).toBe(true);
  });

  it.each([
    ["a unique violation (SQLite)", withFields("UNIQUE constraint failed", { errcode: 2067 })],
    ["a unique violation (PostgreSQL)", withFields("duplicate key value", { code: "23505" })],
    ["a missing table", withFields("relation does not exist", { code: "42P01" })],
    ["a syntax error", withFields("SQL logic error", { errcode: 1 })],
    ["a plain bug", new TypeError("cannot read properties of undefined")],
    ["a thrown string", "oops"],
  ])("does not count %s", (_label, error) => {
    expect(isUnavailableError(error)).toBe(false);
  });
});

describe("guardAvailability", () => {
  it("turns an unavailable database into StorageUnavailableError, keeping the cause", async () => {
    const cause = withFields("database is locked", { errcode: 5 });
    const error = await guardAvailability(() => Promise.reject(cause)).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "StorageUnavailableError", cause });
  });

  it("lets other errors through unchanged", async () => {
    const bug = new TypeError("bug");
    await expect(guardAvailability(() => Promise.reject(bug))).rejects.toBe(bug);
  });

  it("passes results through", async () => {
    await expect(guardAvailability(() => Promise.resolve(42))).resolves.toBe(42);
  });
});
