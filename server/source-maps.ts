/**
 * Whether the production server maps stack traces back to the source: KASSA_SOURCE_MAPS, `off` by
 * default (`on` in development). tsx turns Node's source maps on for every module loaded after it,
 * and Node then reads and keeps the map of each of Next's compiled chunks whether or not an error
 * ever needs it: about 80 MB of the idle server's memory (docs/BENCHMARKS.md). Off, a stack trace
 * names the compiled chunk and position instead. Read here, before Next loads its chunks, and
 * validated by lib/config.ts like every other setting.
 */
export function applySourceMapSetting(
  env: Record<string, string | undefined> = process.env,
  isDev = false,
): void {
  const value = env.KASSA_SOURCE_MAPS ?? (isDev ? "on" : "off");
  if (value !== "on" && value !== "off") {
    console.error(
      `Kassa could not start: Invalid environment:\n  KASSA_SOURCE_MAPS: must be on or off, not "${value}"`,
    );
    process.exit(1);
  }
  process.setSourceMapsEnabled(value === "on");
}
