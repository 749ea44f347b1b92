import { expect, type Page, test } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, hydrated, signIn } from "./helpers";

// No page scrolls sideways on a laptop or a phone, no text is squeezed into a column a few
// letters wide, and nothing is cut off: commands wrap, charts and wide tables scroll inside their
// card on a phone only (#22, #37). Every page of the demo pilot and the shared pages, and the report document
// in both languages, as an admin and as the demo customer's contact.
const STAFF_PAGES = [
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
  "/pilots/1/report.html",
  "/pilots/1/report.html?lang=de",
  "/sizing",
  "/account",
  "/admin/users",
  "/admin/organisations",
];
const CUSTOMER_PAGES = [
  "/",
  "/pilots/1",
  "/pilots/1/plan",
  "/pilots/1/plan/history",
  "/pilots/1/load-tests",
  "/pilots/1/traffic",
  "/pilots/1/quality",
  "/pilots/1/evidence",
  "/pilots/1/report",
  "/pilots/1/report.html?lang=de",
  "/sizing",
  "/account",
];
const CUSTOMER_EMAIL = "layout.contact@demo.example";
const CUSTOMER_PASSWORD = "layout-check-password-1";

/** Text blocks narrower than eight average characters of their own font: a column squeezed
 *  until its words stand one or two letters to a line. Scrolling containers (a table in its
 *  card, a chart on a phone) are where overflow is meant to go, so what is inside them counts
 *  at its laid-out width. */
async function squeezed(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const blocks = document.querySelectorAll("main p, main li, main td, main th, main dd, main dt, main label, main h1, main h2, main h3");
    for (const element of Array.from(blocks)) {
      const text = (element.textContent ?? "").trim();
      if (text.length < 12 || !/[A-Za-z]{4}/.test(text)) continue;
      const style = getComputedStyle(element);
      if (style.display === "none" || style.visibility === "hidden") continue;
      // Labels kept for screen readers only are 1 px on purpose.
      if (element.closest(".visually-hidden")) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const em = parseFloat(style.fontSize) || 16;
      if (box.width < 8 * 0.55 * em) {
        found.push(`${element.tagName.toLowerCase()} “${text.slice(0, 40)}” ${Math.round(box.width)} px`);
      }
    }
    return found;
  });
}

/** Content cut off (#37): an element that hides what overflows it (a cell, a button, a label, a
 *  badge) while holding more than it shows; a cell, button or label whose text runs out of its
 *  box over its neighbours; and, on a laptop, a table or chart that only shows all its columns
 *  when scrolled inside its card (on a phone that scroll is where a wide table is meant to go).
 *  An ellipsis that keeps the whole text in a `title` is a deliberate cut and counts as read. */
async function clipped(page: Page, laptop: boolean): Promise<string[]> {
  return page.evaluate((laptop) => {
    const found: string[] = [];
    const spills = new Set(["TD", "TH", "BUTTON", "LABEL", "DT", "DD", "SELECT", "INPUT"]);
    const name = (element: Element) => {
      const id = element.id ? `#${element.id}` : "";
      const cls = typeof element.className === "string" && element.className ? `.${element.className.split(/\s+/)[0]}` : "";
      const text = (element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      return `${element.tagName.toLowerCase()}${id}${cls} “${text}”`;
    };
    for (const element of Array.from(document.querySelectorAll("main *"))) {
      if (!(element instanceof HTMLElement)) continue;
      if (element.closest(".visually-hidden")) continue;
      const style = getComputedStyle(element);
      if (style.display === "none" || style.display === "inline" || style.visibility === "hidden") continue;
      // A control kept for the keyboard and screen readers behind a drop zone is 1 px and
      // transparent on purpose.
      if (element.clientWidth <= 2 || style.opacity === "0") continue;
      const over = element.scrollWidth - element.clientWidth;
      if (over <= 1) continue;
      const x = style.overflowX;
      if (x === "hidden" || x === "clip") {
        if (style.textOverflow === "ellipsis" && element.title.trim() !== "") continue;
        found.push(`${name(element)} hides ${over} px of its content`);
      } else if (x === "auto" || x === "scroll") {
        if (laptop) found.push(`${name(element)} scrolls ${over} px sideways`);
      } else if (spills.has(element.tagName)) {
        found.push(`${name(element)} runs ${over} px out of its box`);
      }
    }
    return found;
  }, laptop);
}

async function check(page: Page, paths: string[], width: number): Promise<string[]> {
  const problems: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    // The report document is plain HTML (no script): nothing to hydrate.
    if (!path.includes("report.html")) await hydrated(page);
    await page.waitForLoadState("networkidle");
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    if (scroll > width) problems.push(`${path}: ${scroll} px wide`);
    for (const narrow of await squeezed(page)) problems.push(`${path}: ${narrow}`);
    for (const cut of await clipped(page, width >= 1024)) problems.push(`${path}: ${cut}`);
  }
  return problems;
}

/** The demo customer's contact, created once through the Users page. */
async function ensureCustomer(page: Page): Promise<void> {
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.goto("/admin/users");
  await hydrated(page);
  if (!(await page.locator("#users").textContent())?.includes(CUSTOMER_EMAIL)) {
    await page.getByLabel("E-mail address").fill(CUSTOMER_EMAIL);
    await page.getByLabel("Role").selectOption("customer");
    await page.getByLabel("Organisation").selectOption({ label: "Demo Customer" });
    await page.getByLabel("Password").fill(CUSTOMER_PASSWORD);
    await page.getByRole("button", { name: "Create user" }).click();
    await expect(page.locator("#users")).toContainText(CUSTOMER_EMAIL);
  }
  await page.context().clearCookies();
}

for (const [width, height] of [[1366, 900], [390, 844]]) {
  test(`no page scrolls sideways, squeezes or cuts its text at ${width} px, as staff`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height });
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(await check(page, STAFF_PAGES, width)).toEqual([]);
  });

  test(`no page scrolls sideways, squeezes or cuts its text at ${width} px, as a customer`, async ({ page }) => {
    test.setTimeout(180_000);
    await ensureCustomer(page);
    await page.setViewportSize({ width, height });
    await signIn(page, CUSTOMER_EMAIL, CUSTOMER_PASSWORD);
    expect(await check(page, CUSTOMER_PAGES, width)).toEqual([]);
  });
}
