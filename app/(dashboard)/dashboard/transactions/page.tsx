import type { Metadata } from "next";
import { Suspense } from "react";
import { ExplorerClient } from "./explorer-client";

export const metadata: Metadata = { title: "Transactions" };

export default function TransactionsPage() {
  return (
    <Suspense fallback={<p>Loading transactions…</p>}>
      <ExplorerClient />
    </Suspense>
  );
}
