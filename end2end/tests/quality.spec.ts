import { expect, test, type Page } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, hydrated, signIn, watchForErrors } from "./helpers";

const PILOT = "Quality check: Qwen3-8B";

/** Four questions; `d` has no accepted passage. */
const SET = `id,question,accepted_answer,accepted_passages
a,How do I reset my password?,Use Forgot password,p1
b,How long are invoices kept?,Seven years,p2
c,What is the attachment limit?,25 MB,p3
d,Say hello,Hello,
`;

/** BF16: a, b, d right; c wrong. */
const RUN_BF16 = `id,answer,correct,retrieved,finish_reason
a,Use Forgot password,true,p1|x,stop
b,Seven years,true,x|p2,stop
c,250 MB,false,x|y,stop
d,Hello,true,,length
`;

/** FP8: b flips right → wrong, c wrong → right. */
const RUN_FP8 = `id,answer,correct,retrieved,finish_reason
a,Use Forgot password,true,p1|x,stop
b,Ten years,false,x|p2,stop
c,25 MB,true,x|y,stop
d,Hello,true,,stop
`;

/** Uploads one file through the quality page's upload form, as the kind chosen. */
async function upload(page: Page, name: string, text: string, kind: string, precision = ""): Promise<string> {
  await page.locator("#evidence-kind").selectOption(kind);
  if (precision) {
    await page.locator("#ev-weights_precision").fill(precision);
  }
  await page.locator("#evidence-file").setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
  const item = page.locator(".upload-item").filter({ hasText: name });
  const status = item.locator(".upload-status");
  // Checked first, listed with what will be recorded; stored on confirmation.
  await expect(status).toContainText("Checked: " + kind.replace(/_/g, " "));
  if (precision) {
    await expect(item.locator(".upload-recorded-table tr").filter({ hasText: "Weights precision" })).toContainText(precision);
  }
  await page.getByRole("button", { name: "Store 1 file" }).click();
  await expect(status).toContainText("Stored as evidence #");
  return (await status.textContent()) ?? "";
}

test("a set and two precision runs uploaded from the browser show the flipped questions; the set is versioned", async ({ page }) => {
  const errors = watchForErrors(page);
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.getByRole("link", { name: "New pilot" }).click();
  await hydrated(page);
  await page.getByLabel("Customer organisation").selectOption({ label: "Demo Customer" });
  await page.getByLabel("Name").fill(PILOT);
  await page.getByLabel("Model").fill("Qwen/Qwen3-8B");
  await page.getByRole("button", { name: "Create pilot" }).click();
  await expect(page.getByRole("heading", { level: 1, name: PILOT })).toBeVisible();

  await page.getByRole("link", { name: "Quality", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Answer quality" })).toBeVisible();
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "No evaluation run yet" })).toBeVisible();

  const set = await upload(page, "support-set.csv", SET, "eval_set");
  expect(set).toContain("draft version 1");
  const bf16 = await upload(page, "run-bf16.csv", RUN_BF16, "eval_run", "BF16");
  expect(bf16).toContain("now approved");
  await upload(page, "run-fp8.csv", RUN_FP8, "eval_run", "FP8");

  // The page refreshes after the uploads: both runs, their comparison and the flips.
  const comparison = page.locator("section").filter({ has: page.getByRole("heading", { name: /^Precision comparison/ }) });
  await expect(comparison).toBeVisible();
  await expect(comparison.getByRole("row", { name: /Right → wrong/ })).toContainText("1: b");
  await expect(comparison.getByRole("row", { name: /Wrong → right/ })).toContainText("1: c");
  await expect(page.locator("#set-line")).toContainText("version 1 (approved): 4 questions");
  await expect(page.locator("#precision-decision")).toContainText("No precision decided");
  await expect(page.getByText("Ten years")).toBeVisible();

  // The set page: version 1 is frozen; version 2 starts from it and is edited in the table.
  await page.getByRole("link", { name: "View and edit the evaluation set" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Evaluation set" })).toBeVisible();
  await hydrated(page);
  await expect(page.locator(".eval-set-table")).toContainText("What is the attachment limit?");
  await page.getByRole("button", { name: "Start version 2 from version 1" }).click();
  await expect(page.getByRole("heading", { name: "Questions of draft version 2" })).toBeVisible();
  await page.getByLabel("New row item id").fill("a");
  await page.getByLabel("New row question").fill("Where is the VPN guide?");
  await page.getByLabel("New row accepted answer").fill("On the wiki");
  await page.getByLabel("New row accepted passage ids").press("Enter");
  await expect(page.getByRole("alert")).toContainText('row 5, id: "a" is already the id of row 1');
  await page.getByLabel("New row item id").fill("e");
  await page.getByRole("button", { name: "Add row" }).click();
  await expect(page.getByLabel("Row 5 question")).toHaveValue("Where is the VPN guide?");
  await page.getByRole("button", { name: "Approve version 2" }).click();
  await expect(page.getByRole("heading", { name: "Version 2 · 5 questions" })).toBeVisible();
  await expect(page.locator("#set-version")).toContainText("Approved");
  expect(errors).toEqual([]);
});
