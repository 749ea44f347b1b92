import { expect, test } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, hydrated, watchForErrors } from "./helpers";

// The interface in German (#37): a browser set to German gets the sign-in page, the frame and
// the pilots list in German, hydrates without errors, and the switch in the header changes the
// language and keeps it.
test.use({ locale: "de-DE" });

test("a German browser signs in, reads the pilots in German and switches to English", async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto("/login");
  await hydrated(page);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1, name: "Anmelden" })).toBeVisible();
  await page.getByLabel("E-Mail-Adresse").fill(ADMIN_EMAIL);
  await page.getByLabel("Passwort").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Piloten" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Abmelden" })).toBeVisible();
  await expect(page.locator("#pilots")).toContainText("Pilot-Hardware");

  // A client-side navigation keeps the language (the fragment comes from a server function).
  await page.getByRole("link", { name: "Dimensionierung" }).click();
  await page.getByRole("link", { name: "Piloten", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Piloten" })).toBeVisible();

  await page.getByRole("button", { name: "English" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1, name: "Pilots" })).toBeVisible();
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  // Back to German for whoever uses this browser next.
  await page.getByRole("button", { name: "Deutsch" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  expect(errors).toEqual([]);
});
