import "server-only";

import type { Executor } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { loadInvoiceByForeignId } from "./load-invoice";

/** The id of a merchant's invoice named by its foreign_id, or the API's 404 "No such invoice.". */
export async function findInvoiceId(db: Executor, merchantId: number, foreignId: string): Promise<number> {
  const record = await loadInvoiceByForeignId(db, merchantId, foreignId);
  if (!record) throw notFound("No such invoice.");
  return record.id;
}
