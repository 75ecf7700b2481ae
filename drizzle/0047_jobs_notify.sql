-- A new job is announced on the channel kassa_jobs, from the database itself, so every way a job is
-- queued (enqueueJob, the one-statement writes) wakes the runners of every process at once instead
-- of each polling the table: an idle process asks nothing, and a job queued by a server starts on
-- a worker without waiting for a poll. NOTIFY is transactional (a rolled-back job announces
-- nothing); one announcement per statement, and PostgreSQL folds duplicates within a transaction.
CREATE FUNCTION kassa_notify_jobs_queued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kassa_jobs', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER jobs_notify_queued AFTER INSERT ON jobs FOR EACH STATEMENT EXECUTE FUNCTION kassa_notify_jobs_queued();
