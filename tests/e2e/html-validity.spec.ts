import { expect, test } from "@playwright/test";

import { confirmPath, registerSomeone, unsubscribePath } from "../support/email-links.ts";
import { nuErrors } from "../support/nu.ts";
import { allPages } from "../support/site.ts";

/**
 * The W3C Nu HTML checker (vnu-jar, run on Java 17) finds no error in the HTML the server
 * sends for every page of the route table and the 404 page. One JVM run checks them all.
 */

test("every page's served HTML has no Nu HTML checker error", async ({ request }) => {
  test.setTimeout(180_000);
  const pages = new Map<string, string>();
  for (const page of allPages) {
    const response = await request.get(page);
    expect(response.headers()["content-type"], page).toContain("text/html");
    pages.set(page, await response.text());
  }
  expect(await nuErrors(pages)).toEqual([]);
});

test("the email-link pages' HTML has no Nu HTML checker error", async ({ request, baseURL }) => {
  test.setTimeout(180_000);
  const someone = await registerSomeone(baseURL ?? "", "vnu");
  const pages = new Map<string, string>();
  for (const [label, url, status] of [
    ["/confirm-ask", confirmPath(someone.confirmToken()), 200],
    ["/confirm-refused", confirmPath("not-a-token"), 400],
    ["/unsubscribe-button", unsubscribePath(someone.unsubscribeToken()), 200],
  ] as const) {
    const response = await request.get(url);
    expect(response.status(), label).toBe(status);
    pages.set(label, await response.text());
  }
  // The button's post: the token in the form body, as the page's hidden field sends it.
  const done = await request.post("/unsubscribe", {
    form: { token: someone.unsubscribeToken() },
  });
  expect(done.status()).toBe(200);
  pages.set("/unsubscribe-done", await done.text());
  const confirmed = await request.post(confirmPath(someone.confirmToken()), {
    form: { token: someone.confirmToken() },
  });
  expect(confirmed.status()).toBe(200);
  pages.set("/confirm-confirmed", await confirmed.text());
  expect(await nuErrors(pages)).toEqual([]);
});
