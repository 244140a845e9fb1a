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
    const times = [1, 255, 256, 1_700_000_000_000, 1_795_500_000_000, 2 ** 48 - 1];
    const ids = times.map((t) => timeOrderedId(t));
    expect([...ids].sort()).toEqual(ids);
  });

  it("differs between ids made in the same millisecond, and sorts in the order they were made", () => {
    const ids = Array.from({ length: 1000 }, () => timeOrderedId(1_795_500_000_000));
    expect(new Set(ids).size).toBe(1000);
    expect([...ids].sort()).toEqual(ids);
  });
});

function deferred() {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

describe("createGroupCommit", () => {
  it("writes a lone call on its own", async () => {
    const batches: number[][] = [];
    const submit = createGroupCommit<number, number>(
      (items) => {
        batches.push(items);
        return Promise.resolve(items.map((i) => ({ status: "fulfilled", value: i * 10 })));
      },
      { maxBatch: 10, concurrency: 1 },
    );
    await expect(submit(1)).resolves.toBe(10);
    expect(batches).toEqual([[1]]);
  });

  it("gathers calls that arrive while a batch is in flight into the next batch, in order, up to the limit", async () => {
    const batches: number[][] = [];
    const gate = deferred();
    const submit = createGroupCommit<number, string>(
      async (items) => {
        batches.push(items);
        if (batches.length === 1) await gate.promise;
        return items.map((i) => ({ status: "fulfilled", value: `#${i}` }));
      },
      { maxBatch: 3, concurrency: 1 },
    );
    const first = submit(0);
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [1, 2, 3, 4, 5].map(submit);
    gate.release();
    expect(await Promise.all([first, ...rest])).toEqual(["#0", "#1", "#2", "#3", "#4", "#5"]);
    expect(batches).toEqual([[0], [1, 2, 3], [4, 5]]);
  });

  it("settles each call with its own result or error", async () => {
    const submit = createGroupCommit<number, number>(
      (items) =>
        Promise.resolve(
          items.map((i) =>
            i % 2
              ? { status: "rejected", reason: new Error(`odd ${i}`) }
              : { status: "fulfilled", value: i },
          ),
        ),
      { maxBatch: 10, concurrency: 1 },
    );
    const results = await Promise.allSettled([0, 1, 2].map(submit));
    expect(results).toEqual([
      { status: "fulfilled", value: 0 },
      { status: "rejected", reason: new Error("odd 1") },
      { status: "fulfilled", value: 2 },
    ]);
  });

  it("rejects the whole batch when the write fails, and carries on with the next", async () => {
    let calls = 0;
    const submit = createGroupCommit<number, number>(
      (items) => {
        calls += 1;
        if (calls === 1) return Promise.reject(new Error("database is locked"));
        return Promise.resolve(items.map((i) => ({ status: "fulfilled", value: i })));
      },
      { maxBatch: 10, concurrency: 1 },
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
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return items.map((i) => ({ status: "fulfilled", value: i }));
      },
      { maxBatch: 2, concurrency: 2 },
    );
    const values = Array.from({ length: 20 }, (_, i) => i);
    expect(await Promise.all(values.map(submit))).toEqual(values);
    expect(peak).toBe(2);
  });
});

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

function full() {
  return Object.assign(new Error("database or disk is full"), { errcode: 13 });
}

describe("createWriteHealth", () => {
  it("probes when it has seen nothing, and reuses a fresh observation", async () => {
    let clock = 0;
    let probes = 0;
    const health = createWriteHealth({
      probe: () => {
        probes += 1;
        return Promise.resolve();
      },
      maxAgeMs: 1000,
      now: () => clock,
    });
    expect(await health.check()).toMatchObject({ writable: true });
    clock = 999;
    expect(await health.check()).toMatchObject({ writable: true });
    expect(probes).toBe(1);
    clock = 1000;
    await health.check();
    expect(probes).toBe(2);
  });

  it("shares one probe between concurrent checks", async () => {
    let probes = 0;
    let finish = () => {};
    const health = createWriteHealth({
      probe: () => {
        probes += 1;
        return new Promise<void>((resolve) => (finish = resolve));
      },
      maxAgeMs: 1000,
    });
    const checks = [health.check(), health.check(), health.check()];
    finish();
    expect(await Promise.all(checks)).toHaveLength(3);
    expect(probes).toBe(1);
  });

  it("turns unwritable when a real write fails for want of storage, and back on a success", async () => {
    let clock = 0;
    const health = createWriteHealth({
      probe: () => Promise.reject(new Error("never asked")),
      maxAgeMs: 1000,
      now: () => clock,
    });
    health.observe(full());
    expect(await health.check()).toMatchObject({ writable: false });
    clock = 10;
    health.observe();
    expect(await health.check()).toMatchObject({ writable: true });
  });

  it("ignores failures that are not about storage (a bug says nothing about the disk)", async () => {
    const health = createWriteHealth({ probe: () => Promise.resolve(), maxAgeMs: 1000 });
    health.observe();
    health.observe(new TypeError("bug"));
    expect(await health.check()).toMatchObject({ writable: true });
  });

  it("reports a failing probe as unwritable, then recovers when the probe succeeds", async () => {
    let clock = 0;
    let failing = true;
    const health = createWriteHealth({
      probe: () => (failing ? Promise.reject(full()) : Promise.resolve()),
      maxAgeMs: 1000,
      now: () => clock,
    });
    expect(await health.check()).toMatchObject({ writable: false });
    failing = false;
    clock = 1000;
    expect(await health.check()).toMatchObject({ writable: true });
  });
});
