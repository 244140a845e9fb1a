import { describe, expect, it } from "vitest";

import {
  createGroupCommit,
  createWriteHealth,
  guardAvailability,
  isUnavailableError,
  timeOrderedId,
} from "./writes.ts";

const v7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("timeOrderedId", () => {
  it("is a UUIDv7 whose first 48 bits are the time in milliseconds", () => {
    const at = Date.UTC(2026, 10, 24, 9, 30, 15, 123);
    const id = timeOrderedId(at);
    expect(id).toMatch(v7);
    expect(parseInt(id.replaceAll("-", "").slice(0, 12), 16)).toBe(at);
  });

  it("sorts as text in the order of its time, so later rows land at the index's end", () => {
    const ids = [1, 255, 256, 1_700_000_000_000, 1_795_500_000_000, 2 ** 48 - 1].map((t) =>
      timeOrderedId(t),
    );
    expect([...ids].sort()).toEqual(ids);
  });

  it("differs between ids made in the same millisecond, and sorts in the order they were made", () => {
    const ids = Array.from({ length: 1000 }, () => timeOrderedId(1_795_500_000_000));
    expect(new Set(ids).size).toBe(1000);
    expect([...ids].sort()).toEqual(ids);
  });
});

/** Every item written, each fulfilled with its own value. */
const echo = <T>(items: T[]) => items.map((value) => ({ status: "fulfilled" as const, value }));
const ONE_AT_A_TIME = { maxBatch: 10, concurrency: 1 };

describe("createGroupCommit", () => {
  it("gathers calls that arrive while a batch is in flight into the next batch, in order, up to the limit", async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const submit = createGroupCommit<number, string>(
      async (items) => {
        batches.push(items);
        if (batches.length === 1) await gate;
        return echo(items.map((i) => `#${i}`));
      },
      { maxBatch: 3, concurrency: 1 },
    );
    const first = submit(0);
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [1, 2, 3, 4, 5].map(submit);
    release();
    expect(await Promise.all([first, ...rest])).toEqual(["#0", "#1", "#2", "#3", "#4", "#5"]);
    expect(batches).toEqual([[0], [1, 2, 3], [4, 5]]);
  });

  it("settles each call with its own result or error", async () => {
    const settled: PromiseSettledResult<number>[] = [
      { status: "fulfilled", value: 0 },
      { status: "rejected", reason: new Error("odd 1") },
      { status: "fulfilled", value: 2 },
    ];
    const submit = createGroupCommit<number, number>(
      (items) => Promise.resolve(items.map((i) => settled[i]!)),
      ONE_AT_A_TIME,
    );
    expect(await Promise.allSettled([0, 1, 2].map(submit))).toEqual(settled);
  });

  it("rejects the whole batch when the write fails, and carries on with the next", async () => {
    let calls = 0;
    const submit = createGroupCommit<number, number>(
      (items) =>
        ++calls === 1
          ? Promise.reject(new Error("database is locked"))
          : Promise.resolve(echo(items)),
      ONE_AT_A_TIME,
    );
    const failed = await Promise.allSettled([submit(1), submit(2)]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    await expect(submit(3)).resolves.toBe(3);
  });

  it("runs no more batches at once than allowed", async () => {
    let running = 0;
    let peak = 0;
    const submit = createGroupCommit<number, number>(
      async (items) => {
        peak = Math.max(peak, ++running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return echo(items);
      },
      { maxBatch: 2, concurrency: 2 },
    );
    const values = Array.from({ length: 20 }, (_, i) => i);
    expect(await Promise.all(values.map(submit))).toEqual(values);
    expect(peak).toBe(2);
  });
});

const sqlite = (message: string, errcode: number) => Object.assign(new Error(message), { errcode });
const pg = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isUnavailableError", () => {
  it.each([
    ["SQLite busy beyond the timeout", sqlite("database is locked", 5)],
    ["SQLite read-only file", sqlite("attempt to write a readonly database", 8)],
    ["SQLite disk I/O error (extended code)", sqlite("disk I/O error", 10 | (4 << 8))],
    ["SQLite disk full", sqlite("database or disk is full", 13)],
    ["PostgreSQL refusing connections", pg("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")],
    ["PostgreSQL shut down by an administrator", pg("terminating connection", "57P01")],
    ["PostgreSQL starting up", pg("the database system is starting up", "57P03")],
    ["PostgreSQL too many connections", pg("too many connections", "53300")],
    ["PostgreSQL connection failure", pg("connection failure", "08006")],
    ["PostgreSQL read-only standby", pg("read-only transaction", "25006")],
    ["pg losing its socket", new Error("Connection terminated unexpectedly")],
    ["pg pool timing out", new Error("timeout exceeded when trying to connect")],
    ["storage closed", new Error("driver has already been destroyed")],
    ["a wrapped socket error", new Error("query failed", { cause: pg("x", "ECONNRESET") })],
    ["several addresses refused", new AggregateError([pg("x", "ECONNREFUSED")], "all failed")],
  ])("counts %s", (_label, error) => {
    expect(isUnavailableError(error)).toBe(true);
  });

  it.each([
    ["a unique violation (SQLite)", sqlite("UNIQUE constraint failed", 2067)],
    ["a unique violation (PostgreSQL)", pg("duplicate key value", "23505")],
    ["a missing table", pg("relation does not exist", "42P01")],
    ["a syntax error", sqlite("SQL logic error", 1)],
    ["a plain bug", new TypeError("cannot read properties of undefined")],
    ["a thrown string", "oops"],
  ])("does not count %s", (_label, error) => {
    expect(isUnavailableError(error)).toBe(false);
  });
});

describe("guardAvailability", () => {
  it("turns an unavailable database into StorageUnavailableError, keeping the cause", async () => {
    const cause = sqlite("database is locked", 5);
    const error = await guardAvailability(() => Promise.reject(cause)).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "StorageUnavailableError", cause });
  });

  it("lets other errors through unchanged, and results too", async () => {
    const bug = new TypeError("bug");
    await expect(guardAvailability(() => Promise.reject(bug))).rejects.toBe(bug);
    await expect(guardAvailability(() => Promise.resolve(42))).resolves.toBe(42);
  });
});

const full = () => sqlite("database or disk is full", 13);

describe("createWriteHealth", () => {
  let clock = 0;
  let probes = 0;
  /** A write health on a clock the test moves, observations fresh for a second; counts probes. */
  const healthWith = (probe: () => Promise<void>) => {
    clock = 0;
    probes = 0;
    const counted = () => {
      probes += 1;
      return probe();
    };
    return createWriteHealth({ probe: counted, maxAgeMs: 1000, now: () => clock });
  };

  it("probes when it has seen nothing, and reuses a fresh observation", async () => {
    const health = healthWith(() => Promise.resolve());
    expect(await health.check()).toMatchObject({ writable: true });
    clock = 999;
    expect(await health.check()).toMatchObject({ writable: true });
    expect(probes).toBe(1);
    clock = 1000;
    await health.check();
    expect(probes).toBe(2);
  });

  it("shares one probe between concurrent checks", async () => {
    let finish = () => {};
    const health = healthWith(() => new Promise<void>((resolve) => (finish = resolve)));
    const checks = [health.check(), health.check(), health.check()];
    finish();
    expect(await Promise.all(checks)).toHaveLength(3);
    expect(probes).toBe(1);
  });

  it("turns unwritable when a real write fails for want of storage, and back on a success", async () => {
    const health = healthWith(() => Promise.reject(new Error("never asked")));
    health.observe(full());
    expect(await health.check()).toMatchObject({ writable: false });
    clock = 10;
    health.observe();
    expect(await health.check()).toMatchObject({ writable: true });
  });

  it("ignores failures that are not about storage (a bug says nothing about the disk)", async () => {
    const health = healthWith(() => Promise.resolve());
    health.observe();
    health.observe(new TypeError("bug"));
    expect(await health.check()).toMatchObject({ writable: true });
  });

  it("reports a failing probe as unwritable, then recovers when the probe succeeds", async () => {
    let failing = true;
    const health = healthWith(() => (failing ? Promise.reject(full()) : Promise.resolve()));
    expect(await health.check()).toMatchObject({ writable: false });
    failing = false;
    clock = 1000;
    expect(await health.check()).toMatchObject({ writable: true });
  });
});
