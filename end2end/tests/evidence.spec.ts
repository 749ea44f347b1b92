import { expect, test } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, hydrated, signIn, watchForErrors } from "./helpers";

const FILE = "v100-qwen-benchmark-report.jsonl";

test("a file withdrawn on the evidence page keeps its history and is restored", async ({ page }) => {
  const errors = watchForErrors(page);
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.getByRole("link", { name: "Support assistant: Qwen2.5-7B on 4× V100" }).click();
  await page.getByRole("link", { name: "Evidence", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Evidence" })).toBeVisible();
  await hydrated(page);
  const row = () => page.locator(".evidence-table tbody tr", { hasText: FILE });
  await expect(row().locator(".evidence-status")).toContainText("In force");

  // Withdraw with a reason, from the keyboard: the reason field is labelled and required.
  await row().locator("summary", { hasText: "Withdraw…" }).click();
  const reason = row().getByLabel(/Why it no longer counts/);
  await reason.fill("Ran on the staging cluster, not the pilot's GPUs");
  await reason.press("Enter");
  await expect(page.locator(".notice-ok")).toContainText("is withdrawn");
  await expect(row().locator(".evidence-status")).toContainText("Withdrawn");
  await expect(row().locator(".evidence-status")).toContainText("Ran on the staging cluster, not the pilot's GPUs");
  await expect(row()).toHaveClass(/withdrawn/);

  // The load-test page no longer draws it; the report lists it with its reason.
  await page.getByRole("link", { name: "Load-test curves" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator("main")).not.toContainText(FILE);
  await page.goBack();

  // Restored, it grades again; the history keeps both steps.
  await row().locator("summary", { hasText: "Restore…" }).click();
  await row().getByLabel(/Why it is evidence again/).fill("Checked: the pilot's own GPUs after all");
  await row().getByRole("button", { name: "Restore" }).click();
  await expect(page.locator(".notice-ok")).toContainText("is restored");
  const status = row().locator(".evidence-status");
  await expect(status).toContainText("In force");
  await expect(status).toContainText("Withdrawn");
  await expect(status).toContainText("Restored");
  expect(errors).toEqual([]);
});

test("the skip link is the first Tab stop and moves focus to the content", async ({ page }) => {
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#content")).toBeFocused();
});
