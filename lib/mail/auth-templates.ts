import "server-only";

/**
 * The messages Kassa sends a merchant about their own sign-in. Plain text; each says why it came
 * and what to do if the reader did not ask for it, because anyone can type an address into the forms.
 */
const ignore = "If you did not ask for this, ignore this message: nothing changes.";

export function passwordResetEmail(input: { link: string; minutes: number }) {
  return {
    subject: "Reset your Kassa password",
    body:
      `Someone (hopefully you) asked to reset the password of the Kassa account for this address.\n\n` +
      `Choose a new password here, within ${input.minutes} minutes; the link works once:\n${input.link}\n\n` +
      `Every session of the account ends when the password changes. ${ignore}`,
  };
}

export function finishSignUpEmail(input: { link: string; hours: number }) {
  return {
    subject: "Finish creating your Kassa account",
    body:
      `Someone (hopefully you) started creating a Kassa account with this address.\n\n` +
      `Open this link within ${input.hours} hours to finish; it works once:\n${input.link}\n\n${ignore}`,
  };
}

export function accountExistsEmail(input: { signInLink: string; resetLink: string }) {
  return {
    subject: "You already have a Kassa account",
    body:
      `Someone (hopefully you) tried to create a Kassa account with this address, but it already has one, ` +
      `so no new account was created.\n\nSign in here:\n${input.signInLink}\n\n` +
      `Forgot the password? Reset it here:\n${input.resetLink}\n\n${ignore}`,
  };
}
