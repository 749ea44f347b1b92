import { expect, test } from "@playwright/test";
import * as path from "path";
import { ADMIN_EMAIL, ADMIN_PASSWORD, hydrated, signIn, watchForErrors } from "./helpers";

const FILE = "v100-qwen-benchmark-report.jsonl";
const BENCH = path.resolve(__dirname, "../../testdata/er0080-vllm-benchmarking/bench_serve_v0.25.1.json");

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

test("without JavaScript an upload is checked first and stored only by its own button", async ({ browser, page }) => {
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  // A pilot of its own, so the demo pilot's evidence (and the other tests) stay as they are.
  const organisations = await (await page.request.post("/api/customer_organisations", { form: {} })).json();
  const created = await page.request.post("/api/create_pilot", {
    form: {
      organisation_id: String(organisations[0].id),
      name: "Plain form pilot",
      description: "No-JavaScript upload check",
      status: "planning",
      model: "Qwen/Qwen3-8B",
      gpu_type: "NVIDIA L40S",
      gpu_count: "2",
      engine: "vLLM",
      engine_version: "0.11.0",
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const id = await created.json();
  const plain = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  const tab = await plain.newPage();
  try {
    await tab.goto(`/pilots/${id}/evidence`);
    await tab.locator("#evidence-file").setInputFiles(BENCH);
    await tab.locator("#rc-tp").fill("2");
    await tab.getByRole("button", { name: "Check before storing" }).click();

    // The check lists what will be recorded, each value with where it came from; nothing is stored.
    const check = tab.locator(".staged-upload");
    await expect(check.getByRole("heading", { level: 2 })).toHaveText("Check before storing: bench_serve_v0.25.1.json");
    await expect(check).toContainText("Nothing is stored yet.");
    await expect(check.locator("tr").filter({ hasText: "Tensor parallel" })).toContainText("2 (typed)");
    await expect(check.locator("tr").filter({ has: tab.locator("th", { hasText: /^GPU$/ }) })).toContainText("NVIDIA L40S (from the pilot's notes)");
    await expect(tab.locator(".evidence-list")).not.toContainText("bench_serve_v0.25.1.json");
    const checkUrl = tab.url();
    expect(checkUrl).toMatch(/\?check=[0-9a-f]{32}$/);

    await check.getByRole("button", { name: "Store as evidence" }).click();
    await expect(tab.locator(".notice-ok")).toContainText("Stored as evidence #");
    await expect(tab.locator(".staged-upload")).toHaveCount(0);
    await expect(tab.locator(".evidence-list")).toContainText("bench_serve_v0.25.1.json");
    // The check's address again (a bookmark, a second tab): it says the upload no longer waits.
    await tab.goto(checkUrl);
    await expect(tab.locator("main")).toContainText("This upload is no longer waiting");
  } finally {
    await plain.close();
    const deleted = await page.request.post(`/pilots/${id}/delete`, { form: { confirm: "yes" }, maxRedirects: 0 });
    expect(deleted.status()).toBe(303);
  }
});
