import "server-only";

/** The message that invites someone to a merchant's team. Plain text, like the sign-in messages. */
export function invitationEmail(input: {
  merchantName: string;
  inviter: string;
  role: string;
  link: string;
  days: number;
}) {
  return {
    subject: `You are invited to ${input.merchantName} on Kassa`,
    body:
      `${input.inviter} invited you to join ${input.merchantName} on Kassa, the payment dashboard, ` +
      `as ${input.role}.\n\nChoose a password and join here, within ${input.days} days; the link works once:\n` +
      `${input.link}\n\nIf you do not know ${input.inviter} or did not expect this, ignore this message: ` +
      `no account is created.`,
  };
}
