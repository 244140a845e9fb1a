import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { sqliteBackend, type TestPlace } from "../../tests/support/storage-backends.ts";
import { createLogger } from "../logger.ts";
import { runCli } from "./run.ts";
import { openStorage } from "../registrations/service.ts";

const logger = createLogger("silent");
let place: TestPlace;
let clock: Date;

beforeEach(async () => {
  place = await sqliteBackend.fresh({ SHEETS_WEBHOOK_URL: "http://127.0.0.1:9/sheet" });
  clock = new Date("2026-06-15T12:00:00.000Z");
});
afterEach(() => place.drop());

const open = () => openStorage(place.env, logger, { now: () => clock });

async function cli(...args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    env: place.env,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    openStorage: open,
  });
  return { code, stdout, stderr };
}

async function seed(people: Array<{ name: string; email: string; at: string; message?: string }>) {
  const storage = await open();
  const ids: string[] = [];
  for (const [i, p] of people.entries()) {
    clock = new Date(p.at);
    const { registration } = await storage.registrations.register({
      name: p.name,
      email: p.email,
      phone: null,
      message: p.message ?? null,
      clientTimestamp: p.at,
      idempotencyKey: `cli-${i}`,
    });
    ids.push(registration.id);
  }
  await storage.close();
  clock = new Date("2026-06-15T12:00:00.000Z");
  return ids;
}

describe("registrations CLI", () => {
  it("counts, and lists the most recent first within the limit", async () => {
    await seed([
      { name: "Ann Old", email: "ann@example.com", at: "2026-06-01T09:00:00.000Z" },
      { name: "Ben New", email: "ben@example.com", at: "2026-06-10T09:00:00.000Z", message: "Hi" },
    ]);
    expect(await cli("count")).toEqual({ code: 0, stdout: "2\n", stderr: "" });
    const listed = await cli("list", "--limit", "1");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      /^2026-06-10T09:00:00.000Z {2}[0-9a-f-]{36} {2}Ben New <ben@example.com> {2}"Hi"\n$/,
    );
  });

  it("exports every registration as CSV with formulas defused", async () => {
    const [id] = await seed([
      { name: "=1+1", email: "c@example.com", at: "2026-06-01T09:00:00.000Z" },
    ]);
    const { code, stdout } = await cli("export", "--format", "csv");
    expect(code).toBe(0);
    expect(stdout).toBe(
      "id,received_at,client_timestamp,name,email,phone,message\r\n" +
        `${id},2026-06-01T09:00:00.000Z,2026-06-01T09:00:00.000Z,'=1+1,c@example.com,,\r\n`,
    );
    expect((await cli("export", "--format", "xlsx")).code).toBe(2);
  });

  it("shows everything for an address, then erases it with its forwarding records", async () => {
    const [id] = await seed([
      { name: "Dee", email: "dee@example.com", at: "2026-06-01T09:00:00.000Z" },
      { name: "Eve", email: "eve@example.com", at: "2026-06-02T09:00:00.000Z" },
    ]);
    const shown = await cli("show", "--email", "DEE@example.com");
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual([
      expect.objectContaining({
        id,
        name: "Dee",
        delivery: { status: "pending", attempts: 0, deliveredAt: null },
      }),
    ]);

    expect((await cli("erase", "--email", "dee@example.com")).stdout).toBe(
      "Erased 1 registration and 1 forwarding record for that address.\n",
    );
    expect((await cli("show", "--email", "dee@example.com")).stdout).toBe(
      "Nothing is stored for that address.\n",
    );
    expect((await cli("count")).stdout).toBe("1\n");
    expect((await cli("outbox")).stdout).toContain("pending 1\n");
  });

  it("purges by age, 24 months unless told otherwise", async () => {
    await seed([
      { name: "Very old", email: "f@example.com", at: "2024-01-01T00:00:00.000Z" },
      { name: "Recent", email: "g@example.com", at: "2026-05-01T00:00:00.000Z" },
    ]);
    expect((await cli("purge")).stdout).toBe(
      "Deleted 1 registration received before 2024-06-15T12:00:00.000Z.\n",
    );
    expect((await cli("purge", "--older-than", "30d")).stdout).toBe(
      "Deleted 1 registration received before 2026-05-16T12:00:00.000Z.\n",
    );
    expect((await cli("count")).stdout).toBe("0\n");
  });

  it("reports the outbox and queues dead deliveries again", async () => {
    await seed([{ name: "Hal", email: "h@example.com", at: "2026-06-01T00:00:00.000Z" }]);
    const report = await cli("outbox");
    expect(report.stdout).toBe(
      "pending 1\ndelivered 0\ndead 0\noldest pending since 2026-06-01T00:00:00.000Z\n",
    );
    expect((await cli("outbox", "--retry")).stdout).toMatch(
      /^Queued 0 failed deliveries again and moved 0 waiting deliveries forward/,
    );
  });

  it("explains mistakes on stderr with a non-zero exit", async () => {
    for (const args of [
      [],
      ["frobnicate"],
      ["show"],
      ["erase", "--email", "not-an-address"],
      ["list", "--limit", "0"],
      ["count", "--colour"],
    ]) {
      const result = await cli(...args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("Usage: npm run --silent registrations");
    }
    const badAge = await cli("purge", "--older-than", "soon");
    expect(badAge).toMatchObject({ code: 1, stdout: "" });
    expect(badAge.stderr).toMatch(/Cannot read the age "soon"/);
  });
});
