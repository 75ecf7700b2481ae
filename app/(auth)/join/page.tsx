import type { Metadata } from "next";
import { JoinForm } from "./join-form";

export const metadata: Metadata = { title: "Join your team" };

/** An invitation's link: the token travels in the fragment (`#token=…`), so it never reaches a server log or a Referer. */
export default function JoinPage() {
  return <JoinForm />;
}
