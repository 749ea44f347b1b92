// The pilot page's first load in a real Chromium, for `make bench` (part 5): bytes on the wire
// by kind (the HTML, the script, the wasm module, the stylesheet, everything) and the time from
// navigation to interactive, i.e. until the wasm module has hydrated the server's HTML (the app
// sets `window.__pilotDeskHydrated`; an init script notes the moment it is set).
//
// Each profile loads the page in a fresh browser context (empty cache) RUNS times; the median
// run is printed. Profiles: this machine as it is, and a laptop on a slow link: 9 Mbit/s down,
// 40 ms round trip, the CPU 4x slower (Chrome DevTools' emulation, as Lighthouse does).
//
// usage: node bench/first_load.cjs BASE_URL SESSION_COOKIE [RUNS]
// env:   PLAYWRIGHT_MODULE (path of @playwright/test), CHROMIUM_PATH
"use strict";
const { chromium } = require(process.env.PLAYWRIGHT_MODULE || "@playwright/test");

const [base, session, runsArg] = process.argv.slice(2);
const RUNS = Number(runsArg || 5);
const PROFILES = [
  { name: "this machine, no throttling", network: null, cpu: 1 },
  {
    name: "9 Mbit/s, 40 ms RTT, 4x slower CPU",
    network: { latency: 40, downloadThroughput: (9e6 / 8), uploadThroughput: (3e6 / 8) },
    cpu: 4,
  },
];

// Where a response's bytes are counted.
function kind(mime, url) {
  if (mime.includes("wasm") || url.endsWith(".wasm")) return "wasm";
  if (mime.includes("javascript")) return "js";
  if (mime.includes("css")) return "css";
  if (mime.includes("html")) return "html";
  return "other";
}

async function once(browser, profile) {
  const context = await browser.newContext();
  const host = new URL(base).hostname;
  await context.addCookies([{ name: "pilotdesk_session", value: session, domain: host, path: "/" }]);
  await context.addInitScript(() => {
    let hydrated = false;
    Object.defineProperty(window, "__pilotDeskHydrated", {
      configurable: true,
      get: () => hydrated,
      set: (v) => {
        hydrated = v;
        window.__interactiveAt = performance.now();
      },
    });
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  if (profile.network) {
    await cdp.send("Network.emulateNetworkConditions", { offline: false, ...profile.network });
  }
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: profile.cpu });
  const requests = new Map();
  const bytes = { html: 0, js: 0, wasm: 0, css: 0, other: 0 };
  cdp.on("Network.responseReceived", (e) => requests.set(e.requestId, kind(e.response.mimeType || "", e.response.url)));
  cdp.on("Network.loadingFinished", (e) => {
    const k = requests.get(e.requestId) || "other";
    bytes[k] += e.encodedDataLength;
  });
  const response = await page.goto(`${base}/pilots/1`, { waitUntil: "load" });
  if (!response || response.status() !== 200) throw new Error(`/pilots/1 answered ${response && response.status()}`);
  await page.waitForFunction(() => window.__pilotDeskHydrated === true, null, { timeout: 60_000 });
  const timing = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0];
    return {
      interactive: window.__interactiveAt,
      html: nav.responseEnd,
      paint: (performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime || null,
    };
  });
  await page.waitForTimeout(200); // the last loadingFinished events
  await context.close();
  return { ...timing, bytes };
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  const kb = (n) => (n / 1000).toFixed(1).padStart(8);
  for (const profile of PROFILES) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await once(browser, profile));
    runs.sort((a, b) => a.interactive - b.interactive);
    const mid = runs[Math.floor((runs.length - 1) / 2)];
    const total = Object.values(mid.bytes).reduce((a, b) => a + b, 0);
    console.log(`Pilot page first load, ${profile.name} (median of ${RUNS}, empty cache)`);
    console.log(`  on the wire, kB: wasm ${kb(mid.bytes.wasm)}  js ${kb(mid.bytes.js)}  html ${kb(mid.bytes.html)}  css ${kb(mid.bytes.css)}  other ${kb(mid.bytes.other)}  total ${kb(total)}`);
    console.log(`  first contentful paint ${mid.paint ? mid.paint.toFixed(0) : "-"} ms, HTML received ${mid.html.toFixed(0)} ms, interactive (hydrated) ${mid.interactive.toFixed(0)} ms (runs: ${median(runs.map((r) => r.interactive)).toFixed(0)} median, ${runs[0].interactive.toFixed(0)}-${runs[runs.length - 1].interactive.toFixed(0)})`);
  }
  await browser.close();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
