-- One ledger posting implementation (DESIGN.md section 4), called by postJournal (lib/ledger) and
-- from inside the one-statement writes (lib/withdrawals/create-withdrawal.ts), so the rules live
-- here and nowhere else: a journal balances per currency and has no zero entry; accounts are
-- created on first use; balances move in account-id order; a merchant balance is debited only when
-- it covers the debit.
--
-- `journals` is a JSON array of journals, each
--   { "merchant_id", "transaction_id", "kind", "memo", "created_at"?,
--     "entries": [ { "merchant_id" (null for a platform account), "kind", "currency", "amount" } ] }
-- with amounts as decimal strings (never JSON floats). It answers the new journals' ids, in order.
-- Usually one journal; the bulk seeder (lib/seed/seed-bulk.ts) posts a batch at once, and then a
-- balance is checked against the net of the whole batch.
--
-- Refusals: SQLSTATE KASSJ for a journal that is not balanced (a bug in the caller: nothing is
-- written); SQLSTATE KASSA 'insufficient funds' (as kassa_refuse, drizzle/0007), with DETAIL
-- '<currency> <amount needed>', when a merchant balance would go below zero; SQLSTATE KASSA
-- 'over cap', with DETAIL '<currency>', when a credit would take a merchant balance past the amount
-- cap. Any of them aborts the calling statement, so nothing of it is written.
--
-- Locks: a balance row is changed by a plain UPDATE, which takes the row lock FOR NO KEY UPDATE
-- (the PostgreSQL manual, "Explicit Locking": any UPDATE that changes no column of a unique index
-- a foreign key can use takes it). That mode conflicts with another UPDATE of the row, so debits of
-- one balance queue there, but not with FOR KEY SHARE, the lock that every insert into
-- ledger_entries takes on its account through the foreign key: while a withdrawal holds or waits
-- for a balance row, other postings can still write their entries for that account (only their own
-- balance UPDATE queues). An explicit SELECT ... FOR UPDATE would conflict with those key-share
-- locks and is not used. The conditional UPDATE (`balance + x >= 0`) is exact under concurrency: in
-- READ COMMITTED (Kassa's isolation level everywhere), an UPDATE that waited for a concurrent one
-- re-evaluates its WHERE clause against the row as that one left it (manual, "Transaction
-- Isolation"), and the table's CHECK constraint is the backstop. Rows are updated one at a time in
-- id order, so two postings touching the same accounts lock them in the same order and cannot
-- deadlock on them.
CREATE OR REPLACE FUNCTION kassa_journal_entries(journals jsonb)
RETURNS TABLE (ord bigint, merchant_id bigint, kind text, currency text, amount numeric) AS $$
  SELECT j.ord, e.merchant_id, e.kind, e.currency, e.amount
  FROM jsonb_array_elements(journals) WITH ORDINALITY AS j(doc, ord)
  CROSS JOIN LATERAL jsonb_to_recordset(coalesce(j.doc -> 'entries', '[]'::jsonb))
    AS e(merchant_id bigint, kind text, currency text, amount numeric)
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
-- The id of an account, or NULL. Two branches so that each can use its partial unique index.
CREATE OR REPLACE FUNCTION kassa_account_id(owner bigint, account_kind text, account_currency text)
RETURNS bigint AS $$
  SELECT id FROM ledger_accounts
  WHERE merchant_id = owner AND merchant_id IS NOT NULL AND kind = account_kind AND currency = account_currency
  UNION ALL
  SELECT id FROM ledger_accounts
  WHERE owner IS NULL AND merchant_id IS NULL AND kind = account_kind AND currency = account_currency
  LIMIT 1
$$ LANGUAGE sql STABLE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION kassa_post_journals(journals jsonb) RETURNS bigint[] AS $$
DECLARE
  problem text;
  journal_ids bigint[];
  account record;
BEGIN
  SELECT reason INTO problem FROM (
    SELECT format('journal %s needs at least two entries', j.ord) AS reason
    FROM jsonb_array_elements(journals) WITH ORDINALITY AS j(doc, ord)
    WHERE jsonb_array_length(coalesce(j.doc -> 'entries', '[]'::jsonb)) < 2
    UNION ALL
    SELECT 'a journal entry needs an account and an amount'
    FROM kassa_journal_entries(journals) e
    WHERE e.kind IS NULL OR e.currency IS NULL OR e.amount IS NULL
    UNION ALL
    SELECT 'a journal entry cannot be zero' FROM kassa_journal_entries(journals) e WHERE e.amount = 0
    UNION ALL
    SELECT format('an amount has more than 8 decimal places: %s', e.amount)
    FROM kassa_journal_entries(journals) e WHERE e.amount <> round(e.amount, 8)
    UNION ALL
    SELECT format('entries in %s sum to %s, not zero', e.currency, sum(e.amount))
    FROM kassa_journal_entries(journals) e GROUP BY e.ord, e.currency HAVING sum(e.amount) <> 0
  ) problems LIMIT 1;
  IF problem IS NOT NULL THEN
    RAISE EXCEPTION 'unbalanced journal: %', problem USING ERRCODE = 'KASSJ';
  END IF;

  -- Accounts on first use. ON CONFLICT: a concurrent posting may be creating the same account; this
  -- waits for it and then skips the row, and the next statement (a new snapshot in READ COMMITTED)
  -- sees it.
  WITH wanted AS MATERIALIZED (
    SELECT DISTINCT e.merchant_id, e.kind, e.currency FROM kassa_journal_entries(journals) e
  )
  INSERT INTO ledger_accounts (merchant_id, kind, currency)
  SELECT w.merchant_id, w.kind, w.currency FROM wanted w
  WHERE kassa_account_id(w.merchant_id, w.kind, w.currency) IS NULL
  ON CONFLICT DO NOTHING;

  -- The journals and their entries. The ids are drawn first (MATERIALIZED: once per journal) so that
  -- each entry names its journal; RETURNING is the only way sibling sub-statements of a WITH see each
  -- other's rows, and it would not say which input journal a row came from.
  WITH j AS MATERIALIZED (
    SELECT d.ord, nextval(pg_get_serial_sequence('journals', 'id')) AS id, d.doc,
           coalesce((d.doc ->> 'created_at')::timestamptz, now()) AS at
    FROM jsonb_array_elements(journals) WITH ORDINALITY AS d(doc, ord)
  ),
  journal AS (
    INSERT INTO journals (id, merchant_id, transaction_id, kind, memo, created_at)
    SELECT id, (doc ->> 'merchant_id')::bigint, (doc ->> 'transaction_id')::bigint, doc ->> 'kind',
           doc ->> 'memo', at
    FROM j
  ),
  -- Each account looked up once, however many entries name it (a seeded batch has thousands).
  account AS MATERIALIZED (
    SELECT d.merchant_id, d.kind, d.currency, kassa_account_id(d.merchant_id, d.kind, d.currency) AS id
    FROM (SELECT DISTINCT e.merchant_id, e.kind, e.currency FROM kassa_journal_entries(journals) e) d
  ),
  entry AS (
    INSERT INTO ledger_entries (journal_id, account_id, currency, amount, created_at)
    SELECT j.id, a.id, e.currency, e.amount, j.at
    FROM j
    CROSS JOIN LATERAL jsonb_to_recordset(j.doc -> 'entries')
      AS e(merchant_id bigint, kind text, currency text, amount numeric)
    JOIN account a ON coalesce(a.merchant_id, -1) = coalesce(e.merchant_id, -1) AND a.kind = e.kind
                  AND a.currency = e.currency
  )
  SELECT array_agg(id ORDER BY ord) INTO journal_ids FROM j;

  -- The balances last: their row locks are then held from here to the commit, which the callers
  -- issue right after.
  FOR account IN
    SELECT a.id, a.merchant_id, a.currency, a.delta
    FROM (
      SELECT kassa_account_id(d.merchant_id, d.kind, d.currency) AS id, d.merchant_id, d.currency, d.delta
      FROM (
        SELECT e.merchant_id, e.kind, e.currency, sum(e.amount) AS delta
        FROM kassa_journal_entries(journals) e
        GROUP BY e.merchant_id, e.kind, e.currency
      ) d
    ) a
    WHERE a.delta <> 0
    ORDER BY a.id
  LOOP
    IF account.merchant_id IS NOT NULL AND account.delta < 0 THEN
      UPDATE ledger_accounts SET balance = balance + account.delta
      WHERE id = account.id AND balance + account.delta >= 0;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'insufficient funds' USING ERRCODE = 'KASSA',
          DETAIL = account.currency || ' ' || (-account.delta)::numeric(38, 8)::text;
      END IF;
    ELSIF account.merchant_id IS NOT NULL THEN
      -- The cap of lib/money.ts (MAX_AMOUNT, 10^20 whole units): a balance above it could no longer
      -- be read back as an amount or spent, so a credit that would pass it is refused instead.
      UPDATE ledger_accounts SET balance = balance + account.delta
      WHERE id = account.id AND balance + account.delta <= 100000000000000000000;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'over cap' USING ERRCODE = 'KASSA', DETAIL = account.currency;
      END IF;
    ELSE
      UPDATE ledger_accounts SET balance = balance + account.delta WHERE id = account.id;
    END IF;
  END LOOP;

  RETURN journal_ids;
END;
$$ LANGUAGE plpgsql VOLATILE;
--> statement-breakpoint
-- Spec 2.1, the one implementation (lib/customers/assert-customer-identity.ts calls it, and the
-- one-statement writes call it inline): `sender_data` and `end_user_reference` describe the same
-- customer. The first request that names a reference records who it is; a later one under the same
-- reference naming another person (another date of birth, or a legal entity where a person was) or
-- another legal entity (another name, ignoring case and spacing, or country) is refused: SQLSTATE
-- KASSA, message 'identity', DETAIL the request field that differs. Names of natural persons may
-- change (marriage, a typo fixed), so they are updated, as is the optional e-mail; the date of
-- birth is what identifies the person. The upsert locks the customer's row until the commit, so
-- two requests under one new reference are checked one after the other.
CREATE OR REPLACE FUNCTION kassa_normalize_name(value text) RETURNS text AS $$
  SELECT lower(btrim(regexp_replace(coalesce(value, ''), '\s+', ' ', 'g'), ' '))
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION kassa_check_customer(
  customer_merchant_id bigint, reference text, customer_type text, customer_first_name text,
  customer_last_name text, customer_date_of_birth text, customer_legal_name text,
  customer_country text, customer_email text
) RETURNS boolean AS $$
DECLARE
  known record;
  conflict text;
BEGIN
  INSERT INTO customers AS c (merchant_id, end_user_reference, type, first_name, last_name, date_of_birth,
                              legal_name, country_of_registration, email)
  VALUES (customer_merchant_id, reference, customer_type, customer_first_name, customer_last_name,
          customer_date_of_birth, customer_legal_name, customer_country, customer_email)
  ON CONFLICT (merchant_id, end_user_reference) DO UPDATE SET updated_at = c.updated_at
  RETURNING c.id, c.xmax = 0 AS is_new, c.type, c.first_name, c.last_name, c.date_of_birth, c.legal_name,
            c.country_of_registration, c.email
  INTO known;
  IF known.is_new THEN
    RETURN true;
  END IF;

  conflict := CASE
    WHEN known.type IS DISTINCT FROM customer_type THEN 'sender_type'
    WHEN customer_type = 'natural' AND known.date_of_birth IS DISTINCT FROM customer_date_of_birth
      THEN 'sender_data.date_of_birth'
    WHEN customer_type = 'legal'
         AND kassa_normalize_name(known.legal_name) <> kassa_normalize_name(customer_legal_name)
      THEN 'sender_data.legal_name'
    WHEN customer_type = 'legal' AND known.country_of_registration IS DISTINCT FROM customer_country
      THEN 'sender_data.country_of_registration'
  END;
  IF conflict IS NOT NULL THEN
    RAISE EXCEPTION 'identity' USING ERRCODE = 'KASSA', DETAIL = conflict;
  END IF;

  IF (coalesce(customer_first_name, known.first_name), coalesce(customer_last_name, known.last_name),
      coalesce(customer_email, known.email))
     IS DISTINCT FROM (known.first_name, known.last_name, known.email) THEN
    UPDATE customers
    SET first_name = coalesce(customer_first_name, first_name),
        last_name = coalesce(customer_last_name, last_name),
        email = coalesce(customer_email, email),
        updated_at = now()
    WHERE id = known.id;
  END IF;
  RETURN true;
END;
$$ LANGUAGE plpgsql VOLATILE;
