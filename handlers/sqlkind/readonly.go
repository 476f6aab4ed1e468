package sqlkind

import (
	"fmt"
	"slices"
	"strings"
)

// The read-only check is the first of two lines that keep a read-only tool
// from changing anything; the second is the database itself (see
// readOnlyPool). It runs once, when the config loads, on the statement as
// written: a lexer that knows each dialect's literals and comments reads
// the keywords the server will read, and refuses anything that is not
// plainly a query. It errs on the side of refusing: a statement it refuses
// can still run in a tool with read_only: false.

// readVerbs are the statements a read-only tool may run.
var readVerbs = []string{"SELECT", "WITH", "VALUES", "TABLE", "SHOW", "EXPLAIN", "DESCRIBE", "DESC"}

// writeWords are keywords that make a statement write wherever they
// appear in it: WITH d AS (DELETE …), EXPLAIN ANALYZE INSERT …, SELECT …
// INTO OUTFILE, EXPLAIN ANALYZE CREATE TABLE … AS.
var writeWords = []string{
	"INSERT", "UPDATE", "DELETE", "MERGE", "REPLACE", "TRUNCATE", "INTO", "CREATE", "DROP", "ALTER",
	"EXECUTE", "DECLARE", "GRANT", "REVOKE",
}

// functions are the writeWords that are also functions, before "(":
// REPLACE(s, a, b), MySQL's INSERT(s, pos, n, t) and TRUNCATE(x, d).
var functions = []string{"REPLACE", "INSERT", "TRUNCATE"}

// checkReadOnly returns why st, translated from src, cannot run in a
// read-only tool, or nil. The statement must be read as a query however
// the server treats backslashes in strings (MySQL's NO_BACKSLASH_ESCAPES
// and ANSI_QUOTES, PostgreSQL's standard_conforming_strings), which a DSN
// or the server's configuration can change.
func checkReadOnly(src string, st *statement, syn syntax) error {
	if err := checkCode(st); err != nil {
		return err
	}
	for _, alt := range readings(syn) {
		// A reading in which the statement does not lex is a syntax error
		// on a server that reads it so.
		if other, err := translate(src, alt); err == nil {
			if err := checkCode(other); err != nil {
				return err
			}
		}
	}
	return nil
}

// readings are the other ways a server of this dialect may read strings.
func readings(syn syntax) []syntax {
	var alts []syntax
	switch {
	case syn.doubleString: // mysql: backslashes escape in '…' only (ANSI_QUOTES), or nowhere
		ansi, none := syn, syn
		ansi.doubleString = false
		none.backslash = false
		alts = append(alts, ansi, none)
	case syn.dollarQuotes: // postgres: backslashes escape in every '…'
		old := syn
		old.backslash = true
		alts = append(alts, old)
	}
	return alts
}

// checkCode checks the keywords of one reading of a statement.
func checkCode(st *statement) error {
	if st.execComment {
		return fmt.Errorf("/*! … */ is a comment the server runs as code; a read-only statement cannot have one")
	}
	code, rest, _ := strings.Cut(st.code, ";")
	if strings.TrimSpace(rest) != "" {
		return fmt.Errorf("a read-only tool runs one statement; this has more after the ;")
	}
	words := keywords(code)
	if len(words) == 0 {
		return fmt.Errorf("the statement has no keyword to run")
	}
	if !slices.Contains(readVerbs, words[0].upper) {
		return fmt.Errorf("%s is not a query; a read-only statement starts with one of %s", words[0].text, strings.Join(readVerbs, ", "))
	}
	for i, w := range words {
		if writes(words, i) {
			return fmt.Errorf("%s changes the database or the server; a read-only statement cannot have it", w.text)
		}
	}
	return nil
}

// writes reports whether words[i] is a keyword that writes.
func writes(words []word, i int) bool {
	w := words[i]
	if !slices.Contains(writeWords, w.upper) || w.call && slices.Contains(functions, w.upper) {
		return false
	}
	prev := ""
	if i > 0 {
		prev = words[i-1].upper
	}
	switch {
	case w.upper == "UPDATE" && (prev == "FOR" || prev == "KEY"): // locking reads: FOR [NO KEY] UPDATE
		return false
	case w.upper == "CREATE" && prev == "SHOW": // SHOW CREATE TABLE
		return false
	}
	return true
}

// A word is a keyword or a name in a statement's code.
type word struct {
	text, upper string
	call        bool // followed by "(": a function
}

// keywords splits code into its words. A word is a run of letters,
// digits, _ and $, less its leading digits: MySQL reads 1INTO as 1 INTO.
func keywords(code string) []word {
	var words []word
	for i := 0; i < len(code); {
		if !isIdent(code[i]) && code[i] != '$' {
			i++
			continue
		}
		j := i
		for j < len(code) && (isIdent(code[j]) || code[j] == '$') {
			j++
		}
		text := strings.TrimLeft(code[i:j], "0123456789")
		if text != "" {
			next := strings.TrimLeft(code[j:], " \t\r\n\f")
			words = append(words, word{text: text, upper: strings.ToUpper(text), call: strings.HasPrefix(next, "(")})
		}
		i = j
	}
	return words
}
