import fs from "node:fs";

/**
 * How Debian's Chromium runs here: as root, headless, and with the background services that would
 * try to reach the internet turned off (this machine's network refuses them).
 */
export const CHROMIUM_PATH = process.env.KASSA_CHROMIUM ?? "/usr/bin/chromium";

/**
 * The browser the Playwright tests drive: Debian's Chromium headless shell (`apt-get install
 * chromium-headless-shell`, the same Blink and V8 build as `chromium`, without the desktop
 * browser's windowing and GPU processes) when installed, else the full browser. The shell took
 * a fifth less CPU for the same specs (docs/testing.md). The page benchmarks keep the full
 * browser (bench/pages.ts), since they measure what a visitor's browser does.
 */
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
export const TEST_CHROMIUM_PATH =
  process.env.KASSA_CHROMIUM ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM_PATH);

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
