import { randomUUID } from "node:crypto";

import { expect, test } from "@playwright/test";

import { newRegistration, postRegistration } from "../../scripts/lib/registrations.ts";
import { startServer } from "../../scripts/lib/server-process.ts";
import { startFakeSpreadsheet } from "../support/fake-spreadsheet.ts";

/**
 * Registrations may touch on health, so their details must never reach the logs.
 * The server runs at its most verbose level while registrations succeed, fail
 * validation, get refused by the guards and fail to forward; then every line it
 * wrote to stdout and stderr is searched for what the visitors typed.
 */
test("no email, phone number, name or message text appears in the server's logs", async () => {
  test.setTimeout(120_000);
  const spreadsheet = await startFakeSpreadsheet();
  // Deliveries fail and are logged, with retries.
  spreadsheet.answer = () => "fail";
  // The spreadsheet's variables under their names before issue 30: still read, with a warning.
  const server = await startServer({
    env: {
      LOG_LEVEL: "trace",
      SHEETS_WEBHOOK_URL: spreadsheet.env.SPREADSHEET_URL ?? "",
      SHEETS_WEBHOOK_SECRET: spreadsheet.env.SPREADSHEET_SECRET ?? "",
      RATE_LIMIT_PER_MINUTE: "8",
    },
  });
  const secrets: string[] = [];
  try {
    const statuses = new Set<number>();
    for (let i = 0; i < 14; i += 1) {
      const tag = randomUUID().slice(0, 8);
      const person = newRegistration("privacy", {
        name: `Privacy Tester${tag}`,
        email: `privacy.${tag}@example.co.uk`,
        phone: `07700 9${String(i).padStart(2, "0")} 4${tag.replace(/\D/g, "").padEnd(2, "7").slice(0, 2)}`,
        message: `My symptoms ${tag} are private`,
      });
      // Alternate valid submissions with invalid ones (echoed back in the form) and a foreign origin.
      const variant = i % 4;
      const body = variant === 1 ? { ...person, email: `not-an-address ${tag}` } : person;
      const headers = variant === 3 ? { origin: "https://elsewhere.example" } : undefined;
      statuses.add((await postRegistration(server.url, body, { headers })).status);
      secrets.push(person.name, person.email, person.phone!, person.message!, body.email);
      secrets.push(person.phone!.replace(/\s/g, ""), tag);
      // A page asked for with personal data in the query string.
      await fetch(`${server.url}/pricing?email=${encodeURIComponent(person.email)}&tag=${tag}`);
    }
    // A body beyond the 16 KB cap, and the JSON route the form's script uses.
    const big = `privacy-big-${randomUUID()}`;
    secrets.push(big);
    const tooLarge = await fetch(`${server.url}/register-interest`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: `name=${big}&message=${"x".repeat(20_000)}`,
    });
    statuses.add(tooLarge.status);
    await expect.poll(() => spreadsheet.requests.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 400, 403, 413, 429]));
  } finally {
    await server.stop();
    await spreadsheet.close();
  }

  const logs = server.output.join("\n");
  expect(logs).toContain('"msg":"request"'); // the logs were captured at all
  expect(logs).toContain("spreadsheet delivery failed");
  expect(server.output.filter((line) => line.includes("Rename SHEETS_WEBHOOK_URL"))).toEqual([
    expect.stringContaining(
      "Rename SHEETS_WEBHOOK_URL to SPREADSHEET_URL and SHEETS_WEBHOOK_SECRET to SPREADSHEET_SECRET",
    ),
  ]);
  const leaked = secrets.filter((secret) => {
    const forms = [
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
    ];
    return forms.some((form) => logs.toLowerCase().includes(form.toLowerCase()));
  });
  expect(leaked).toEqual([]);
});
