-- The entries of `journals`, one row each with its journal's position: the refusal path's reading.
CREATE OR REPLACE FUNCTION kassa_journal_entries(journals jsonb)
RETURNS TABLE (ord bigint, merchant_id bigint, kind text, currency text, amount numeric) AS $$
  SELECT j.ord, e.merchant_id, e.kind, e.currency, e.amount
  FROM jsonb_array_elements(journals) WITH ORDINALITY AS j(doc, ord)
  CROSS JOIN LATERAL jsonb_to_recordset(coalesce(j.doc -> 'entries', '[]'::jsonb))
    AS e(merchant_id bigint, kind text, currency text, amount numeric)
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
-- What is wrong with `journals`, or NULL: the words of a KASSJ refusal. Run only once the one-pass
-- check in kassa_post_journals() has found a problem, so its several readings cost nothing when
-- postings are valid.
CREATE OR REPLACE FUNCTION kassa_journal_problem(journals jsonb) RETURNS text AS $$
  SELECT reason FROM (
    SELECT 1 AS rank, j.ord, format('journal %s needs at least two entries', j.ord) AS reason
    FROM jsonb_array_elements(journals) WITH ORDINALITY AS j(doc, ord)
    WHERE jsonb_array_length(coalesce(j.doc -> 'entries', '[]'::jsonb)) < 2
    UNION ALL
    SELECT 2, e.ord, 'a journal entry needs an account and an amount'
    FROM kassa_journal_entries(journals) e
    WHERE e.kind IS NULL OR e.currency IS NULL OR e.amount IS NULL
    UNION ALL
    SELECT 3, e.ord, 'a journal entry cannot be zero' FROM kassa_journal_entries(journals) e WHERE e.amount = 0
    UNION ALL
    SELECT 4, e.ord, format('an amount has more than 8 decimal places: %s', e.amount)
    FROM kassa_journal_entries(journals) e WHERE e.amount <> round(e.amount, 8)
    UNION ALL
    SELECT 5, e.ord, format('entries in %s sum to %s, not zero', e.currency, sum(e.amount))
    FROM kassa_journal_entries(journals) e GROUP BY e.ord, e.currency HAVING sum(e.amount) <> 0
  ) problems
  ORDER BY rank, ord
  LIMIT 1
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
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
--
-- Cost: every posting runs through here, a withdrawal's inside the statement after which its
-- merchant's balance row stays locked until the commit, so the function does little per call: one
-- statement reads the jsonb once, checks it and looks every account up; one writes the journals and
-- their entries; then one UPDATE per balance (and, on an account's first use, one more to create
-- it). Its estimates stay small on purpose: a plan over the JIT threshold (jit_above_cost) spent
-- milliseconds compiling on every call.
CREATE OR REPLACE FUNCTION kassa_post_journals(journals jsonb) RETURNS bigint[] AS $$
DECLARE
  is_valid boolean;
  ords bigint[];
  owners bigint[];
  kinds text[];
  currencies text[];
  amounts numeric[];
  account_ids bigint[];
  account_owners bigint[];
  account_kinds text[];
  account_currencies text[];
  deltas numeric[];
  journal_ids bigint[];
BEGIN
  LOOP
    -- The entries, read once; whether they are valid (each journal has two entries or more, each
    -- entry an account and a non-zero amount of at most 8 decimals, and each journal sums to zero
    -- per currency); each entry's account (each CASE branch is an equality lookup that one of the
    -- two partial unique indexes answers); and each account once, with the net amount the
    -- postings move on it, in account-id order. Arrays aggregated from one row stream line up, and
    -- so do the account arrays: all are sorted by the same key, unique within the group.
    WITH e AS MATERIALIZED (
      SELECT j.ord, x.merchant_id, x.kind, x.currency, x.amount
      FROM jsonb_array_elements(journals) WITH ORDINALITY AS j(doc, ord)
      CROSS JOIN LATERAL jsonb_to_recordset(coalesce(j.doc -> 'entries', '[]'::jsonb))
        AS x(merchant_id bigint, kind text, currency text, amount numeric)
    ),
    account AS MATERIALIZED (
      SELECT g.*,
             CASE WHEN g.merchant_id IS NULL THEN
               (SELECT l.id FROM ledger_accounts l
                WHERE l.merchant_id IS NULL AND l.kind = g.kind AND l.currency = g.currency)
             ELSE
               (SELECT l.id FROM ledger_accounts l
                WHERE l.merchant_id = g.merchant_id AND l.kind = g.kind AND l.currency = g.currency)
             END AS account_id
      FROM (
        SELECT e.merchant_id, e.kind, e.currency, sum(e.amount) AS delta
        FROM e GROUP BY e.merchant_id, e.kind, e.currency
      ) g
    )
    SELECT entry.ords, entry.owners, entry.kinds, entry.currencies, entry.amounts,
           entry.is_valid
           AND (SELECT count(*) FROM (SELECT FROM e GROUP BY e.ord HAVING count(*) >= 2) enough)
               = jsonb_array_length(journals)
           AND NOT EXISTS (SELECT FROM e GROUP BY e.ord, e.currency HAVING sum(e.amount) <> 0),
           a.ids, a.owners, a.kinds, a.currencies, a.deltas
    INTO ords, owners, kinds, currencies, amounts, is_valid,
         account_ids, account_owners, account_kinds, account_currencies, deltas
    FROM (
      SELECT array_agg(e.ord) AS ords, array_agg(e.merchant_id) AS owners, array_agg(e.kind) AS kinds,
             array_agg(e.currency) AS currencies, array_agg(e.amount) AS amounts,
             coalesce(bool_and(e.kind IS NOT NULL AND e.currency IS NOT NULL AND e.amount IS NOT NULL
                               AND e.amount <> 0 AND e.amount = round(e.amount, 8)), true) AS is_valid
      FROM e
    ) entry,
    (
      SELECT array_agg(account_id ORDER BY account_id, merchant_id, kind, currency) AS ids,
             array_agg(merchant_id ORDER BY account_id, merchant_id, kind, currency) AS owners,
             array_agg(kind ORDER BY account_id, merchant_id, kind, currency) AS kinds,
             array_agg(currency ORDER BY account_id, merchant_id, kind, currency) AS currencies,
             array_agg(delta ORDER BY account_id, merchant_id, kind, currency) AS deltas
      FROM account
    ) a;
    IF NOT is_valid THEN
      RAISE EXCEPTION 'unbalanced journal: %', kassa_journal_problem(journals) USING ERRCODE = 'KASSJ';
    END IF;
    EXIT WHEN array_position(account_ids, NULL) IS NULL;
    -- Accounts on first use, then the lookup again. ON CONFLICT: a concurrent posting may be
    -- creating the same account; this waits for it and then skips the row, and the next statement
    -- (a new snapshot in READ COMMITTED) sees it.
    INSERT INTO ledger_accounts (merchant_id, kind, currency)
    SELECT a.merchant_id, a.kind, a.currency
    FROM unnest(account_ids, account_owners, account_kinds, account_currencies)
      AS a(id, merchant_id, kind, currency)
    WHERE a.id IS NULL
    ON CONFLICT DO NOTHING;
  END LOOP;

  -- The journals and their entries, in one statement; each entry names its journal by the id drawn
  -- for its position.
  IF jsonb_array_length(journals) = 1 THEN
    journal_ids := ARRAY[nextval('journals_id_seq')];
  ELSE
    journal_ids := ARRAY(SELECT nextval('journals_id_seq') FROM generate_series(1, jsonb_array_length(journals)));
  END IF;
  WITH journal AS (
    INSERT INTO journals (id, merchant_id, transaction_id, kind, memo, created_at)
    SELECT journal_ids[d.ord], (d.doc ->> 'merchant_id')::bigint, (d.doc ->> 'transaction_id')::bigint,
           d.doc ->> 'kind', d.doc ->> 'memo', coalesce((d.doc ->> 'created_at')::timestamptz, now())
    FROM jsonb_array_elements(journals) WITH ORDINALITY AS d(doc, ord)
    RETURNING id, created_at
  )
  INSERT INTO ledger_entries (journal_id, account_id, currency, amount, created_at)
  SELECT journal.id, a.id, e.currency, e.amount, journal.created_at
  FROM unnest(ords, owners, kinds, currencies, amounts) AS e(ord, merchant_id, kind, currency, amount)
  JOIN journal ON journal.id = journal_ids[e.ord]
  JOIN unnest(account_ids, account_owners, account_kinds, account_currencies)
    AS a(id, merchant_id, kind, currency)
    ON coalesce(a.merchant_id, -1) = coalesce(e.merchant_id, -1) AND a.kind = e.kind
       AND a.currency = e.currency;

  -- The balances last, one row at a time in account-id order: their row locks are then held from
  -- here to the commit, which the callers issue right after.
  FOR i IN 1 .. coalesce(array_length(account_ids, 1), 0) LOOP
    CONTINUE WHEN deltas[i] = 0;
    IF account_owners[i] IS NOT NULL AND deltas[i] < 0 THEN
      UPDATE ledger_accounts SET balance = balance + deltas[i]
      WHERE id = account_ids[i] AND balance + deltas[i] >= 0;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'insufficient funds' USING ERRCODE = 'KASSA',
          DETAIL = account_currencies[i] || ' ' || (-deltas[i])::numeric(38, 8)::text;
      END IF;
    ELSIF account_owners[i] IS NOT NULL THEN
      -- The cap of lib/money.ts (MAX_AMOUNT, 10^20 whole units): a balance above it could no longer
      -- be read back as an amount or spent, so a credit that would pass it is refused instead.
      UPDATE ledger_accounts SET balance = balance + deltas[i]
      WHERE id = account_ids[i] AND balance + deltas[i] <= 100000000000000000000;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'over cap' USING ERRCODE = 'KASSA', DETAIL = account_currencies[i];
      END IF;
    ELSE
      UPDATE ledger_accounts SET balance = balance + deltas[i] WHERE id = account_ids[i];
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
