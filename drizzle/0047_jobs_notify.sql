-- On the embedded database a new job is announced on the channel kassa_jobs, from the database
-- itself, so every way a job is queued (enqueueJob, the one-statement writes) wakes the process's
-- runners instead of each polling the table: an idle process asks nothing. NOTIFY is transactional
-- (a rolled-back job announces nothing); one announcement per statement, duplicates within a
-- transaction folded into one. Only where the session says so (kassa.announce_jobs, which
-- lib/db/client.ts sets for PGlite): on PostgreSQL a notifying transaction holds a database-wide
-- lock until its commit is flushed, which serialized the API's durable writes (2,500 against 1,500
-- small transactions a second with 10 clients), so runners there keep polling.
CREATE FUNCTION kassa_notify_jobs_queued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('kassa.announce_jobs', true) = 'on' THEN
    PERFORM pg_notify('kassa_jobs', '');
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER jobs_notify_queued AFTER INSERT ON jobs FOR EACH STATEMENT EXECUTE FUNCTION kassa_notify_jobs_queued();
