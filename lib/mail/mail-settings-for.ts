import "server-only";

import type { Config } from "@/lib/config";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { isMailPrintedToLog } from "./is-mail-printed-to-log";
import type { MailSettings } from "./send-email";

/** The e-mail job's settings from the installation's config: the one place that decides whether mail is printed. */
export function mailSettingsFor(config: Config, box: SecretBox): MailSettings {
  const isPrinted = isMailPrintedToLog(config);
  return {
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    box,
    isPrintedWithoutSmtp: isPrinted,
    mailboxUrl: isPrinted
      ? `${(config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, "")}/dev/mailbox`
      : undefined,
  };
}
