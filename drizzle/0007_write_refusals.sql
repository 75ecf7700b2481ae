-- Each API write (an invoice, a withdrawal) is one statement (DESIGN.md section 9: every round trip
-- and every row lock held across one costs latency). A statement that finds the request must be
-- refused (the customer is not who the reference says, the balance does not cover the debit) calls
-- this to abort itself: nothing of it is written. SQLSTATE KASSA, the message names the reason.
CREATE OR REPLACE FUNCTION kassa_refuse(reason text) RETURNS boolean AS $$
BEGIN
  IF reason IS NOT NULL THEN
    RAISE EXCEPTION '%', reason USING ERRCODE = 'KASSA';
  END IF;
  RETURN true;
END;
$$ LANGUAGE plpgsql VOLATILE;
