-- Ledger entries are facts: corrections are new entries, never edits (DESIGN.md section 4).
CREATE OR REPLACE FUNCTION kassa_ledger_entries_immutable() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'ledger entries are append-only' USING ERRCODE = '55000';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_immutable
  BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION kassa_ledger_entries_immutable();
