/**
 * Where the message went when this sandbox has no mail server: the dev mailbox (app/dev/mailbox),
 * and the log of the process that runs Kassa's jobs (lib/mail/send-email.ts). Shown under "Check
 * your e-mail".
 */
export function MailInLogNote() {
  return (
    <p className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      This is a sandbox without a mail server (<code>SMTP_URL</code> is not set), so nothing was e-mailed:
      read the message in the{" "}
      <a href="/dev/mailbox" className="font-medium underline">
        dev mailbox
      </a>
      . It is also printed, link included, in the log of the terminal running Kassa (<code>npm start</code>,
      or <code>npm run worker</code> if it runs the jobs).
    </p>
  );
}
