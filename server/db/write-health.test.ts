import { describe, expect, it } from "vitest";

import { createWriteHealth } from "./write-health.ts";

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
