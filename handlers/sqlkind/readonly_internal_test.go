package sqlkind

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestCheckReadOnly pins what the read-only statement check lets through
// and what it refuses, with the reason, on each dialect.
func TestCheckReadOnly(t *testing.T) {
	t.Parallel()
	all := []*dialect{sqliteDialect, postgresDialect, mysqlDialect}
	my := []*dialect{mysqlDialect}
	pg := []*dialect{postgresDialect}
	for _, tt := range []struct {
		sql      string
		dialects []*dialect
		want     string // "" for accepted; else part of the reason
	}{
		{"SELECT id, name FROM t WHERE id = :id", all, ""},
		{"  (SELECT 1) UNION (SELECT 2);  -- done", all, ""},
		{"WITH x AS (SELECT 1 AS a) SELECT a FROM x", all, ""},
		{"VALUES (1), (2)", all, ""},
		{"EXPLAIN SELECT * FROM t", all, ""},
		{"SHOW TABLES", my, ""},
		{"SHOW CREATE TABLE t", my, ""},
		{"DESCRIBE t", my, ""},
		{"TABLE t", pg, ""},
		{"SELECT replace(name, 'a', 'b'), insert(name, 1, 2, 'x') FROM t", my, ""},
		{"SELECT * FROM t FOR UPDATE", all, ""},
		{"SELECT * FROM t FOR NO KEY UPDATE", pg, ""},
		{"SELECT 'DROP TABLE t; INTO' AS \"DELETE\", `into` FROM t", my, ""},
		{"SELECT $$ DROP TABLE t $$, $a$ ; DELETE $a$", pg, ""},
		{"SELECT 1 /* ; DROP TABLE t */ -- ; DELETE", all, ""},
		{"SELECT a$b FROM t", pg, ""},
		{"SELECT 'C:\\'", pg, ""}, // standard strings: a backslash is a character

		{"DROP TABLE t", all, "DROP is not a query"},
		{"CREATE TABLE x AS SELECT * FROM t", all, "CREATE is not a query"},
		{"create temporary table x (a int)", all, "create is not a query"},
		{"ALTER TABLE t ADD c INT", all, "ALTER is not a query"},
		{"TRUNCATE t", all, "TRUNCATE is not a query"},
		{"DELETE FROM t", all, "DELETE is not a query"},
		{"INSERT INTO t VALUES (1)", all, "INSERT is not a query"},
		{"UPDATE t SET a = 1", all, "UPDATE is not a query"},
		{"REPLACE INTO t VALUES (1)", all, "REPLACE is not a query"},
		{"MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE", pg, "MERGE is not a query"},
		{"CALL p()", all, "CALL is not a query"},
		{"DO $$ BEGIN DELETE FROM t; END $$", pg, "DO is not a query"},
		{"DO sleep(1)", my, "DO is not a query"},
		{"LOAD DATA INFILE '/tmp/x' INTO TABLE t", my, "LOAD is not a query"},
		{"COPY t TO '/tmp/x'", pg, "COPY is not a query"},
		{"COPY (SELECT 1) TO PROGRAM 'touch /tmp/x'", pg, "COPY is not a query"},
		{"SET SESSION TRANSACTION READ WRITE", all, "SET is not a query"},
		{"SET default_transaction_read_only = off", pg, "SET is not a query"},
		{"LOCK TABLES t WRITE", my, "LOCK is not a query"},
		{"LOCK TABLE t IN ACCESS EXCLUSIVE MODE", pg, "LOCK is not a query"},
		{"PRAGMA query_only = 0", all, "PRAGMA is not a query"},
		{"ATTACH DATABASE '/tmp/x.db' AS x", all, "ATTACH is not a query"},
		{"VACUUM INTO '/tmp/x.db'", all, "VACUUM is not a query"},
		{"HANDLER t OPEN", my, "HANDLER is not a query"},
		{"COMMIT", all, "COMMIT is not a query"},
		{"GRANT ALL ON t TO u", all, "GRANT is not a query"},
		{"/* hello */ -- there\n DROP TABLE t", all, "DROP is not a query"},
		{"", all, "no keyword"},

		{"SELECT * INTO x FROM t", all, "INTO changes"},
		{"SELECT * FROM t INTO OUTFILE '/tmp/x'", my, "INTO changes"},
		{"SELECT * FROM t INTO DUMPFILE '/tmp/x'", my, "INTO changes"},
		{"SELECT 1 INTO @v", my, "INTO changes"},
		{"SELECT 1INTO @v", my, "INTO changes"},
		{"WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", pg, "DELETE changes"},
		{"WITH x AS (SELECT 1) UPDATE t SET a = 1", all, "UPDATE changes"},
		{"WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x", all, "INSERT changes"},
		{"EXPLAIN ANALYZE DELETE FROM t", all, "DELETE changes"},
		{"EXPLAIN (ANALYZE) CREATE TABLE x AS SELECT 1", pg, "CREATE changes"},
		{"EXPLAIN ANALYZE EXECUTE p", pg, "EXECUTE changes"},
		{"SELECT 1; DROP TABLE t", all, "one statement"},
		{"SELECT 1;; SELECT 2", all, "one statement"},
		{"SELECT 1 /**/; DELETE FROM t", all, "one statement"},

		// MySQL runs what is inside /*! … */ and /*M! … */.
		{"/*!50000 DROP TABLE t */", my, "/*! … */"},
		{"SELECT 1 /*!, (SELECT 1) */", my, "/*! … */"},
		{"SELECT 1 /*M!100000 INTO @x */", my, "/*! … */"},
		// MySQL: -- is a comment only before a space; --1 is minus minus 1.
		{"SELECT 1 --1 INTO OUTFILE '/tmp/x'", my, "INTO changes"},
		{"SELECT 1 --1\n; DROP TABLE t", my, "one statement"},
		// A string that ends differently under NO_BACKSLASH_ESCAPES or
		// ANSI_QUOTES must not hide code.
		{"SELECT '\\' INTO OUTFILE '/tmp/x' -- '", my, "INTO changes"},
		{"SELECT \"a\\\" INTO OUTFILE '/tmp/x' -- \"", my, "INTO changes"},
		{"SELECT 'x\\'; DROP TABLE t; -- '", pg, "one statement"},
		// a$b$ is an identifier in PostgreSQL, not the start of a dollar quote.
		{"SELECT 1 AS a$b$; DROP TABLE t; SELECT 1 AS c$b$", pg, "one statement"},
	} {
		for _, d := range tt.dialects {
			t.Run(d.name+"/"+tt.sql, func(t *testing.T) {
				err := check(tt.sql, d)
				switch {
				case tt.want == "" && err != nil:
					t.Errorf("refused: %v", err)
				case tt.want != "" && err == nil:
					t.Errorf("accepted, want refused for %q", tt.want)
				case tt.want != "" && !strings.Contains(err.Error(), tt.want):
					t.Errorf("got %q, want it to say %q", err, tt.want)
				}
			})
		}
	}
}

// check translates src and checks it, as Build does.
func check(src string, d *dialect) error {
	st, err := translate(src, d.syntax)
	if err != nil {
		return err
	}
	return checkReadOnly(src, st, d.syntax)
}

// TestEndPostgresDiscardsSwitchedConnection proves that a connection of
// the read-only pool whose session a statement switched to read-write
// does not go back to the pool.
func TestEndPostgresDiscardsSwitchedConnection(t *testing.T) {
	dsn := os.Getenv("MCPGEN_TEST_POSTGRES_DSN")
	if dsn == "" {
		t.Skip("MCPGEN_TEST_POSTGRES_DSN is not set")
	}
	ctx := context.Background()
	c := &BackendConfig{MaxOpen: 1}
	ro, err := c.openPool(postgresDialect, dsn, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	conn, err := ro.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "SELECT set_config('default_transaction_read_only', 'off', false)"); err != nil {
		t.Fatal(err)
	}
	endPostgres(&session{conn: conn, readOnly: true, enforced: true})
	_ = conn.Close()
	var v string
	if err := ro.QueryRowContext(ctx, "SHOW default_transaction_read_only").Scan(&v); err != nil || v != "on" {
		t.Errorf("the next connection of the read-only pool has default_transaction_read_only %q (%v), want on", v, err)
	}
}
