-- How far in time the watcher has read its network: the timestamp of the cursor's block, or the
-- moment of a pass that found the cursor at the node's tip. The invoice expiry job waits for it to
-- pass an invoice's deadline, so a payment mined before the deadline is never judged late because
-- the watcher was down. A reorganisation moves it back to the fork point's block time.
ALTER TABLE "chain_cursors" ADD COLUMN "seen_until" timestamp with time zone;--> statement-breakpoint
-- A transfer to a deposit address in a currency it was not handed out for (USDT to a USDC address)
-- is an incident with no deposit: one row per chain transaction.
CREATE UNIQUE INDEX "chain_incidents_transaction_key" ON "chain_incidents" USING btree ("kind","chain_transaction_id") WHERE "chain_incidents"."deposit_id" is null;
