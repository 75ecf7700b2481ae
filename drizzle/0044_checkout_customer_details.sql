-- An invoice made on the dashboard may leave the customer's details, its return addresses and the
-- refund e-mail to later: the customer gives their own details on the checkout before the address
-- is shown. Null means "not given yet"; the API keeps requiring them at creation.
ALTER TABLE "invoices" ALTER COLUMN "sender_type" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "sender_data" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "url_success" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "url_failed" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "email_user" DROP NOT NULL;
