import { type Page, expect, test } from "@playwright/test";

import { registrationsFor, uniqueEmail } from "../../scripts/lib/registrations.ts";

// The prerendered page and a plain HTML form post: no JavaScript at all.
test.use({ javaScriptEnabled: false });

async function openAndFill(page: Page, values: { name: string; email: string; phone?: string }) {
  await page.goto("/register-interest");
  await page.getByLabel("Full name").fill(values.name);
  await page.getByLabel("Email address").fill(values.email);
  if (values.phone !== undefined) await page.getByLabel("Phone number").fill(values.phone);
}

test("the form posts, the server answers 303 to the thank-you page, and a refresh posts nothing", async ({
  page,
}) => {
  const email = uniqueEmail("nojs");
  await openAndFill(page, { name: "Sam Carter", email });
  // The optional box starts unticked; ticked, it is stored.
  const updates = page.getByRole("checkbox", { name: /occasional news/ });
  await expect(updates).not.toBeChecked();
  await updates.check();
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST"),
    page.getByRole("button", { name: "Register Interest" }).click(),
  ]);
  expect(response.status()).toBe(303);
  expect(response.headers()["location"]).toBe("/register-interest/thank-you");
  await expect(page).toHaveURL(/\/register-interest\/thank-you$/);
  await expect(page.getByRole("heading", { name: "Thank you for registering" })).toBeVisible();
  await expect(page.getByText(/open the link in it within 7 days/i)).toBeVisible();
  await expect(page.getByRole("link", { name: "Return to Homepage" })).toHaveAttribute("href", "/");
  await expect(page.getByRole("link", { name: /symptom quiz/ })).toHaveAttribute("href", "/quiz");

  const rows = registrationsFor(email);
  expect(rows).toHaveLength(1);
  // No script ran: no client timestamp, and a key derived from the details (UUIDv8).
  expect(rows[0]?.client_timestamp).toBeNull();
  expect(rows[0]?.idempotency_key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-/);
  expect(rows[0]?.wants_updates).toBe(1);
  expect(rows[0]?.consent_version).toMatch(/^\d{4}-\d\d-\d\d$/);

  // A refresh reloads the thank-you page (a GET): nothing is posted again.
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST") posts.push(r.url());
  });
  const reloaded = await page.reload();
  expect(reloaded?.request().method()).toBe("GET");
  await expect(page.getByRole("heading", { name: "Thank you for registering" })).toBeVisible();
  expect(posts).toEqual([]);
  expect(registrationsFor(email)).toHaveLength(1);

  // Sending the same form again (back and resubmit) adds no row either.
  await openAndFill(page, { name: "Sam Carter", email });
  await page.getByRole("button", { name: "Register Interest" }).click();
  await expect(page.getByRole("heading", { name: "Thank you for registering" })).toBeVisible();
  expect(registrationsFor(email)).toHaveLength(1);
});

test("invalid input comes back with its values and a message per field (400)", async ({ page }) => {
  const email = "sam@example"; // accepted by the browser's check, refused by ours
  await openAndFill(page, { name: "Sam Carter", email, phone: "12345" });
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST"),
    page.getByRole("button", { name: "Register Interest" }).click(),
  ]);
  expect(response.status()).toBe(400);

  await expect(page.getByLabel("Full name")).toHaveValue("Sam Carter");
  await expect(page.getByLabel("Email address")).toHaveValue(email);
  await expect(page.getByLabel("Email address")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Email address")).toHaveAccessibleDescription(/valid email address/);
  await expect(page.getByLabel("Phone number")).toHaveValue("12345");
  await expect(page.getByLabel("Phone number")).toHaveAccessibleDescription(/digits, spaces/);
  await expect(page.getByRole("heading", { name: "Thank you for registering" })).toHaveCount(0);
  expect(registrationsFor(email)).toHaveLength(0);
});

test("the browser's own check stops an empty required field", async ({ page }) => {
  let posted = false;
  page.on("request", (r) => {
    if (r.method() === "POST") posted = true;
  });
  await page.goto("/register-interest");
  await page.getByLabel("Email address").fill("sam@example.co.uk");
  await page.getByRole("button", { name: "Register Interest" }).click();
  const name = page.getByLabel("Full name");
  expect(await name.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
  await expect(page.getByRole("heading", { name: "Thank you for registering" })).toHaveCount(0);
  expect(posted).toBe(false);
});
