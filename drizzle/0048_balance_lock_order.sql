-- Balances are locked merchant accounts first, then the platform's (each group by id), where 0010
-- locked them by id alone. A platform account (platform:clearing, the fee accounts) is shared by every
-- merchant, and is usually older, so has the lower id: a posting that waited for its merchant's
-- balance row (a burst of that merchant's withdrawals, a long transaction holding it) did so holding
-- the platform row already, and every other merchant's posting in that currency waited behind it.
-- Now a posting takes the shared row last and holds it only from its update to the commit. Any one
-- total order keeps postings from deadlocking on each other; this is still one. The function is
-- otherwise 0010's.
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
    -- postings move on it, in lock order: merchant accounts first, then the platform's, each by
    -- id. Arrays aggregated from one row stream line up, and
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
      SELECT array_agg(account_id ORDER BY merchant_id IS NULL, account_id, merchant_id, kind, currency) AS ids,
             array_agg(merchant_id ORDER BY merchant_id IS NULL, account_id, merchant_id, kind, currency) AS owners,
             array_agg(kind ORDER BY merchant_id IS NULL, account_id, merchant_id, kind, currency) AS kinds,
             array_agg(currency ORDER BY merchant_id IS NULL, account_id, merchant_id, kind, currency) AS currencies,
             array_agg(delta ORDER BY merchant_id IS NULL, account_id, merchant_id, kind, currency) AS deltas
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

  -- The balances last, one row at a time in lock order (merchant accounts, then the platform's, each
  -- by id): their row locks are then held from here to the commit, which the callers issue right
  -- after.
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
