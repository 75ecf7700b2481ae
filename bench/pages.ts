import { spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { DASHBOARD_PAGES } from "@/components/dashboard/pages";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../e2e/chromium";
import { recordRun } from "./record-run";
import { startServer, stopServer } from "./server";
import { signIn } from "./session";

/**
 * `npm run bench:pages`: the weight of Kassa's pages as a browser loads them from the production
 * build (the JavaScript each page's HTML references, raw and gzipped), and Lighthouse's scores for
 * the hosted checkout in Debian's Chromium. Records the results in docs/benchmarks/.
 *   npm run bench:pages -- [--no-lighthouse] [--no-record]
 */
const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const PORT = 3298;
const base = `http://127.0.0.1:${PORT}`;

async function createCheckout(dataDir: string): Promise<string> {
  const credentials = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8"));
  const body = JSON.stringify({
    end_user_reference: "bench-1",
    timer: true,
    title: "Two concert tickets",
    description: "Row 12, seats 4 and 5",
    foreign_id: `bench-${Date.now()}`,
    currency: "EUR",
    amount: "120",
    url_success: "https://shop.example/paid",
    url_failed: "https://shop.example/failed",
    email_user: "buyer@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
    sender_currency: "BTC",
  });
  const response = await fetch(`${base}/api/v2/invoices/create`, {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "x-processing-key": credentials.api_key,
      "x-processing-signature": createHmac("sha512", credentials.api_secret).update(body).digest("hex"),
    },
  });
  return new URL((await response.json()).data.url).pathname;
}

/** The scripts a page's HTML loads, as a browser's first visit fetches them. */
async function pageWeight(pathname: string, cookie?: string) {
  const page = await fetch(`${base}${pathname}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  if (page.status !== 200) throw new Error(`${pathname}: ${page.status}`);
  const html = await page.text();
  // Modern browsers skip `nomodule` scripts (the legacy polyfills), so they are not counted.
  const tags = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
  const sources = [
    ...new Set(
      tags
        .filter((attributes) => !/nomodule/i.test(attributes))
        .map((attributes) => /src="([^"]+)"/.exec(attributes)?.[1])
        .filter((src): src is string => Boolean(src)),
    ),
  ];
  let raw = 0;
  let gzip = 0;
  const chunks: { source: string; gzip: number }[] = [];
  for (const source of sources) {
    const bytes = Buffer.from(await (await fetch(new URL(source, base))).arrayBuffer());
    raw += bytes.length;
    const size = gzipSync(bytes, { level: 9 }).length;
    gzip += size;
    chunks.push({ source, gzip: size });
  }
  return {
    pathname,
    chunks,
    scripts: sources.length,
    rawKb: (raw / 1024).toFixed(1),
    gzipKb: (gzip / 1024).toFixed(1),
    htmlKb: (Buffer.byteLength(html) / 1024).toFixed(1),
  };
}

async function lighthouse(url: string) {
  const { default: run } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS],
  });
  try {
    const result = await run(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices"],
    });
    const categories = result!.lhr.categories;
    const score = (key: string) => Math.round((categories[key]?.score ?? 0) * 100);
    return {
      performance: score("performance"),
      accessibility: score("accessibility"),
      bestPractices: score("best-practices"),
      formFactor: result!.lhr.configSettings.formFactor,
    };
  } finally {
    chrome.kill();
  }
}

spawnSync(process.execPath, [path.join(root, "scripts", "ensure-build.mjs")], {
  cwd: root,
  stdio: "inherit",
});
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-pages-"));
const server = await startServer(PORT, { KASSA_DATA_DIR: dataDir });
try {
  const checkout = await createCheckout(dataDir);
  const weights: Awaited<ReturnType<typeof pageWeight>>[] = [];
  for (const pathname of [checkout, "/", "/docs/api", "/login"]) weights.push(await pageWeight(pathname));
  const credentials = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8"));
  const cookie = await signIn(base, credentials);
  for (const { href } of DASHBOARD_PAGES) weights.push(await pageWeight(href, cookie));
  // What each page adds over the framework's shared chunks (the ones the plain home page loads too).
  const shared = new Set(weights.find((w) => w.pathname === "/")!.chunks.map((c) => c.source));
  const ownKb = (w: (typeof weights)[number]) =>
    (w.chunks.filter((c) => !shared.has(c.source)).reduce((sum, c) => sum + c.gzip, 0) / 1024).toFixed(1);
  const scores = args.includes("--no-lighthouse") ? undefined : await lighthouse(`${base}${checkout}`);
  const lines = [
    `### Pages, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    "First-load JavaScript of the production build that a modern browser downloads, as referenced by each page's HTML",
    "(gzip at level 9; the `nomodule` legacy polyfills, which modern browsers skip, are left out):",
    "",
    "| page | scripts | JS raw KB | JS gzip KB | of which the page's own (gzip KB) | HTML KB |",
    "|---|---:|---:|---:|---:|---:|",
    ...weights.map(
      (w) =>
        `| ${w.pathname.startsWith("/pay/") ? "/pay/[token]" : w.pathname} | ${w.scripts} | ${w.rawKb} | ${w.gzipKb} | ${ownKb(w)} | ${w.htmlKb} |`,
    ),
    "",
    scores
      ? `Lighthouse (${scores.formFactor}, Debian Chromium, /pay/[token] with a fixed currency): performance ${scores.performance}, accessibility ${scores.accessibility}, best practices ${scores.bestPractices}.`
      : "Lighthouse: not run (--no-lighthouse).",
    "",
  ];
  const report = lines.join("\n");
  console.log(`\n${report}`);
  if (!args.includes("--no-record")) console.log(`recorded in ${recordRun("pages", report)}`);
} finally {
  await stopServer(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
