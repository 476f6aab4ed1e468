package sqlkind_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
)

// An attack is a statement with which a read-only tool tries to change
// something.
type attack struct {
	name, sql string
	// check: the statement check refuses it when the config loads.
	check bool
	// db: the database refuses it on its own, without the check. Where it
	// does not (MySQL writes SELECT … INTO OUTFILE, PostgreSQL takes
	// locks, both change session settings), the database must still be
	// unchanged after it ran.
	db bool
}

// attacks are the statements tried on every database, in this order:
// first those that try to switch the connection to read-write, then the
// writes that would succeed if one of them had.
func (d *database) attacks(t *testing.T, tbl string) []attack {
	t.Helper()
	common := []attack{
		{"create as select", "CREATE TABLE {T}_x AS SELECT * FROM {T}", true, true},
		{"drop", "DROP TABLE {T}", true, true},
		{"alter", "ALTER TABLE {T} ADD COLUMN z INTEGER", true, true},
		{"index", "CREATE INDEX {T}_i ON {T} (name)", true, true},
		{"view", "CREATE VIEW {T}_v AS SELECT 1 AS a", true, true},
		{"temporary table", "CREATE TEMPORARY TABLE {T}_tmp (a INTEGER)", true, true},
		{"delete", "DELETE FROM {T}", true, true},
		{"insert", "INSERT INTO {T} (id, name) VALUES (100, 'x')", true, true},
		{"update", "UPDATE {T} SET name = 'x'", true, true},
		{"two statements", "SELECT 1; DROP TABLE {T}", true, true},
		{"comment", "/* SELECT */ DELETE FROM {T} -- SELECT", true, true},
	}
	var own []attack
	switch d.driver {
	case "sqlite":
		own = d.sqliteAttacks(t)
	case "postgres":
		own = d.postgresAttacks(t, tbl)
	case "mysql":
		own = d.mysqlAttacks(t, tbl)
	}
	all := append(own, common...)
	if d.driver == "mysql" {
		all = append(common, own...) // see mysqlAttacks
	}
	for i := range all {
		all[i].sql = strings.ReplaceAll(all[i].sql, "{T}", tbl)
	}
	return all
}

// sqliteAttacks run in autocommit, on a connection of the read-only pool
// whose authorizer lets statements read and nothing else (see
// readOnlySQLite): each is refused, including those that would undo
// query_only or outlive the call on the connection (ATTACH, temporary
// objects that shadow a table).
func (d *database) sqliteAttacks(t *testing.T) []attack {
	dir := t.TempDir()
	return []attack{
		{"pragma query_only", "PRAGMA query_only = 0", true, true},
		{"pragma writable_schema", "PRAGMA writable_schema = ON", true, true},
		{"pragma user_version", "PRAGMA user_version = 7", true, true},
		{"replace", "REPLACE INTO {T} (id, name) VALUES (1, 'x')", true, true},
		{"with delete", "WITH x AS (SELECT 1) DELETE FROM {T}", true, true},
		{"attach", "ATTACH DATABASE '" + filepath.Join(dir, "a.db") + "' AS a", true, true},
		{"write to the attached database", "CREATE TABLE a.x (b INTEGER)", true, true},
		{"temporary view over the table", "CREATE TEMP VIEW {T} AS SELECT 0 AS id, 'x' AS name", true, true},
		{"temporary trigger", "CREATE TEMP TRIGGER {T}_t AFTER INSERT ON {T} BEGIN SELECT 1; END", true, true},
		{"savepoint", "SAVEPOINT s", true, true},
		{"vacuum", "VACUUM", true, true},
		{"vacuum into", "VACUUM INTO '" + filepath.Join(dir, "v.db") + "'", true, true},
		{"analyze", "ANALYZE", true, true},
		{"load extension", "SELECT load_extension('" + filepath.Join(dir, "x.so") + "')", false, true},
	}
}

func (d *database) postgresAttacks(t *testing.T, tbl string) []attack {
	file := filepath.Join(os.TempDir(), tbl+".csv")
	d.setup(t, []string{
		"CREATE FUNCTION {T}_flip() RETURNS int LANGUAGE sql AS $$ SELECT length(set_config('default_transaction_read_only', 'off', false)) * 0 $$",
		"CREATE FUNCTION {T}_w() RETURNS int LANGUAGE plpgsql AS $$ BEGIN INSERT INTO {T} (id, name) VALUES (101, 'w'); RETURN 1; END $$",
		"CREATE PROCEDURE {T}_p() LANGUAGE plpgsql AS $$ BEGIN CREATE TABLE {T}_p (a int); INSERT INTO {T} (id, name) VALUES (102, 'p'); END $$",
		"CREATE SEQUENCE {T}_s",
		"COPY (SELECT 103, 'c') TO '" + file + "' (FORMAT csv)",
	}, []string{"DROP FUNCTION {T}_flip", "DROP FUNCTION {T}_w", "DROP PROCEDURE {T}_p", "DROP SEQUENCE {T}_s"}, tbl)
	return []attack{
		{"set session read write", "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE", true, false},
		{"set default", "SET default_transaction_read_only = off", true, false},
		{"function that switches to read-write", "SELECT {T}_flip()", false, false},
		{"function that writes", "SELECT {T}_w()", false, true},
		{"procedure", "CALL {T}_p()", true, true},
		{"do", "DO $$ BEGIN INSERT INTO {T} (id, name) VALUES (104, 'do'); END $$", true, true},
		{"select into", "SELECT * INTO {T}_y FROM {T}", true, true},
		{"copy from", "COPY {T} FROM '" + file + "' (FORMAT csv)", true, true},
		{"copy to", "COPY {T} TO '" + filepath.Join(t.TempDir(), "out.csv") + "'", true, false},
		{"sequence", "SELECT nextval('{T}_s')", false, true},
		{"data-modifying with", "WITH d AS (DELETE FROM {T} RETURNING *) SELECT * FROM d", true, true},
		{"explain analyze", "EXPLAIN ANALYZE DELETE FROM {T}", true, true},
		{"lock", "LOCK TABLE {T} IN ACCESS EXCLUSIVE MODE", true, false},
		{"truncate", "TRUNCATE {T}", true, true},
	}
}

// mysqlAttacks run after the common ones: a stored function can switch
// the session to read-write (the last attacks), and MySQL's read-only
// session, unlike its READ ONLY transaction, is what stops DDL, which
// commits the transaction first. After the switch only the statement
// check keeps DDL out; the READ ONLY transaction still stops the function
// that writes.
func (d *database) mysqlAttacks(t *testing.T, tbl string) []attack {
	file := filepath.Join(os.TempDir(), tbl+".txt")
	d.setup(t, []string{
		"CREATE FUNCTION {T}_flip() RETURNS int BEGIN SET SESSION TRANSACTION READ WRITE; RETURN 0; END",
		"CREATE FUNCTION {T}_w() RETURNS int BEGIN INSERT INTO {T} (id, name) VALUES (101, 'w'); RETURN 1; END",
		"CREATE PROCEDURE {T}_p() BEGIN CREATE TABLE {T}_p (a int); INSERT INTO {T} (id, name) VALUES (102, 'p'); END",
		"SELECT 103, 'l' INTO OUTFILE '" + file + "'",
	}, []string{"DROP FUNCTION {T}_flip", "DROP FUNCTION {T}_w", "DROP PROCEDURE {T}_p", "DROP TABLE IF EXISTS {T}_p"}, tbl)
	return []attack{
		{"do", "DO {T}_w()", true, true},
		{"procedure", "CALL {T}_p()", true, true},
		{"executable comment", "/*!50000 DROP TABLE {T} */", true, true},
		{"mariadb executable comment", "/*M!100000 DELETE FROM {T} */", true, true},
		{"load data", "LOAD DATA INFILE '" + file + "' INTO TABLE {T}", true, true},
		{"into outfile", "SELECT * FROM {T} INTO OUTFILE '" + filepath.Join(t.TempDir(), "out.txt") + "'", true, false},
		{"into variable", "SELECT name FROM {T} WHERE id = 1 INTO @v", true, false},
		{"lock", "LOCK TABLES {T} WRITE", true, true},
		{"replace", "REPLACE INTO {T} (id, name) VALUES (1, 'x')", true, true},
		{"truncate", "TRUNCATE TABLE {T}", true, true},
		{"rename", "RENAME TABLE {T} TO {T}_r", true, true},
		{"set session read write", "SET SESSION TRANSACTION READ WRITE", true, false},
		{"function that writes after set", "SELECT {T}_w()", false, true},
		{"function that switches to read-write", "SELECT {T}_flip()", false, false},
		{"function that writes after the switch", "SELECT {T}_w()", false, true},
	}
}

// setup runs statements ({T} is tbl) that an attack needs, and the undo
// statements when the test ends. A setup statement that fails skips the
// test: the server does not allow what it needs (secure_file_priv).
func (d *database) setup(t *testing.T, do, undo []string, tbl string) {
	t.Helper()
	t.Cleanup(func() {
		for _, q := range undo {
			_, _ = d.db.Exec(strings.ReplaceAll(q, "{T}", tbl))
		}
	})
	for _, q := range do {
		if _, err := d.db.Exec(strings.ReplaceAll(q, "{T}", tbl)); err != nil {
			t.Skipf("setting up: %s: %v", q, err)
		}
	}
}

// snapshot describes the test tables: which exist, their rows and columns.
func (d *database) snapshot(t *testing.T, tbl string) string {
	t.Helper()
	list := map[string]string{
		"sqlite":   "SELECT name FROM sqlite_master WHERE name LIKE ? ORDER BY name",
		"postgres": "SELECT table_name FROM information_schema.tables WHERE table_name LIKE $1 ORDER BY table_name",
		"mysql":    "SELECT table_name FROM information_schema.tables WHERE table_name LIKE ? ORDER BY table_name",
	}[d.driver]
	var b strings.Builder
	d.dump(t, &b, list, tbl+"%")
	d.dump(t, &b, "SELECT * FROM "+tbl+" ORDER BY id")
	return b.String()
}

func (d *database) dump(t *testing.T, b *strings.Builder, q string, args ...any) {
	t.Helper()
	rows, err := d.db.Query(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	fmt.Fprintln(b, cols)
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(b, "%s\n", vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// readOnlyConfig has one read-only tool per attack, on a backend with a
// single connection per pool, so that a setting an attack changes stays
// for the next.
func (d *database) readOnlyConfig(attacks []attack) string {
	var b strings.Builder
	fmt.Fprintf(&b, "version: 1\nbackends:\n  db: {kind: sql, driver: %s, dsn: %q, max_open: 1}\ntools:\n", d.driver, d.dsn)
	for i, a := range attacks {
		fmt.Fprintf(&b, "  - name: a%d\n    description: %s\n    handler:\n      backend: db\n      query: |\n        %s\n", i, a.name, a.sql)
	}
	return b.String()
}

// testReadOnlyAttacks proves both lines of read-only mode: the statement
// check refuses every attack when the config loads, and without the check
// the database refuses each write on its own, leaving everything as it
// was.
func testReadOnlyAttacks(t *testing.T, d *database) {
	tbl, _ := d.tables(t)
	attacks := d.attacks(t, tbl)
	cfg := d.readOnlyConfig(attacks)
	t.Run("statement check", func(t *testing.T) {
		ds := handlertest.Diagnose(t, registry(), cfg).Error()
		for i, a := range attacks {
			if got := strings.Contains(ds, fmt.Sprintf("tools[%d].handler.query: ", i)); got != a.check {
				t.Errorf("%s: %s: refused by the check: %v, want %v\n%s", a.name, a.sql, got, a.check, ds)
			}
		}
	})
	t.Run("database", func(t *testing.T) {
		before := d.snapshot(t, tbl)
		srv := handlertest.Build(t, unchecked(), cfg, nil)
		for i, a := range attacks {
			res := call(t, srv, fmt.Sprintf("a%d", i), map[string]any{})
			if a.db && !res.IsError {
				t.Errorf("%s: %s ran in a read-only tool: %s", a.name, a.sql, handlertest.Text(res))
			}
			if text := handlertest.Text(res); strings.Contains(text, "authorization denied") && !strings.Contains(text, "the tool is read-only") {
				t.Errorf("%s: the refusal does not say the tool is read-only: %s", a.name, text)
			}
			if testing.Verbose() {
				t.Logf("%s: error=%v %s", a.name, res.IsError, handlertest.Text(res))
			}
		}
		if diff := cmp.Diff(before, d.snapshot(t, tbl)); diff != "" {
			t.Errorf("read-only tools changed the database (-before +after):\n%s", diff)
		}
	})
}
