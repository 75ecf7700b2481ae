import "server-only";

import { getConfig } from "@/lib/runtime";
import { listScreeningProvider } from "./list-screening-provider";
import type { ScreeningProvider } from "./screening-provider";

let provider: ScreeningProvider | undefined;

/** The installation's screening provider: the built-in one over KASSA_SCREENING_* (docs/compliance.md). */
export function defaultScreeningProvider(): ScreeningProvider {
  provider ??= listScreeningProvider(getConfig().screening);
  return provider;
}
