import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "../fixtures";

/**
 * No serious or critical axe finding on the page as it stands. Axe runs inside the page (legacy
 * mode): the default mode opens a second, blank page for each scan to finish it in, which cost
 * about 1 s a scan (1.6 s against 0.6 s for the sign-in page, 10.8 s against 6.5 s for the API
 * reference), across some 130 scans a run. Legacy mode only skips iframes from other origins, and
 * Kassa's pages have no iframes.
 */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes[0]?.target})`)).toEqual([]);
}

/** The page fits its viewport's width: nothing makes the reader scroll sideways. */
export async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}
