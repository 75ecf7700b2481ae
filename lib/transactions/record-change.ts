import "server-only";

import { type SQL, sql } from "drizzle-orm";
import {
  type AuditAction,
  type AuditSource,
  actorText,
  recordAuditEntry,
} from "@/lib/audit/record-audit-entry";
import type { Executor } from "@/lib/db/client";
import { transactionEvents } from "@/lib/db/schema";
import { enqueueJob, JOB_MAX_ATTEMPTS, QUEUED_DEDUPE_CONFLICT } from "@/lib/jobs/enqueue-job";

/** Stands for the id of the transaction a change belongs to, where a one-statement write does not know it yet. */
export const THIS_ID = Symbol("the transaction's id");

/** Text made of literal parts and the transaction's id, such as a job's dedupe key. */
export type IdText = readonly (string | typeof THIS_ID)[];

/** A job that follows from a change (lib/jobs/queues.ts names the queues). */
export type ChangeJob = {
  queue: string;
  payload: Readonly<Record<string, string | number | typeof THIS_ID>>;
  /** Absent: now. */
  runAt?: Date;
  dedupeKey?: IdText;
};

/**
 * What a change of a transaction writes besides its own row: the timeline event, the jobs that
 * follow from it and, when someone asked for it, the audit entry. `from` is null for a new
 * transaction's first status; a change that keeps the status names itself in `reason`.
 */
export type Change = {
  merchantId: number;
  from: string | null;
  to: string;
  reason?: string | null;
  jobs?: readonly ChangeJob[];
  audit?: { source: AuditSource; action: AuditAction; detail: IdText };
};

const textOf = (parts: IdText, id: number) =>
  parts.map((part) => (part === THIS_ID ? String(id) : part)).join("");

/** Writes a change's event, jobs and audit entry for transaction `id`, in the caller's transaction. */
export async function recordChange(tx: Executor, id: number, change: Change): Promise<void> {
  await tx.insert(transactionEvents).values({
    transactionId: id,
    merchantId: change.merchantId,
    fromStatus: change.from,
    toStatus: change.to,
    reason: change.reason ?? null,
  });
  for (const job of change.jobs ?? []) await enqueueChangeJob(tx, id, job);
  if (change.audit) {
    await recordAuditEntry(tx, {
      merchantId: change.merchantId,
      actor: change.audit.source.actor,
      address: change.audit.source.address,
      action: change.audit.action,
      detail: textOf(change.audit.detail, id),
    });
  }
}

/** Queues one job of transaction `id` outside a status change (a new deadline, a repeated check). */
export async function enqueueChangeJob(tx: Executor, id: number, job: ChangeJob): Promise<void> {
  await enqueueJob(tx, {
    queue: job.queue,
    payload: Object.fromEntries(
      Object.entries(job.payload).map(([key, value]) => [key, value === THIS_ID ? id : value]),
    ),
    runAt: job.runAt,
    dedupeKey: job.dedupeKey && textOf(job.dedupeKey, id),
    maxAttempts: JOB_MAX_ATTEMPTS,
  });
}

const idTextSql = (parts: IdText, id: SQL) =>
  sql`(${sql.join(
    parts.map((part) => (part === THIS_ID ? sql`${id}::text` : sql`${part}::text`)),
    sql` || `,
  )})`;

/**
 * A job's columns `(queue, payload, run_at, dedupe_key, max_attempts)` as a select list over `id`,
 * the SQL expression holding the transaction's id, for `insert into jobs (...) select`.
 */
export function jobColumnsSql(job: ChangeJob, id: SQL): SQL {
  const payload = Object.entries(job.payload).map(([key, value]) =>
    value === THIS_ID
      ? sql`${key}::text, ${id}`
      : typeof value === "number"
        ? sql`${key}::text, ${value}::numeric`
        : sql`${key}::text, ${value}::text`,
  );
  return sql`${job.queue}::text, jsonb_build_object(${sql.join(payload, sql`, `)}),
             ${job.runAt ? sql`${job.runAt.toISOString()}::timestamptz` : sql`now()`},
             ${job.dedupeKey ? idTextSql(job.dedupeKey, id) : sql`null`}, ${JOB_MAX_ATTEMPTS}::integer`;
}

/**
 * The same change as sub-statements of a one-statement write (docs/decisions/one-statement-writes.md):
 * `ctes`, named CTEs that read the new transaction's `id` from the CTE `source`, and `written`, the
 * count of their rows, for a sub-statement that must run after them all. Each writes the rows
 * recordChange writes (tests/integration/record-change.test.ts).
 */
export function changeSql(source: string, change: Change): { ctes: SQL; written: SQL } {
  const from = sql.raw(source);
  const id = sql.raw("id");
  const ctes: SQL[] = [
    sql`change_event as (
      insert into transaction_events (transaction_id, merchant_id, from_status, to_status, reason)
      select id, ${change.merchantId}::bigint, ${change.from}::text, ${change.to}::text, ${change.reason ?? null}::text
      from ${from}
      returning 1)`,
  ];
  const names = ["change_event"];
  (change.jobs ?? []).forEach((job, index) => {
    const name = `change_job_${index}`;
    names.push(name);
    ctes.push(sql`${sql.raw(name)} as (
      insert into jobs (queue, payload, run_at, dedupe_key, max_attempts)
      select ${jobColumnsSql(job, id)} from ${from}
      ${QUEUED_DEDUPE_CONFLICT}
      returning 1)`);
  });
  const audit = change.audit;
  if (audit) {
    names.push("change_audit");
    const { actor, address } = audit.source;
    ctes.push(sql`change_audit as (
      insert into audit_entries (merchant_id, actor, user_id, address, action, detail)
      select ${change.merchantId}::bigint, ${actorText(actor)}::text,
             ${actor.kind === "user" ? actor.userId : null}::bigint, ${address ?? null}::text,
             ${audit.action}::text, ${idTextSql(audit.detail, id)}
      from ${from}
      returning 1)`);
  }
  return {
    ctes: sql.join(ctes, sql`, `),
    written: sql.join(
      names.map((name) => sql`(select count(*) from ${sql.raw(name)})`),
      sql` + `,
    ),
  };
}
