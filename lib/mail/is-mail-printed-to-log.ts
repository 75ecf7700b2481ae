import "server-only";

import type { Config } from "@/lib/config";

/**
 * Whether e-mail goes to the log instead of a mail server: in sandbox mode without SMTP_URL
 * (lib/mail/send-email.ts), and the dev mailbox (/dev/mailbox) shows it. The sign-up, reset and
 * invitation pages say so, so that a person trying Kassa knows where the link went. Never in
 * production: there the dev mailbox answers 404 and nothing is printed.
 */
export function isMailPrintedToLog(config: Pick<Config, "isSandbox" | "smtpUrl">): boolean {
  return config.isSandbox && !config.smtpUrl;
}
