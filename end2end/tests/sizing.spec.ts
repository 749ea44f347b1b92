import { expect, test } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, hydrated, signIn, watchForErrors } from "./helpers";

test("the sizing what-if recomputes in the browser without a server round trip", async ({ page }) => {
  const errors = watchForErrors(page);
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.getByRole("link", { name: "Sizing", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sizing what-if" })).toBeVisible();
  await hydrated(page);

  // The guide's worked example is the default: Llama 3.3 70B, FP8, one RTX PRO 6000 Server Edition.
  await expect(page.locator("#sizing-sessions")).toHaveText("12");
  await expect(page.locator("#sizing-decode")).toHaveText("22.6");

  const requests: string[] = [];
  // (The browser fetches the tab's icon again when the address changes; that is not a recompute.)
  page.on("request", (request) => {
    if (!request.url().endsWith("/favicon.svg")) requests.push(request.url());
  });

  await page.getByLabel("GPU", { exact: true }).selectOption("h200-nvl");
  await expect(page.locator("#sizing-sessions")).toHaveText("44");
  await expect(page.locator("#sizing-decode")).toHaveText("68.0");

  await page.getByLabel("GPU", { exact: true }).selectOption("rtx-pro-6000-server");
  await page.getByLabel("TP", { exact: true }).fill("2");
  await expect(page.locator("#sizing-sessions")).toHaveText("78");
  await expect(page.locator("#sizing-decode")).toHaveText("45.2");

  await page.getByLabel("KV cache", { exact: true }).selectOption("16bit");
  await page.getByLabel("TP", { exact: true }).fill("1");
  await expect(page.locator("#sizing-sessions")).toHaveText("6");
  await expect(page.locator("#recommendation tbody tr").first()).toBeVisible();

  expect(requests, "no request left the browser while recomputing").toEqual([]);

  // The address follows the inputs, so a reload or a copied link opens the same what-if.
  await page.getByLabel("TP", { exact: true }).fill("2");
  await expect(page).toHaveURL(/[?&]kv=16bit(&|$)/);
  await expect(page).toHaveURL(/[?&]tp=2(&|$)/);
  await expect(page).toHaveURL(/[?&]gpu=rtx-pro-6000-server(&|$)/);
  await expect(page.getByLabel("TP", { exact: true })).toBeFocused();
  const sessions = await page.locator("#sizing-sessions").textContent();
  await page.reload();
  await hydrated(page);
  await expect(page.getByLabel("TP", { exact: true })).toHaveValue("2");
  await expect(page.getByLabel("KV cache", { exact: true })).toHaveValue("16bit");
  await expect(page.locator("#sizing-sessions")).toHaveText(sessions ?? "");
  expect(errors).toEqual([]);
});

test("a pilot's hardware opens in the sizing what-if", async ({ page }) => {
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.getByRole("link", { name: "Support assistant: Qwen2.5-7B on 4× V100" }).click();
  await page.getByRole("link", { name: "Size this pilot" }).click();
  await expect(page).toHaveURL(/model=qwen2\.5-7b/);
  await expect(page.getByLabel("Model", { exact: true })).toHaveValue("qwen2.5-7b");
  await expect(page.getByLabel("GPU", { exact: true })).toHaveValue("v100-sxm2-16gb");
  await expect(page.getByLabel("TP", { exact: true })).toHaveValue("4");
  await expect(page.locator("#sizing-fits")).toHaveText("Fits");
});

test("an admin's GPU price shows as cost in the recommendation", async ({ page }) => {
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.getByRole("link", { name: "GPUs" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "GPU catalog" })).toBeVisible();
  await hydrated(page);
  await page.getByLabel("Unit price of NVIDIA H200 NVL").fill("30000");
  await page.getByLabel("Unit price of NVIDIA H200 NVL").press("Enter");
  await expect(page.getByText("Price saved.")).toBeVisible();
  await page.getByRole("link", { name: "Sizing", exact: true }).click();
  await expect(page.locator("#recommendation")).toContainText("Cost");
  await expect(page.locator("#recommendation")).toContainText("30,000");
});
