-- A placement written without a transaction of its own (checkout's unlocked path) is one statement: when what it
-- read has changed meanwhile (the cart, the stock it takes), the statement calls this function, whose error rolls
-- the whole statement back; the placement is then made again on the locked path. SQLSTATE CP409.
CREATE OR REPLACE FUNCTION "placement_refused"(reason text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'The placement''s reads changed before its write: %', reason USING ERRCODE = 'CP409';
END
$$;
