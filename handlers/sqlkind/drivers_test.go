package sqlkind_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"
)

func quoteDouble(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func open(t testing.TB, driver, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Ping(); err != nil {
		t.Fatalf("connecting to %s: %v", driver, err)
	}
	return db
}

func TestSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "test.db")
	testDatabase(t, &database{
		driver: "sqlite", dsn: path, decimal: "12345.6789",
		showTimeout: "SELECT 'none' AS v", wantTimeout: "none", db: open(t, "sqlite", path), quote: quoteDouble,
		sleep:    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c",
		inList:   "id IN (SELECT value FROM json_each(:ids))",
		typesDDL: "CREATE TABLE {TT} (id INTEGER PRIMARY KEY, n INTEGER, f REAL, d DECIMAL(30,10), t DATETIME, b BLOB, j JSON, s TEXT)",
		typesInsert: `INSERT INTO {TT} VALUES (1, 9007199254740993, 1.5, 12345.6789, '2024-05-06 07:08:09',
			x'00ff10', '{"k": [1, 2.5, "x"], "big": 12345678901234567890}', 'héllo'), (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
	})
}

func TestPostgres(t *testing.T) {
	dsn := os.Getenv("MCPGEN_TEST_POSTGRES_DSN")
	if dsn == "" {
		t.Skip("MCPGEN_TEST_POSTGRES_DSN is not set")
	}
	testDatabase(t, &database{
		driver: "postgres", dsn: dsn, decimal: "12345678901234567890.1234567890",
		showTimeout: "SHOW statement_timeout", wantTimeout: "2s", db: open(t, "pgx", dsn), quote: quoteDouble,
		sleep:    "SELECT pg_sleep(30)",
		sleeping: "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)' AND state = 'active'",
		inList:   "id = ANY(:ids)",
		typesDDL: "CREATE TABLE {TT} (id INTEGER PRIMARY KEY, n BIGINT, f DOUBLE PRECISION, d NUMERIC(30,10), t TIMESTAMP, b BYTEA, j JSONB, s TEXT)",
		typesInsert: `INSERT INTO {TT} VALUES (1, 9007199254740993, 1.5, 12345678901234567890.1234567890, '2024-05-06 07:08:09',
			'\x00ff10', '{"k": [1, 2.5, "x"], "big": 12345678901234567890}', 'héllo'), (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
	})
}

func TestMySQL(t *testing.T) {
	dsn := os.Getenv("MCPGEN_TEST_MYSQL_DSN")
	if dsn == "" {
		t.Skip("MCPGEN_TEST_MYSQL_DSN is not set")
	}
	testDatabase(t, &database{
		driver: "mysql", dsn: dsn, decimal: "12345678901234567890.1234567890",
		showTimeout: "SELECT @@max_statement_time AS v", wantTimeout: "2", db: open(t, "mysql", dsn),
		quote:    func(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" },
		sleep:    "SELECT SLEEP(30)",
		sleeping: "SELECT count(*) FROM information_schema.processlist WHERE info = 'SELECT SLEEP(30)'",
		inList:   "JSON_CONTAINS(:ids, CAST(id AS CHAR))",
		typesDDL: "CREATE TABLE {TT} (id INTEGER PRIMARY KEY, n BIGINT, f DOUBLE, d DECIMAL(30,10), t DATETIME, b BLOB, j JSON, s TEXT)",
		typesInsert: `INSERT INTO {TT} VALUES (1, 9007199254740993, 1.5, 12345678901234567890.1234567890, '2024-05-06 07:08:09',
			X'00FF10', '{"k": [1, 2.5, "x"], "big": 12345678901234567890}', 'héllo'), (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
	})
}
