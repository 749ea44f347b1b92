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
  // Dropping checks the file and stores nothing: its row lists what will be recorded, each
  // run-context value with its source, and waits for the confirmation.
  const first = page.locator(".upload-item").filter({ hasText: "bench_serve_v0.25.1.json" });
  await expect(first.locator(".upload-status")).toContainText("Checked: load test, not stored yet");
  const recorded = first.locator(".upload-recorded-table");
  // "Read settings from it" put the command's values into the fields, so they are typed; the
  // command itself still names the engine, which has no field of its own filled.
  await expect(recorded.locator("tr").filter({ hasText: "Tensor parallel" })).toContainText("2 (typed)");
  await expect(recorded.locator("tr").filter({ hasText: "CUDA graphs" })).toContainText("off (typed)");
  await expect(recorded.locator("tr").filter({ hasText: /^GPU\b/ }).first()).toContainText("(from the pilot's notes)");
  await expect(recorded.locator("tr").filter({ hasText: "Not stated" })).toContainText("KV-cache dtype");
  await expect(page.locator(".evidence-table")).not.toContainText("bench_serve_v0.25.1.json");
  // This file alone gets KV-cache dtype fp8, checked again before storing.
  await first.locator(".upload-override summary").click();
  await first.locator(".upload-override input[name=kv_dtype]").fill("fp8");
  await first.getByRole("button", { name: "Check again with these values" }).click();
  await expect(recorded.locator("tr").filter({ hasText: "KV-cache dtype" })).toContainText("fp8 (typed)");
  await expect(page.locator(".upload-confirm")).toContainText("1 file checked");
  await page.getByRole("button", { name: "Store 1 file" }).click();
  await expect(first.locator(".upload-status")).toContainText("Stored as evidence #");
  await expect(first.locator("progress")).toHaveAttribute("value", "100");
  await expect(first.locator(".upload-recorded-title")).toHaveText("Recorded");
  const stored = (await first.locator(".upload-status").textContent()) ?? "";
  const id = stored.match(/#(\d+)/)![1];
  // Once stored, the shared run-context fields are empty: nothing sticks to the next file.
  await expect(page.locator("#rc-tp")).toHaveValue("");
  await expect(page.locator("#serve_command")).toHaveValue("");

  // Several files through the zone's picker at once; the duplicate is refused at the check.
  await page.locator("#evidence-file").setInputFiles([AIPERF, BENCH]);
  const aiperf = page.locator(".upload-item").filter({ hasText: "profile_export_aiperf.json" });
  await expect(aiperf.locator(".upload-status")).toContainText("Checked: load test");
  // The first file's TP 2 is not carried over: nothing states one for this file.
  await expect(aiperf.locator(".upload-recorded-table tr").filter({ hasText: "Not stated" })).toContainText("Tensor parallel");
  await expect(page.locator(".upload-item.upload-error").filter({ hasText: "bench_serve_v0.25.1.json" }))
    .toContainText("Duplicate");
  await page.getByRole("button", { name: "Store 1 file" }).click();
  await expect(aiperf.locator(".upload-status")).toContainText("Stored as evidence #");
  await expect(page.locator(".evidence-table")).toContainText("bench_serve_v0.25.1.json");
  await expect(page.locator(".evidence-table")).toContainText("TP 2");

  // Its curve and table on the load-test page, with the file's own numbers.
  await page.getByRole("link", { name: "Load-test curves" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Load tests" })).toBeVisible();
  const file = JSON.parse(fs.readFileSync(BENCH, "utf8"));
  const run = page.locator(".run-card").filter({ hasText: "bench_serve_v0.25.1.json" });
  await expect(run).toBeVisible();
  // Latency sits in its own table beside goodput and throughput.
  const row = run.locator(".latency-table tbody tr").first();
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
  // The page compares at the percentile the plan grades at (the demo's marks are p99):
  // TTFT p99 121 → 77 ms.
  await expect(page.locator(".compare-table")).toContainText("TTFT p99 (ms)");
  await expect(page.locator(".compare-table")).toContainText("-36.4 %");
});
