import "server-only";

import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { apiKeys, users } from "@/lib/db/schema";

export type ApiKeySummary = {
  id: number;
  key: string;
  label: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  lastUsedIp: string | null;
  allowedIps: string[] | null;
  /** A rolled key's end of overlap. */
  expiresAt: Date | null;
  canMoveMoney: boolean;
  /** The e-mail of the member who created the key (removed members too); null: the operator, or before 0032. */
  createdBy: string | null;
  /** The creator has been removed from the team: their key still works until someone revokes it. */
  isCreatorRemoved: boolean;
};

export async function listApiKeys(db: Db, merchantId: number): Promise<ApiKeySummary[]> {
  return db
    .select({
      id: apiKeys.id,
      key: apiKeys.key,
      label: apiKeys.label,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedIp: apiKeys.lastUsedIp,
      allowedIps: apiKeys.allowedIps,
      expiresAt: apiKeys.expiresAt,
      canMoveMoney: apiKeys.canMoveMoney,
      createdBy: users.email,
      isCreatorRemoved: sql<boolean>`${users.removedAt} is not null`,
    })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(eq(apiKeys.merchantId, merchantId))
    .orderBy(desc(apiKeys.id));
}
