import { expect, test } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, hydrated, signIn, signOut, watchForErrors } from "./helpers";

const PASSWORD = "plan test password 1";
const ASSESSOR = "ann@plan-vendor.example";
const REVIEWER = "rob@plan-vendor.example";
const CUSTOMER = "carol@initech.example";
const PILOT = "Initech support chat";

test.beforeAll(() => {
  expect(ADMIN_PASSWORD, "ADMIN_PASSWORD comes from the server's first start").not.toBe("");
});

test("an assessor drafts a plan from a template, edits a mark and approves it; the customer sees it read-only", async ({ page }) => {
  const errors = watchForErrors(page);

  // The admin sets up a customer organisation, an assessor, a customer and a pilot.
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.getByRole("link", { name: "Organisations" }).click();
  await hydrated(page);
  await page.getByLabel("Name").fill("Initech");
  await page.getByRole("button", { name: "Create organisation" }).click();
  await expect(page.locator("#organisations")).toContainText("Initech");

  await page.getByRole("link", { name: "Users" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
  for (const [email, role, organisation] of [
    [ASSESSOR, "assessor", "Pilot Desk staff (staff)"],
    [REVIEWER, "assessor", "Pilot Desk staff (staff)"],
    [CUSTOMER, "customer", "Initech"],
  ]) {
    await page.getByLabel("E-mail address").fill(email);
    await page.getByLabel("Role").selectOption(role);
    await page.getByLabel("Organisation").selectOption({ label: organisation });
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create user" }).click();
    await expect(page.locator("#users")).toContainText(email);
  }

  await page.getByRole("link", { name: "Pilots", exact: true }).click();
  await page.getByRole("link", { name: "New pilot" }).click();
  await hydrated(page);
  await page.getByLabel("Customer organisation").selectOption({ label: "Initech" });
  await page.getByLabel("Name").fill(PILOT);
  await page.getByLabel("GPU count").fill("2");
  await page.getByLabel("GPU type").fill("NVIDIA L40S");
  await page.getByLabel("Engine version").fill("0.11.0");
  await page.getByRole("button", { name: "Create pilot" }).click();
  await expect(page.getByRole("heading", { level: 1, name: PILOT })).toBeVisible();
  const pilotPath = new URL(page.url()).pathname;
  await signOut(page);

  // The assessor starts the plan from the MLPerf Interactive template.
  await signIn(page, ASSESSOR, PASSWORD);
  await page.goto(pilotPath);
  await hydrated(page);
  await page.locator("#plan-summary").getByRole("link", { name: "Start the plan" }).click();
  await expect(page.getByRole("heading", { name: "Start the plan" })).toBeVisible();
  await hydrated(page);
  const template = page.locator('[data-template="mlperf-v6-llama2-70b-interactive"]');
  await expect(template).toContainText("Source: MLPerf");
  await template.getByRole("button", { name: /Start from MLPerf/ }).click();
  await expect(page.getByRole("heading", { name: "Draft version 1" })).toBeVisible();
  await expect(page.getByText("TTFT p99 ≤ 450 ms @ client").first()).toBeVisible();

  // Edit mark 1: a refused value is named next to the form; then 400 ms.
  const mark = page.locator("li.plan-mark").first();
  await mark.getByText("Edit mark 1").click();
  const threshold = mark.getByLabel("Threshold");
  await threshold.fill("-1");
  await expect(mark.locator(".mark-preview")).toContainText("threshold: must be greater than zero");
  await mark.getByRole("button", { name: "Save mark 1" }).click();
  await expect(mark.getByRole("alert")).toContainText("pass mark 1, threshold: must be greater than zero");
  await threshold.fill("400");
  await expect(mark.locator(".mark-preview")).toContainText("99 % of requests see their first token within 400 ms");
  await mark.getByRole("button", { name: "Save mark 1" }).click();
  await expect(page.getByText("TTFT p99 ≤ 400 ms @ client").first()).toBeVisible();
  await expect(page.getByText("TTFT p99 ≤ 450 ms @ client")).toHaveCount(0);

  // Four eyes: the author submits the draft for approval and is never offered Approve on it.
  await expect(page.getByRole("button", { name: "Approve version 1" })).toHaveCount(0);
  await page.getByRole("button", { name: "Submit version 1 for approval" }).click();
  await expect(page.getByText(`Submitted for approval by ${ASSESSOR}`).first()).toBeVisible();
  await signOut(page);

  // A second assessor finds it in the inbox on the pilots list and approves it on the plan page:
  // version 1 is in force, every mark not measured yet.
  await signIn(page, REVIEWER, PASSWORD);
  await page.goto("/");
  const inbox = page.locator("#approvals");
  await expect(inbox).toContainText(`${PILOT} · version 1`);
  await inbox.getByRole("link", { name: `${PILOT} · version 1` }).click();
  await expect(page).toHaveURL(new RegExp(`${pilotPath}/plan\\?version=1$`));
  await hydrated(page);
  await page.getByRole("button", { name: "Approve version 1" }).click();
  await expect(page).toHaveURL(new RegExp(`${pilotPath}/plan$`));
  await expect(page.locator("#approval")).toHaveCount(0);
  const inForce = page.locator("#plan-in-force");
  await expect(inForce).toContainText("Pass marks · version 1");
  await expect(inForce).toContainText(`approved by ${REVIEWER}`);
  await expect(inForce.getByText("In force")).toBeVisible();
  await expect(inForce.locator('[data-verdict="not_measured"]')).toHaveCount(2);
  // The editor now offers only an amendment: the approved version is frozen.
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Version 1 is approved and frozen" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Save mark/ })).toHaveCount(0);
  await signOut(page);

  // The customer sees the approved plan, read-only, on the pilot page and the plan page.
  await signIn(page, CUSTOMER, PASSWORD);
  await page.getByRole("link", { name: PILOT }).click();
  const summary = page.locator("#plan-summary");
  await expect(summary).toContainText("99 % of requests see their first token within 400 ms");
  await expect(summary.locator('[data-verdict="not_measured"]')).toHaveCount(2);
  await summary.getByRole("link", { name: "Open plan" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Pilot plan" })).toBeVisible();
  await expect(page.locator("#approved-only")).toContainText("You see the approved versions of this plan");
  await expect(page.getByText("TTFT p99 ≤ 400 ms @ client")).toBeVisible();
  await expect(page.getByRole("link", { name: "Edit", exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /Amend plan|Edit draft/ })).toHaveCount(0);
  // Read-only: no button in the page itself (the header keeps sign-out and the language switch).
  await expect(page.locator("#content").getByRole("button")).toHaveCount(0);
  await expect(page.getByRole("button")).toHaveText(["Sign out", "Deutsch"]);
  await page.getByRole("link", { name: "History" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Version 1" })).toBeVisible();
  const response = await page.goto(`${pilotPath}/plan/edit`);
  expect(response?.status()).toBe(404);

  expect(errors).toEqual([]);
});
