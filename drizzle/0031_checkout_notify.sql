-- The checkout's event stream is pushed, not polled: every change to what the checkout page shows
-- announces the invoice's token on the channel kassa_checkout, from the database itself, so no
-- code path that changes an invoice can forget to. NOTIFY is transactional: a rolled-back change
-- announces nothing, and a committed one is announced once its transaction commits (duplicates
-- within one transaction are folded into one).
-- Payloads: "i:<token>" for one invoice, "t:<currency>" for a new sandbox chain tip (confirmations
-- of every payment in that currency move with it).
CREATE FUNCTION kassa_notify_invoice_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kassa_checkout', 'i:' || NEW.token);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER invoices_notify_checkout AFTER UPDATE ON invoices FOR EACH ROW
  WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION kassa_notify_invoice_row();
--> statement-breakpoint
CREATE FUNCTION kassa_notify_invoice_of_transaction() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  invoice_token text;
BEGIN
  SELECT token INTO invoice_token FROM invoices WHERE transaction_id = NEW.id;
  IF invoice_token IS NOT NULL THEN
    PERFORM pg_notify('kassa_checkout', 'i:' || invoice_token);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER transactions_notify_checkout AFTER UPDATE OF status ON transactions FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.type = 'invoice')
  EXECUTE FUNCTION kassa_notify_invoice_of_transaction();
--> statement-breakpoint
CREATE FUNCTION kassa_notify_invoice_of_deposit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  invoice_token text;
BEGIN
  SELECT token INTO invoice_token FROM invoices WHERE transaction_id = NEW.transaction_id;
  IF invoice_token IS NOT NULL THEN
    PERFORM pg_notify('kassa_checkout', 'i:' || invoice_token);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER deposits_notify_checkout AFTER INSERT OR UPDATE ON deposits FOR EACH ROW
  EXECUTE FUNCTION kassa_notify_invoice_of_deposit();
--> statement-breakpoint
CREATE FUNCTION kassa_notify_chain_tip() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kassa_checkout', 't:' || NEW.currency);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER chain_tips_notify_checkout AFTER INSERT OR UPDATE ON chain_tips FOR EACH ROW
  EXECUTE FUNCTION kassa_notify_chain_tip();
