import { expect, test } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, hydrated, signIn, watchForErrors } from "./helpers";

// A live pilot (issue #36): an assessor makes an ingest token on the traffic page, the gateway
// posts its records with it, and the open pilot page shows them without being reloaded.

const PILOT = `Live feed ${Date.now()}`;

function record(id: string, startMs: number) {
  return {
    request_id: id,
    start_time: new Date(startMs).toISOString(),
    end_time: new Date(startMs + 2_000).toISOString(),
    model: "Qwen/Qwen3-8B",
    status: "ok",
    prompt_tokens: 100,
    completion_tokens: 50,
  };
}

test("a gateway's records reach the open pilot page without a reload", async ({ page, playwright }) => {
  test.setTimeout(150_000);
  const errors = watchForErrors(page);
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.getByRole("link", { name: "New pilot" }).click();
  await hydrated(page);
  await page.getByLabel("Name").fill(PILOT);
  await page.getByLabel("Model").fill("Qwen/Qwen3-8B");
  await page.getByRole("button", { name: "Create pilot" }).click();
  await expect(page.getByRole("heading", { level: 1, name: PILOT })).toBeVisible();
  const pilotPath = new URL(page.url()).pathname;
  const pilotId = pilotPath.split("/").pop();
  // No feed yet: no live card.
  await expect(page.locator("#live-feed")).toHaveCount(0);

  await page.getByRole("link", { name: "Traffic", exact: true }).click();
  await hydrated(page);
  const tokens = page.locator("#live-tokens");
  await expect(tokens).toContainText("No ingest tokens yet");
  await tokens.getByLabel("New ingest token").fill("litellm-e2e");
  await tokens.getByRole("button", { name: "Create token" }).click();
  const secret = (await page.locator("#new-ingest-token").innerText()).trim();
  expect(secret).toMatch(/^pdi_[0-9a-f]{64}$/);
  await expect(page.locator("#ingest-tokens")).toContainText("litellm-e2e");
  await expect(page.locator("#ingest-tokens")).toContainText("active");

  // The gateway: a context of its own, only the token.
  const gateway = await playwright.request.newContext({
    baseURL: new URL(page.url()).origin,
    extraHTTPHeaders: { Authorization: `Bearer ${secret}` },
  });
  const post = async (records: object[]) => {
    const response = await gateway.post(`/api/v1/pilots/${pilotId}/gateway/records`, { data: records });
    expect(response.status()).toBe(200);
    return response.json();
  };
  const now = Date.now();
  expect((await post([record("e2e-1", now - 60_000)])).accepted).toBe(1);

  await page.goto(pilotPath);
  await hydrated(page);
  const live = page.locator("#live-feed");
  await expect(live).toContainText("1 request received");
  await expect(live).toContainText(/last record \d+ s ago/);

  // Two more while the page stays open: it loads them on its own (every 30 s).
  const answer = await post([record("e2e-2", now - 30_000), record("e2e-3", now - 20_000), record("e2e-1", now - 60_000)]);
  expect([answer.accepted, answer.duplicates]).toEqual([2, 1]);
  await expect(live).toContainText("3 requests received", { timeout: 70_000 });
  await gateway.dispose();
  expect(errors).toEqual([]);
});
