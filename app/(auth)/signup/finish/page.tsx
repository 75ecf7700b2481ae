import type { Metadata } from "next";
import { FinishSignUp } from "./finish-sign-up";

export const metadata: Metadata = { title: "Finish creating your account" };

/** The link's token travels in the fragment (`#token=…`), so it never reaches a server log or a Referer. */
export default function FinishSignUpPage() {
  return <FinishSignUp />;
}
