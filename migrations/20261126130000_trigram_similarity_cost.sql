-- A typo's spellings are looked up with `word % query_word` in search_words. pg_trgm declares
-- the operator's function as cheap as an equality (cost 1), so with a vocabulary of a few
-- hundred words the planner scans the table and makes the trigrams of every word for every query
-- word: four fifths of a search that nothing caches. Declared at its real cost (both strings'
-- trigrams, made and compared), the planner reads the trigram index instead (2.6 times the searches
-- a second, docs/catalogue.md).
--
-- Only the function's owner may declare it: where pg_trgm was created by another role (a trusted
-- extension a non-superuser installed belongs to the bootstrap superuser), this notes it and goes
-- on; searches give the same results either way (docs/deploy.md).
DO $$
BEGIN
    ALTER FUNCTION similarity_op(text, text) COST 100;
EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'similarity_op(text, text) keeps cost 1: run ALTER FUNCTION similarity_op(text, text) COST 100 as its owner';
END $$;
