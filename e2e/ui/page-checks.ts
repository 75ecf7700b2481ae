import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import type axe from "axe-core";
import { expect } from "../fixtures";

/**
 * axe-core's minified build (the same rules): a page parses and runs it in 270 to 330 ms of its main
 * thread, against 375 to 480 ms for the readable `axe.source`, once per document scanned.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

type Finding = { id: string; impact: string; help: string; target: string };

/**
 * No serious or critical axe finding on the page as it stands. Axe is loaded into the page once per
 * document (a client-side navigation keeps it) and asked for violations only: the passes of a big
 * page (every node of the API reference) are what cost, and nothing reads them. AxeBuilder injected
 * axe again and carried every result back on each scan: 0.9 s against 0.5 s for the home page,
 * 4.4 s against 1.9 s for the API reference, across some 150 scans a run.
 */
export async function expectAccessible(page: Page) {
  // After a client-side navigation the page's <title> comes with its metadata, which can land after the
  // content a test waited for: a CI run's scan once found no title there. Scan once it is in, and fail
  // saying so if it never comes.
  await expect.poll(() => page.title(), { message: "the page has a <title>", timeout: 10_000 }).not.toBe("");
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const findings: Finding[] = await page.evaluate(async () => {
    const { violations } = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      resultTypes: ["violations"],
    });
    return violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? "",
      help: v.help,
      target: String(v.nodes[0]?.target ?? ""),
    }));
  });
  const serious = findings.filter((f) => f.impact === "serious" || f.impact === "critical");
  expect(serious.map((f) => `${f.id}: ${f.help} (${f.target})`)).toEqual([]);
}

/** The page fits its viewport's width: nothing makes the reader scroll sideways. */
export async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/**
 * A screenshot, once the browser has drawn two frames of the page as it stands. Chromium captures from
 * the compositor, and a capture asked for right after a viewport change, or of a page that has drawn
 * nothing for a while, can wait on a frame that is slow to come: one CI run's test (15 s on an idle
 * machine) ran out of its 60 s inside a full-page capture taken just after a resize. Asking for
 * animation frames first makes the compositor draw. The wait gives up after 2 s (a page opened with
 * JavaScript off never answers it), and the capture's own 15 s limit names the step if it stalls.
 */
export async function capture(page: Page, options: Parameters<Page["screenshot"]>[0] = {}) {
  const drawn = page
    .evaluate(
      () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
    )
    .catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([drawn, new Promise<void>((done) => (timer = setTimeout(done, 2_000)))]);
  clearTimeout(timer);
  return page.screenshot({ timeout: 15_000, ...options });
}
