-- Callbacks a merchant can recover (issue 19). Each (re)scheduling of a callback's next attempt
-- (a retry after a failure, a resend, "retry everything pending now", the end of the callback it
-- waited for) bumps schedule_version and queues one job carrying it; a job whose version is no
-- longer the callback's has been overtaken and does nothing, so pulling an attempt forward never
-- leaves two schedules sending the same callback.
ALTER TABLE "callbacks" ADD COLUMN "schedule_version" integer DEFAULT 0 NOT NULL;
