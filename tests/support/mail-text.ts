import type { Mail } from "./smtp";

/** A received message's text, quoted-printable soft breaks and escapes undone (links come out whole). */
export function mailText(mail: Mail): string {
  return mail.data
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The token in the link a message carries (`…#token=<token>`). */
export function linkToken(mail: Mail): string {
  const match = /#token=([A-Za-z0-9_-]+)/.exec(mailText(mail));
  if (!match) throw new Error(`no link in the message to ${mail.to}`);
  return match[1]!;
}
