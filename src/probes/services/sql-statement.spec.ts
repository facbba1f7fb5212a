import { readOnlyProblem } from './sql-statement';

describe('readOnlyProblem', () => {
  it.each<[string, 'postgres' | 'mysql']>([
    ['SELECT 1', 'postgres'],
    ["select count(*) from orders where state = 'open';", 'postgres'],
    ['  SELECT 1 ;  ', 'postgres'],
    ['WITH x AS (SELECT 1) SELECT * FROM x', 'postgres'],
    ['SHOW server_version', 'postgres'],
    ['VALUES (1)', 'postgres'],
    ['TABLE pg_stat_activity', 'postgres'],
    ['EXPLAIN SELECT 1', 'postgres'],
    ['(SELECT 1) UNION (SELECT 2)', 'postgres'],
    ["SELECT 'a; DROP TABLE x' AS s", 'postgres'],
    ['SELECT $$; DELETE FROM x$$', 'postgres'],
    ["SELECT $q$ it's ; $q$", 'postgres'],
    ['SELECT "update" FROM t', 'postgres'],
    ['SELECT 1 -- ; DROP TABLE x', 'postgres'],
    ['SELECT /* ; insert */ 1', 'postgres'],
    ['SELECT updated_at FROM t', 'postgres'],
    ['SELECT 1', 'mysql'],
    ["SELECT 'it\\'s; DELETE' FROM dual", 'mysql'],
    ['SELECT `insert` FROM t # ; drop', 'mysql'],
    ['DESCRIBE t', 'mysql'],
    ['SHOW STATUS', 'mysql'],
  ])('accepts %j (%s)', (query, dialect) => {
    expect(readOnlyProblem(query, dialect)).toBeNull();
  });

  it.each<[string, 'postgres' | 'mysql', string]>([
    ['SELECT 1; SELECT 2', 'postgres', 'one statement'],
    ['SELECT 1; DROP TABLE users', 'postgres', 'one statement'],
    ['DELETE FROM users', 'postgres', 'only reads'],
    ['UPDATE users SET x = 1', 'postgres', 'only reads'],
    ['INSERT INTO t VALUES (1)', 'postgres', 'only reads'],
    ['WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d', 'postgres', 'DELETE is not allowed'],
    ['SELECT * INTO new_table FROM t', 'postgres', 'INTO is not allowed'],
    ['EXPLAIN ANALYZE DELETE FROM t', 'postgres', 'is not allowed'],
    ['SELECT * FROM t FOR UPDATE', 'postgres', 'FOR UPDATE takes locks'],
    ['SELECT * FROM t FOR NO KEY UPDATE', 'postgres', 'FOR NO KEY UPDATE takes locks'],
    ['SET default_transaction_read_only = off', 'postgres', 'only reads'],
    ['BEGIN', 'postgres', 'only reads'],
    ["COPY t TO PROGRAM 'rm -rf /'", 'postgres', 'only reads'],
    ['CALL proc()', 'postgres', 'only reads'],
    ["SELECT 'open", 'postgres', 'not closed'],
    ['SELECT $$ open', 'postgres', 'not closed'],
    ['SELECT /* open', 'postgres', 'not closed'],
    ['', 'postgres', 'must be a statement'],
    [' ; ', 'postgres', 'must be a statement'],
    ["SELECT * FROM t INTO OUTFILE '/tmp/x'", 'mysql', 'not allowed'],
    ['REPLACE INTO t VALUES (1)', 'mysql', 'only reads'],
    ['SELECT 1 # \n; DELETE FROM t', 'mysql', 'one statement'],
    ['HANDLER t OPEN', 'mysql', 'only reads'],
  ])('refuses %j (%s)', (query, dialect, message) => {
    expect(readOnlyProblem(query, dialect)).toEqual(expect.stringContaining(message));
  });
});
