/**
 * Whether the production server maps stack traces to the source: KASSA_SOURCE_MAPS, `off` by default
 * (`on` in development); off, traces name the compiled chunk. On costs about 80 MB (docs/BENCHMARKS.md):
 * tsx makes Node keep every compiled chunk's map. Must run before Next loads its chunks; validated by
 * lib/config.ts like every setting.
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
