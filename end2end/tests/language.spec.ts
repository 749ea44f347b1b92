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
  // Back to German: the switch also saves it with the account, so the next sign-in (the next
  // test, in a fresh browser) starts in German; that test ends in English for the specs after.
  await page.getByRole("button", { name: "Deutsch" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  expect(errors).toEqual([]);
});

// Every page a German reader opens is served and hydrated in German: the heading in German and
// no page error (a hydration mismatch between the server's German and the browser's panics).
test("every page opens and hydrates in German", async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto("/login");
  await hydrated(page);
  await page.getByLabel("E-Mail-Adresse").fill(ADMIN_EMAIL);
  await page.getByLabel("Passwort").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Piloten" })).toBeVisible();
  const pilot = await page.getByRole("link", { name: "Support assistant: Qwen2.5-7B on 4× V100" }).getAttribute("href");
  const pages: [string, string][] = [
    [`${pilot}/plan`, "Pilotplan"],
    [`${pilot}/plan/history`, "Planverlauf"],
    [`${pilot}/load-tests`, "Lasttests"],
    [`${pilot}/traffic`, "Realer Verkehr"],
    [`${pilot}/quality`, "Antwortqualität"],
    [`${pilot}/evidence`, "Nachweise"],
    [`${pilot}/report`, "Pilotbericht"],
    ["/sizing", "Dimensionierung: Was-wäre-wenn"],
    ["/admin/users", "Benutzer"],
    ["/account", "Ihr Konto"],
  ];
  for (const [path, heading] of pages) {
    await page.goto(path);
    await hydrated(page);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { level: 1, name: heading, exact: true })).toBeVisible();
  }
  // The account's language choice switches back to English and returns to the account.
  await page.getByLabel("Sprache der Oberfläche").selectOption("en");
  await page.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  expect(errors).toEqual([]);
});
