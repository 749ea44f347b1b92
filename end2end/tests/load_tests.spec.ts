import { expect, test } from "@playwright/test";
import * as fs from "fs";
import * as path from "path";
import { ADMIN_EMAIL, ADMIN_PASSWORD, hydrated, signIn, watchForErrors } from "./helpers";

const FIXTURES = path.resolve(__dirname, "../../testdata");
const BENCH = path.join(FIXTURES, "er0080-vllm-benchmarking/bench_serve_v0.25.1.json");
const AIPERF = path.join(FIXTURES, "aiperf-examples-run1/profile_export_aiperf.json");

/** The pages' number format: up to two decimals, trailing zeros dropped, thousands separated. */
function fmt(value: number): string {
  let text = value.toFixed(2).replace(/0+$/, "").replace(/\.$/, "");
  const [int, frac] = text.split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return frac ? `${grouped}.${frac}` : grouped;
}

test("load-test files dropped on the evidence page upload with progress and show their curves", async ({ page }) => {
  const errors = watchForErrors(page);
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.getByRole("link", { name: "Support assistant: Qwen2.5-7B on 4× V100" }).click();
  await page.getByRole("link", { name: "Evidence", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Evidence" })).toBeVisible();
  await hydrated(page);
  // The demo pilot starts with the benchmark report's evidence.
  await expect(page.locator(".evidence-table")).toContainText("v100-qwen-benchmark-report.jsonl");

  // The pasted command line fills the run-context fields in the browser.
  await page.locator("#serve_command").fill(
    "vllm serve /mnt/models \\\n  --tensor-parallel-size 2 \\\n  --dtype half \\\n  --max-num-seqs 64 \\\n  --enforce-eager",
  );
  await page.getByRole("button", { name: "Read settings from it" }).click();
  await expect(page.getByText("Read: vLLM · weights fp16 · TP 2 · max_num_seqs 64 · CUDA graphs off")).toBeVisible();
  await expect(page.locator("#rc-tp")).toHaveValue("2");

  // Drag and drop: a DataTransfer with the fixture, dropped on the zone.
  const bytes = Array.from(fs.readFileSync(BENCH));
  const dataTransfer = await page.evaluateHandle((data) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(data)], "bench_serve_v0.25.1.json", { type: "application/json" }));
    return dt;
  }, bytes);
  await page.locator(".dropzone").dispatchEvent("dragenter", { dataTransfer });
  await page.locator(".dropzone").dispatchEvent("drop", { dataTransfer });
  const first = page.locator(".upload-item").filter({ hasText: "bench_serve_v0.25.1.json" });
  await expect(first.locator(".upload-status")).toContainText("Stored as evidence #");
  await expect(first.locator("progress")).toHaveAttribute("value", "100");
  const stored = (await first.locator(".upload-status").textContent()) ?? "";
  const id = stored.match(/#(\d+)/)![1];

  // Several files through the zone's picker at once; a duplicate is recognised.
  await page.locator("#evidence-file").setInputFiles([AIPERF, BENCH]);
  await expect(page.locator(".upload-item").filter({ hasText: "profile_export_aiperf.json" }).locator(".upload-status"))
    .toContainText("Stored as evidence #");
  await expect(page.locator(".upload-item.upload-error").filter({ hasText: "bench_serve_v0.25.1.json" }))
    .toContainText("Duplicate");
  await expect(page.locator(".evidence-table")).toContainText("bench_serve_v0.25.1.json");
  await expect(page.locator(".evidence-table")).toContainText("TP 2");

  // Its curve and table on the load-test page, with the file's own numbers.
  await page.getByRole("link", { name: "Load-test curves" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Load tests" })).toBeVisible();
  const file = JSON.parse(fs.readFileSync(BENCH, "utf8"));
  const run = page.locator(".run-card").filter({ hasText: "bench_serve_v0.25.1.json" });
  await expect(run).toBeVisible();
  const row = run.locator("tbody tr").first();
  await expect(row).toContainText(fmt(file.p99_ttft_ms));
  await expect(row).toContainText(fmt(file.median_tpot_ms));
  await expect(page.locator("#chart-ttft svg")).toBeVisible();
  // The file reports p99 (vLLM's default percentile), so its line is on the p99 curves.
  await page.getByRole("link", { name: "p99 curves" }).click();
  await expect(page.locator("#chart-ttft")).toContainText("TTFT p99 vs concurrency");
  // Lines are named by what differs between them (here the serving configuration), never by
  // the file: the upload's TP 2 beside the demo's TP 4.
  await expect(page.locator("#chart-ttft")).toContainText("TP 2");
  await expect(page.locator("#chart-ttft")).not.toContainText(`#${id}: `);
  await expect(page.locator(".capacity-table")).toContainText("every target holds up to concurrency 4; missed at 8");
  expect(errors).toEqual([]);
});

test("the compare page sets a run against a baseline", async ({ page }) => {
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.getByRole("link", { name: "Support assistant: Qwen2.5-7B on 4× V100" }).click();
  await page.getByRole("link", { name: "Load tests" }).click();
  await page.getByRole("link", { name: "Compare runs" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Compare load tests" })).toBeVisible();
  const baseline = page.getByLabel("Baseline");
  const options = await baseline.locator("option").allTextContents();
  const longC1 = options.findIndex((o) => o.includes("long prompt") && o.endsWith("concurrency 1"));
  await baseline.selectOption({ index: longC1 });
  await page.locator(".compare-runs label").filter({ hasText: /short prompt → long answer · concurrency 1$/ }).locator("input").check();
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page.locator(".compare-table")).toContainText("-37.1 %");
});
