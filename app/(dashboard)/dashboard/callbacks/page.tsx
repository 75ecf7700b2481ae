import type { Metadata } from "next";
import { CallbacksClient } from "./callbacks-client";

export const metadata: Metadata = { title: "Callbacks" };

export default function CallbacksPage() {
  return <CallbacksClient />;
}
