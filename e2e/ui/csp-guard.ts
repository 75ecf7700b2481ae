import type { Locator, Page } from "@playwright/test";
import { expect } from "../fixtures";

/**
 * Records every Content-Security-Policy violation a page reports, across navigations: the
 * `securitypolicyviolation` events (through a binding Playwright installs in every document before
 * its own scripts run) and Chromium's console "Refused to …" lines, which also name what was
 * blocked before any script could listen. `expectNone` fails listing them.
 */
export async function watchCsp(page: Page) {
  const violations: string[] = [];
  await page.exposeBinding("__kassaCspViolation", (source, text: string) => {
    violations.push(`${source.page.url()}: ${text}`);
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { __kassaCspViolation: (text: string) => void })
        .__kassaCspViolation;
      report(`${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sample})`);
    });
  });
  page.on("console", (message) => {
    const text = message.text();
    if (/Refused to|Content Security Policy/i.test(text)) violations.push(`${page.url()}: console: ${text}`);
  });
  return {
    violations,
    expectNone: () => expect(violations, "Content-Security-Policy violations").toEqual([]),
  };
}

/** Waits until React has taken over `element` (hydration marks each element it claims); fails if it never does. */
export async function expectHydrated(element: Locator) {
  await expect
    .poll(() => element.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactFiber"))), {
      message: "the page hydrates",
    })
    .toBe(true);
}

/**
 * Proves the page hydrated and its scripts run: React takes over the link, and a click on it
 * navigates on the client (a document load would have dropped the marker set on `window`). With a
 * CSP that refused Next's scripts neither would happen.
 */
export async function expectClientNavigation(page: Page, link: Locator, to: RegExp) {
  // A click before hydration would be an ordinary link's.
  await expectHydrated(link);
  await page.evaluate(() => {
    (window as unknown as { __kassaMarker: string }).__kassaMarker = "same document";
  });
  await link.click();
  await expect(page).toHaveURL(to);
  expect(await page.evaluate(() => (window as unknown as { __kassaMarker?: string }).__kassaMarker)).toBe(
    "same document",
  );
}
