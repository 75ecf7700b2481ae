DROP TABLE "sign_in_attempts";--> statement-breakpoint
CREATE TABLE "sign_in_throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"next_allowed_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sign_in_throttles_updated_idx" ON "sign_in_throttles" USING btree ("updated_at");--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_last_step" bigint;
