import type { Page, TestInfo } from "@playwright/test";
import { capture, expectAccessible, expectNoSidewaysScroll } from "./page-checks";

export const PHONE = { name: "phone", width: 375, height: 800 } as const;
export const DESKTOP = { name: "desktop", width: 1280, height: 900 } as const;

/**
 * The page as it stands, at a phone's and at a desktop's width: no serious axe finding, nothing wider
 * than the screen, a full-page screenshot of each attached as `<name>-phone` and `<name>-desktop`. A flow
 * runs once, at the phone's width, and checks each of its pages at both here: running the whole flow at
 * each width repeated every click and wait to check the same layouts.
 */
export async function checkBothWidths(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const flowWidth = page.viewportSize();
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await testInfo.attach(`${name}-${viewport.name}`, {
      body: await capture(page, { fullPage: true }),
      contentType: "image/png",
    });
  }
  if (flowWidth) await page.setViewportSize(flowWidth);
}
