import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, hydrated, signIn } from "./helpers";

// Issue #38: some full page loads of users who click on before a page has arrived, or reload,
// carried the plain-HTML policy instead of the page policy with its nonce, so the stylesheet,
// the scripts and the wasm were blocked and the page arrived dead. Two signed-in users (staff
// and the demo customer's contact) walk every page at once, each page once left before it
// loaded and once loaded and reloaded; every document must carry the page policy whose nonce
// its inline scripts carry, no resource may be blocked, and every page must end hydrated.
const PAGES = [
  "/",
  "/pilots/1",
  "/pilots/1/plan",
  "/pilots/1/plan/history",
  "/pilots/1/load-tests",
  "/pilots/1/traffic",
  "/pilots/1/quality",
  "/pilots/1/evidence",
  "/pilots/1/report",
  "/sizing",
  "/account",
];
const STAFF_ONLY = ["/pilots/1/calibration", "/pilots/1/plan/edit", "/admin/users", "/admin/organisations", "/admin/gpus"];
const CUSTOMER_EMAIL = "impatient.contact@demo.example";
const CUSTOMER_PASSWORD = "impatient-check-password-1";

/** Records every document's policy and body nonce, and every blocked or failed resource. */
function watch(page: Page, who: string, problems: string[]): void {
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/.test(message.text())) {
      problems.push(`${who} ${page.url()}: ${message.text().slice(0, 200)}`);
    }
  });
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "document") return;
    const type = response.headers()["content-type"] ?? "";
    if (!type.startsWith("text/html") || response.status() >= 300) return;
    const url = new URL(response.url());
    if (url.pathname.endsWith(".html")) return; // the report document has its own policy
    const policy = response.headers()["content-security-policy"] ?? "";
    let body = "";
    try {
      body = await response.text();
    } catch {
      return; // a document the user left before it arrived has no body to compare
    }
    const nonces = [...body.matchAll(/<script[^>]*nonce="([^"]+)"/g)].map((m) => m[1]);
    if (!policy.startsWith("default-src 'self'; script-src 'self' 'nonce-")) {
      problems.push(`${who} ${url.pathname}: left with the policy “${policy.slice(0, 60)}”`);
    } else if (nonces.length === 0 || nonces.some((n) => !policy.includes(`'nonce-${n}'`))) {
      problems.push(`${who} ${url.pathname}: script nonces ${nonces} not in its policy`);
    }
  });
}

async function customerContext(browser: Browser): Promise<BrowserContext> {
  const admin = await browser.newPage();
  await signIn(admin, ADMIN_EMAIL, ADMIN_PASSWORD);
  await admin.goto("/admin/users");
  await hydrated(admin);
  if (!(await admin.locator("#users").textContent())?.includes(CUSTOMER_EMAIL)) {
    await admin.getByLabel("E-mail address").fill(CUSTOMER_EMAIL);
    await admin.getByLabel("Role").selectOption("customer");
    await admin.getByLabel("Organisation").selectOption({ label: "Demo Customer" });
    await admin.getByLabel("Password").fill(CUSTOMER_PASSWORD);
    await admin.getByRole("button", { name: "Create user" }).click();
    await expect(admin.locator("#users")).toContainText(CUSTOMER_EMAIL);
  }
  await admin.close();
  return browser.newContext();
}

/** Every page: one left while it loads, then loaded, reloaded at once, and let hydrate. */
/** A navigation the user abandons: Chromium may report it aborted or interrupted by the next
 * one, which is the point, so only the server's answers (watched above) are judged here. */
async function leave(step: Promise<unknown>): Promise<void> {
  try {
    await step;
  } catch (error) {
    const text = String(error);
    if (!/ERR_ABORTED|interrupted by another navigation|Not attached|frame was detached/.test(text)) {
      throw error;
    }
  }
}

async function walkImpatiently(page: Page, paths: string[]): Promise<void> {
  for (let i = 0; i < paths.length; i++) {
    const next = paths[(i + 1) % paths.length];
    // Leave for the next page before this one finished.
    await leave(page.goto(paths[i], { waitUntil: "commit" }));
    await leave(page.goto(next, { waitUntil: "commit" }));
    // Load it again before it finished (a reload), then let it arrive whole.
    await leave(page.goto(next, { waitUntil: "commit" }));
    await page.goto(next, { waitUntil: "load" });
    await hydrated(page);
  }
}

test("two users navigating impatiently always get whole, hydrated pages", async ({ browser }) => {
  test.setTimeout(240_000);
  const problems: string[] = [];
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, ADMIN_EMAIL, ADMIN_PASSWORD);
  const customerCtx = await customerContext(browser);
  const customer = await customerCtx.newPage();
  await signIn(customer, CUSTOMER_EMAIL, CUSTOMER_PASSWORD);
  watch(staff, "staff", problems);
  watch(customer, "customer", problems);
  await Promise.all([
    walkImpatiently(staff, [...PAGES, ...STAFF_ONLY]),
    walkImpatiently(customer, PAGES),
  ]);
  await staffContext.close();
  await customerCtx.close();
  expect(problems).toEqual([]);
});
