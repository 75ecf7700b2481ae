CREATE INDEX "chain_transactions_address_idx" ON "chain_transactions" USING btree ("address");--> statement-breakpoint
CREATE INDEX "deposit_addresses_lookup_idx" ON "deposit_addresses" USING btree ("address");--> statement-breakpoint
CREATE INDEX "transactions_merchant_type_idx" ON "transactions" USING btree ("merchant_id","type","id");--> statement-breakpoint
CREATE INDEX "transactions_merchant_status_idx" ON "transactions" USING btree ("merchant_id","status","id");--> statement-breakpoint
CREATE INDEX "transactions_merchant_reference_idx" ON "transactions" USING btree ("merchant_id","end_user_reference");--> statement-breakpoint
CREATE INDEX "withdrawals_address_idx" ON "withdrawals" USING btree ("address");