-- Deposits (issue 17). A permanent address remembers the end_user_reference it was taken for, so its
-- deposits report it (addresses/take response, deposit callbacks, transactions/info).
ALTER TABLE "deposit_addresses" ADD COLUMN "end_user_reference" text;--> statement-breakpoint
-- The public API's optional "deposits less than minimum amount" callback: a merchant setting, off by default.
ALTER TABLE "merchants" ADD COLUMN "is_below_minimum_callback_on" boolean DEFAULT false NOT NULL;
