import { describe, expect, it } from "vitest";

import { createGroupCommit } from "./group-commit.ts";

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
