import "server-only";

import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { chainCursors } from "@/lib/db/schema";

/**
 * How far in time a real network's watcher has read it (chain_cursors.seen_until): null when it has
 * not read it that far yet, undefined when no watcher follows the network (a simulated one).
 */
export async function loadSeenUntil(db: Executor, network: string): Promise<Date | null | undefined> {
  const [row] = await db
    .select({ seenUntil: chainCursors.seenUntil })
    .from(chainCursors)
    .where(eq(chainCursors.network, network));
  return row ? row.seenUntil : undefined;
}
