import { expect, test } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, hydrated, signIn } from "./helpers";

// No page scrolls sideways on a laptop or a phone: wide tables scroll inside their card and
// commands wrap (#22). Every page of the demo pilot and the shared pages, as an admin.
const PAGES = [
  "/",
  "/pilots/1",
  "/pilots/1/plan",
  "/pilots/1/plan/edit",
  "/pilots/1/plan/history",
  "/pilots/1/load-tests",
  "/pilots/1/traffic",
  "/pilots/1/quality",
  "/pilots/1/evidence",
  "/pilots/1/calibration",
  "/pilots/1/report",
  "/sizing",
  "/account",
  "/admin/users",
  "/admin/organisations",
];

for (const [width, height] of [[1366, 900], [390, 844]]) {
  test(`no page scrolls sideways at ${width} px`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height });
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    const wide: string[] = [];
    for (const path of PAGES) {
      await page.goto(path);
      await hydrated(page);
      await page.waitForLoadState("networkidle");
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
      if (scroll > width) wide.push(`${path}: ${scroll} px`);
    }
    expect(wide).toEqual([]);
  });
}
