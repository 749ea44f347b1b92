import { expect, type Page } from "@playwright/test";

export const ADMIN_EMAIL = "admin@pilotdesk.local";
export const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? "";

/** Collects uncaught page errors and failed asset loads, so a broken hydration fails the test. */
export function watchForErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  page.on("response", (response) => {
    if (response.url().includes("/pkg/") && response.status() >= 400) {
      errors.push(`asset ${response.url()} answered ${response.status()}`);
    }
  });
  return errors;
}

/** Waits until the wasm bundle has loaded and hydrated the page. */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as any).__pilotDeskHydrated === true, null, { timeout: 30_000 });
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await hydrated(page);
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Pilots" })).toBeVisible();
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
}
