import { vi } from "vitest";

/**
 * Runs before every test file (vitest.config.ts `setupFiles`). The files share their worker process
 * (`isolate: false`): starting a fresh process per file cost about 2.4 s of imports a file, most of
 * the unit and integration steps' time. What one file could leave behind for the next is undone here:
 * - Kassa's own modules are evaluated afresh, so no module-level cache (the config, the secret box,
 *   the screening provider, the rate limiter…) outlives the file that filled it. Packages under
 *   node_modules stay loaded: they are what made a fresh process slow, and they hold no Kassa state.
 * - process.env is put back as it was when the worker started.
 */
type Slot = { [ENV_KEY]?: Record<string, string | undefined> };
const ENV_KEY = Symbol.for("kassa.test.startEnv");
const slot = globalThis as Slot;

if (slot[ENV_KEY]) {
  const start = slot[ENV_KEY];
  for (const name of Object.keys(process.env)) if (!(name in start)) delete process.env[name];
  for (const [name, value] of Object.entries(start)) if (value !== undefined) process.env[name] = value;
} else {
  slot[ENV_KEY] = { ...process.env };
}
vi.resetModules();
// The callback bodies every process registers at boot (lib/host/boot.ts), in this file's fresh modules.
await import("@/lib/callbacks/register-callback-bodies");
