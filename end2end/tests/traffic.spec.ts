import { expect, test } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, hydrated, signIn, watchForErrors } from "./helpers";

test("the demo pilot's traffic page shows the charts and the demand profile", async ({ page }) => {
  const errors = watchForErrors(page);
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.getByRole("link", { name: "Support assistant: Qwen2.5-7B on 4× V100" }).click();
  await page.getByRole("link", { name: "Traffic", exact: true }).click();
  await expect(page).toHaveURL(/\/pilots\/\d+\/traffic$/);
  await expect(page.getByRole("heading", { level: 1, name: "Real traffic" })).toBeVisible();
  await hydrated(page);

  // The synthetic working week of the demo pilot: thousands of requests, a busy hour, a peak.
  const requests = Number((await page.locator("#traffic-requests").innerText()).replace(/,/g, ""));
  expect(requests).toBeGreaterThan(4000);
  await expect(page.locator("#traffic-peak")).toHaveText(/^\d+$/);

  for (const id of ["chart-arrivals", "chart-in-flight", "chart-prompt", "chart-answer", "chart-context"]) {
    await expect(page.locator(`#${id} svg`)).toBeVisible();
  }
  await expect(page.locator("#chart-arrivals")).toContainText("busiest hour from");
  await expect(page.locator("#chart-in-flight")).toContainText("peak");

  const table = page.locator("#profile-table");
  await expect(table).toBeVisible();
  await expect(table.getByRole("row", { name: /Busiest-hour arrival rate/ })).toContainText("req/s");
  await expect(table.getByRole("row", { name: /Peak in flight/ })).toBeVisible();
  await expect(page.locator("#token-table").getByRole("row", { name: /Context/ })).toBeVisible();

  // Production demand links into sizing with the measured context.
  await page.getByLabel("Pilot users").fill("40");
  await page.getByLabel("Production users").fill("400");
  await page.getByRole("button", { name: "Compute" }).click();
  await expect(page.locator("#production-rate")).toBeVisible();
  const context = (await page.locator("#production-context").innerText()).replace(/,/g, "");
  // … on the pilot's own model, GPU and precision, with the demand to hold.
  const href = (await page.locator("#size-production").getAttribute("href")) ?? "";
  expect(href).toMatch(/^\/sizing\?model=qwen2\.5-7b&gpu=v100-sxm2-16gb&tp=4&weights=/);
  expect(href).toContain(`&context=${context}&sessions=`);

  expect(errors).toEqual([]);
});
