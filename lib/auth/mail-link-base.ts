import "server-only";

import { requestPublicOrigin } from "@/lib/api/request-public-origin";
import { KassaError } from "@/lib/errors";
import { getConfig } from "@/lib/runtime";

/**
 * Where links in sign-in e-mails (reset, sign-up) point. KASSA_PUBLIC_URL when set. Without it the
 * request's own origin (lib/api/public-origin.ts), which comes from the Host header a client chooses: harmless on a local
 * sandbox, but in production it would let anyone have a victim's reset link point at their own
 * host, so production refuses to send such links until KASSA_PUBLIC_URL is set.
 */
export function mailLinkBase(request: Request): string {
  const config = getConfig();
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, "");
  if (config.mode === "production")
    throw new KassaError(
      "service_unavailable",
      "E-mailed links are off until the operator sets KASSA_PUBLIC_URL.",
    );
  return requestPublicOrigin(request.headers);
}
