import { expect, test } from "@playwright/test";

test("home page shows the regulatory banner", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("region", { name: "Regulatory status" })).toHaveText(
    "Services Available Upon CQC Approval",
  );
});
