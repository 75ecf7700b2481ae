import "server-only";

import type { Config } from "@/lib/config";

/**
 * Whether e-mail goes to the log instead of a mail server: in sandbox mode without SMTP_URL
 * (lib/mail/send-email.ts). The sign-up and reset pages say so, so that a person trying Kassa knows
 * where the link went.
 */
export function isMailPrintedToLog(config: Pick<Config, "isSandbox" | "smtpUrl">): boolean {
  return config.isSandbox && !config.smtpUrl;
}
