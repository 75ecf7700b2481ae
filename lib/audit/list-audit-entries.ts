import "server-only";

import { and, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { auditEntries } from "@/lib/db/schema";

export type AuditEntry = {
  id: number;
  occurredAt: Date;
  actor: string;
  address: string | null;
  action: string;
  detail: string;
};

export type AuditFilter = { action?: string; actor?: string; from?: Date; to?: Date };

function conditions(merchantId: number, filter: AuditFilter): SQL[] {
  const where: SQL[] = [eq(auditEntries.merchantId, merchantId)];
  if (filter.action) where.push(eq(auditEntries.action, filter.action));
  // A plain substring, not a pattern: % and _ in the text match themselves.
  if (filter.actor) where.push(sql`strpos(lower(${auditEntries.actor}), ${filter.actor.toLowerCase()}) > 0`);
  if (filter.from) where.push(gte(auditEntries.occurredAt, filter.from));
  if (filter.to) where.push(lt(auditEntries.occurredAt, filter.to));
  return where;
}

/** One page of the merchant's audit trail, newest first, and whether an older page follows. */
export async function listAuditEntries(
  db: Db,
  input: { merchantId: number; filter: AuditFilter; page: number; pageSize: number },
): Promise<{ entries: AuditEntry[]; hasMore: boolean }> {
  const rows = await db
    .select({
      id: auditEntries.id,
      occurredAt: auditEntries.occurredAt,
      actor: auditEntries.actor,
      address: auditEntries.address,
      action: auditEntries.action,
      detail: auditEntries.detail,
    })
    .from(auditEntries)
    .where(and(...conditions(input.merchantId, input.filter)))
    .orderBy(desc(auditEntries.id))
    .limit(input.pageSize + 1)
    .offset((input.page - 1) * input.pageSize);
  return { entries: rows.slice(0, input.pageSize), hasMore: rows.length > input.pageSize };
}
