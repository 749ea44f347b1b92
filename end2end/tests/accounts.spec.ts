import { expect, test } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, hydrated, signIn, signOut, watchForErrors } from "./helpers";

const CUSTOMER_PASSWORD = "customer password 1";

test.beforeAll(() => {
  expect(ADMIN_PASSWORD, "ADMIN_PASSWORD comes from the server's first start").not.toBe("");
});

test("a customer sees their organisation's pilot and another customer gets a 404 for it", async ({ page }) => {
  const errors = watchForErrors(page);

  // The admin signs in and sets up two customer organisations with one user each.
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await expect(page.getByRole("link", { name: "Support assistant: Qwen2.5-7B on 4× V100" })).toBeVisible();

  await page.getByRole("link", { name: "Organisations" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Organisations" })).toBeVisible();
  for (const name of ["Acme Corp", "Globex"]) {
    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Create organisation" }).click();
    await expect(page.locator("#organisations")).toContainText(name);
  }

  await page.getByRole("link", { name: "Users" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
  for (const [email, organisation] of [
    ["carol@acme.example", "Acme Corp"],
    ["dan@globex.example", "Globex"],
  ]) {
    await page.getByLabel("E-mail address").fill(email);
    await page.getByLabel("Role").selectOption("customer");
    await page.getByLabel("Organisation").selectOption({ label: organisation });
    await page.getByLabel("Password").fill(CUSTOMER_PASSWORD);
    await page.getByRole("button", { name: "Create user" }).click();
    await expect(page.locator("#users")).toContainText(email);
    // The form empties after success, so a second click cannot create a duplicate.
    await expect(page.getByLabel("E-mail address")).toHaveValue("");
  }

  // A password reset asks first, naming the account; Cancel changes nothing.
  await page.getByLabel("E-mail address").fill("erin@globex.example");
  await page.getByLabel("Organisation").selectOption({ label: "Globex" });
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.locator("#users")).toContainText("erin@globex.example");
  const erin = page.locator("#users tr").filter({ hasText: "erin@globex.example" });
  await erin.getByRole("button", { name: "Reset password" }).click();
  await expect(erin).toContainText("Reset the password of erin@globex.example?");
  await erin.getByRole("button", { name: "Cancel" }).click();
  await expect(erin).not.toContainText("Reset the password of");
  await erin.getByRole("button", { name: "Reset password" }).click();
  await erin.getByRole("button", { name: "Reset", exact: true }).click();
  // One password from creating the account (none was typed), one from the reset.
  await expect(page.getByRole("status").filter({ hasText: "Password for erin@globex.example:" })).toHaveCount(2);

  // A pilot for Acme.
  await page.getByRole("link", { name: "Pilots" }).click();
  await page.getByRole("link", { name: "New pilot" }).click();
  await page.getByLabel("Customer organisation").selectOption({ label: "Acme Corp" });
  await page.getByLabel("Name").fill("Acme support chat");
  await page.getByLabel("Model").fill("Qwen/Qwen3-8B");
  await page.getByLabel("GPU count").fill("2");
  await page.getByLabel("GPU type").fill("NVIDIA L40S");
  await page.getByRole("button", { name: "Create pilot" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Acme support chat" })).toBeVisible();
  await expect(page.getByText("2 × NVIDIA L40S")).toBeVisible();
  const pilotUrl = new URL(page.url()).pathname;
  expect(pilotUrl).toMatch(/^\/pilots\/\d+$/);
  await signOut(page);

  // Carol (Acme) sees it, read-only.
  await signIn(page, "carol@acme.example", CUSTOMER_PASSWORD);
  await expect(page.getByRole("link", { name: "Acme support chat" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Support assistant: Qwen2.5-7B on 4× V100" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "New pilot" })).toHaveCount(0);
  await page.getByRole("link", { name: "Acme support chat" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Acme support chat" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Edit pilot" })).toHaveCount(0);
  await signOut(page);

  // Dan (Globex) does not see it, and opening its address is a 404.
  await signIn(page, "dan@globex.example", CUSTOMER_PASSWORD);
  await expect(page.getByText("No pilots yet")).toBeVisible();
  const response = await page.goto(pilotUrl);
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Not found", { exact: true })).toBeVisible();
  await expect(page.getByText("Acme support chat")).toHaveCount(0);

  expect(errors).toEqual([]);
});

test("an anonymous visitor is sent to sign in and then to the page they asked for", async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login\?next=\/account$/);
  await hydrated(page);
  await page.getByLabel("E-mail address").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill("certainly not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toContainText("E-mail address or password is wrong");
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expect(page.getByText("Administrator").first()).toBeVisible();
  expect(errors).toEqual([]);
});
