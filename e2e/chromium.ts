/**
 * How Debian's Chromium runs here: as root, headless, and with the background services that would
 * try to reach the internet turned off (this machine's network refuses them).
 */
export const CHROMIUM_PATH = process.env.KASSA_CHROMIUM ?? "/usr/bin/chromium";
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
