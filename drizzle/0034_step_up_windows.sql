-- Step-up ("sudo") windows: a dashboard session that confirmed its user again may make sensitive
-- changes for a few minutes. One row per session (by the SHA-256 of the session's id), never per user.
CREATE TABLE "step_up_windows" (
	"session_hash" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "step_up_windows" ADD CONSTRAINT "step_up_windows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "step_up_windows_user_idx" ON "step_up_windows" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "step_up_windows_expires_idx" ON "step_up_windows" USING btree ("expires_at");
