import { type Page, type Request, expect, test } from "@playwright/test";

import { registrationsFor, uniqueEmail } from "../../scripts/lib/registrations.ts";
import { seedConsent } from "../support/site.ts";
import { toastRegionSelector, toastTimeline, watchToastRegion } from "../support/toast-region.ts";

const missing = "Please fill in all required fields";
const failure = "There was an error submitting your registration. Please try again.";
const form = { "content-type": "application/x-www-form-urlencoded" };

// The form's labelled fields, required markers and privacy notice: every-page.spec.ts.
test.beforeEach(({ context }) => seedConsent(context));

/** Opens the form and waits for hydration (the form switches native validation off). */
async function openForm(page: Page) {
  await page.goto("/register-interest");
  await expect(page.locator("form[novalidate]")).toHaveCount(1);
}

/** Every registration POST the page sends (the JavaScript path posts to .data). */
function recordPosts(page: Page): Request[] {
  const posts: Request[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (request.method() === "POST" && pathname.startsWith("/register-interest")) {
      posts.push(request);
    }
  });
  return posts;
}

async function fillForm(
  page: Page,
  values: { name: string; email: string; phone?: string; message?: string },
) {
  await page.getByLabel("Full name").fill(values.name);
  await page.getByLabel("Email address").fill(values.email);
  if (values.phone !== undefined) await page.getByLabel("Phone number").fill(values.phone);
  if (values.message !== undefined) {
    await page.getByLabel("Anything you would like us to know").fill(values.message);
  }
}

const submitButton = (page: Page) => page.getByRole("button", { name: "Register Interest" });
const thankYou = (page: Page) => page.getByRole("heading", { name: "Thank you for registering" });

test("an empty name or email shows the toast and sends nothing", async ({ page }) => {
  const posts = recordPosts(page);
  await openForm(page);
  await page.getByLabel("Email address").fill("sam@example.co.uk");
  await submitButton(page).click();

  await expect(page.getByText(missing)).toBeVisible();
  const name = page.getByLabel("Full name");
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toBeFocused();
  await expect(
    page.getByRole("alert").filter({ hasText: "Please enter your name." }),
  ).toBeVisible();
  // The message goes once the field is corrected.
  await name.fill("Sam Carter");
  await expect(name).not.toHaveAttribute("aria-invalid");
  expect(posts).toHaveLength(0);
});

test("on a phone a tap on the submit button under the error toast still submits", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const email = uniqueEmail("under-toast");
  await openForm(page);
  await submitButton(page).click();
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: missing });
  await expect(toast).toBeVisible();
  // A quick visitor (or autofill) fills the fields while the toast is still up...
  await fillForm(page, { name: "Sam Carter", email });
  // ...with the button where the toast lies, across the bottom of the screen. Sonner slides a
  // toast in: measure it once it stands still.
  let previous = "";
  await expect
    .poll(async () => {
      const now = JSON.stringify(await toast.boundingBox());
      const still = now === previous;
      previous = now;
      return still;
    })
    .toBe(true);
  const toastBox = await toast.boundingBox();
  const buttonBox = await submitButton(page).boundingBox();
  if (!toastBox || !buttonBox) throw new Error("the toast or the button has no box");
  const toastMiddle = toastBox.y + toastBox.height / 2;
  await page.evaluate(
    (dy) => window.scrollBy({ top: dy, behavior: "instant" }),
    buttonBox.y + buttonBox.height / 2 - toastMiddle,
  );
  // The point is on the button and on the toast drawn over it.
  const button = await submitButton(page).boundingBox();
  const toastNow = await toast.boundingBox();
  if (!button || !toastNow) throw new Error("the toast or the button has no box");
  const x = button.x + button.width / 2;
  const inside = (box: typeof button, py: number) =>
    x > box.x && x < box.x + box.width && py > box.y && py < box.y + box.height;
  expect(inside(button, toastMiddle) && inside(toastNow, toastMiddle)).toBe(true);
  await expect(toast).toBeVisible();
  await page.mouse.click(x, toastMiddle);
  await expect(thankYou(page)).toBeVisible();
  expect(registrationsFor(email)).toHaveLength(1);
});

test("other mistakes are shown beside their fields and nothing is sent", async ({ page }) => {
  const posts = recordPosts(page);
  await openForm(page);
  await fillForm(page, { name: "Sam Carter", email: "sam@example", phone: "call me" });
  await submitButton(page).click();

  const email = page.getByLabel("Email address");
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(email).toHaveAccessibleDescription(/valid email address/);
  await expect(page.getByLabel("Phone number")).toHaveAccessibleDescription(/digits, spaces/);
  await expect(page.getByText(missing)).toHaveCount(0);
  expect(posts).toHaveLength(0);
});

test("a valid registration is stored once and thanked with a toast and the Thank You card", async ({
  page,
}) => {
  const email = uniqueEmail("success");
  await openForm(page);
  const key = await page.locator('input[name="idempotencyKey"]').inputValue();
  // Hold the request until the pending state has been seen.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/register-interest", async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    await released;
    await route.continue();
  });
  await fillForm(page, {
    name: "  Sam Carter ",
    email,
    phone: "+44 7700 900123",
    message: "When will you open?",
  });
  await submitButton(page).click();

  const pending = page.getByRole("button", { name: "Sending..." });
  await expect(pending).toBeDisabled();
  await expect(pending).toHaveAttribute("aria-busy", "true");
  release();

  await expect(page.getByText("Thank you! We'll notify you when we launch.")).toBeVisible();
  await expect(thankYou(page)).toBeFocused();
  await expect(page.getByRole("link", { name: "Return to Homepage" })).toHaveAttribute("href", "/");
  await expect(page.getByLabel("Full name")).toHaveCount(0);

  const rows = registrationsFor(email);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    name: "Sam Carter",
    phone: "+44 7700 900123",
    message: "When will you open?",
    idempotency_key: key,
  });
  expect(Date.parse(rows[0]?.client_timestamp ?? "")).not.toBeNaN();
});

test("when every attempt fails, the error toast appears and everything typed stays", async ({
  page,
}) => {
  test.slow();
  const email = uniqueEmail("aborted");
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  let attempts = 0;
  await page.route("**/register-interest", (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    attempts++;
    return route.abort("failed");
  });
  await openForm(page);
  await fillForm(page, { name: "Sam Carter", email, message: "Please keep this text" });
  await submitButton(page).click();

  await expect(page.getByText(failure)).toBeVisible({ timeout: 20_000 });
  expect(attempts).toBe(4); // the first attempt and three retries
  expect(errors.length).toBeGreaterThan(0);
  await expect(page.getByLabel("Full name")).toHaveValue("Sam Carter");
  await expect(page.getByLabel("Email address")).toHaveValue(email);
  await expect(page.getByLabel("Anything you would like us to know")).toHaveValue(
    "Please keep this text",
  );
  await expect(submitButton(page)).toBeEnabled();
  expect(registrationsFor(email)).toHaveLength(0);
});

test("transient failures are retried with the same key until one gets through", async ({
  page,
}) => {
  const email = uniqueEmail("retried");
  const bodies: string[] = [];
  await page.route("**/register-interest", async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    bodies.push(route.request().postData() ?? "");
    if (bodies.length === 1) return route.abort("connectionreset");
    if (bodies.length === 2) {
      return route.fulfill({ status: 503, contentType: "text/html", body: "<h1>Busy</h1>" });
    }
    return route.continue();
  });
  await openForm(page);
  await fillForm(page, { name: "Sam Carter", email });
  await submitButton(page).click();

  await expect(thankYou(page)).toBeVisible({ timeout: 15_000 });
  expect(bodies).toHaveLength(3);
  expect(new Set(bodies).size).toBe(1);
  expect(registrationsFor(email)).toHaveLength(1);
});

test("a double click and a replayed request store one registration", async ({ page }) => {
  const email = uniqueEmail("double");
  const posts = recordPosts(page);
  await openForm(page);
  await fillForm(page, { name: "Sam Carter", email });
  await submitButton(page).dblclick();
  await expect(thankYou(page)).toBeVisible();

  // Replay the exact request the browser sent, as a flaky network or a proxy might.
  const sent = posts.at(-1);
  expect(sent).toBeDefined();
  const replay = await page.request.post(sent?.url() ?? "", {
    headers: { ...form, origin: new URL(sent?.url() ?? "").origin },
    data: sent?.postData() ?? "",
  });
  expect(replay.status()).toBe(200);

  expect(registrationsFor(email)).toHaveLength(1);
});

test.describe("the form's checks come with the page; the toast region is there from the start", () => {
  test.beforeEach(({ context }) => watchToastRegion(context));

  test("the page has its empty toast region, and the first focus and submit fetch nothing more", async ({
    page,
  }) => {
    const requests: string[] = [];
    await openForm(page);
    await page.waitForLoadState("networkidle");
    // The live region is in place, empty, before anything could be announced in it.
    await expect(page.locator(toastRegionSelector)).toHaveCount(1);
    await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);

    // The zod schema is part of the island (decision 128): nothing is loaded on first use.
    page.on("request", (request) => requests.push(new URL(request.url()).pathname));
    await page.getByLabel("Full name").focus();
    await submitButton(page).click();
    await expect(page.getByLabel("Full name")).toHaveAttribute("aria-invalid", "true");
    expect(requests).toEqual([]);
  });

  test("a submit as the very first action still waits for the region before the toast", async ({
    page,
  }) => {
    await openForm(page);
    await submitButton(page).click();

    await expect(page.locator(toastRegionSelector)).toContainText(missing);
    const { region, firstToast } = await toastTimeline(page);
    expect(region).not.toBeNull();
    expect(firstToast).not.toBeNull();
    // Added together, the region and its first toast are often not announced.
    expect((firstToast ?? 0) - (region ?? 0)).toBeGreaterThanOrEqual(50);
    await expect(page.getByLabel("Full name")).toBeFocused();
  });
});

test("foreign origins are refused on every path and method that reaches the action", async ({
  request,
  baseURL,
}) => {
  const evil = { ...form, origin: "https://evil.example" };
  const body = `name=Eve&email=${encodeURIComponent(uniqueEmail("foreign"))}`;
  for (const path of [
    "/register-interest",
    "/register-interest/",
    "/register-interest.data",
    "/register-interest/_.data",
    "/register%2Dinterest",
  ]) {
    const res = await request.post(`${baseURL}${path}`, { headers: evil, data: body });
    expect(res.status(), path).toBe(403);
  }
  // Other mutation methods never reach the action: 405 before any guard (decision 074);
  // from our own origin: malformed.spec.ts.
  const put = await request.put(`${baseURL}/register-interest`, { headers: evil, data: body });
  expect(put.status()).toBe(405);
});

test("the page's action answers JSON when the island asks for it, and the page otherwise", async ({
  request,
  baseURL,
}) => {
  const headers = { ...form, origin: baseURL ?? "" };
  const data = "name=&email=not-an-address";
  const json = await request.post(`${baseURL}/register-interest`, {
    headers: { ...headers, accept: "application/json" },
    data,
  });
  expect(json.status()).toBe(400);
  expect(json.headers()["content-type"]).toContain("application/json");
  expect(await json.json()).toMatchObject({
    status: "invalid",
    fieldErrors: { name: expect.any(String), email: expect.any(String) },
  });
  const page = await request.post(`${baseURL}/register-interest`, { headers, data });
  expect(page.status()).toBe(400);
  expect(page.headers()["content-type"]).toContain("text/html");
  expect(await page.text()).toContain('value="not-an-address"');
});
