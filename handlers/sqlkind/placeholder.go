package sqlkind

import (
	"fmt"
	"strconv"
	"strings"
)

// A placeholder is one `:name` found in a statement.
type placeholder struct {
	name string
	off  int // byte offset of the colon in the statement text
}

// statement is a statement translated to its driver's placeholder style.
type statement struct {
	text  string        // the SQL the driver sees
	binds []string      // parameter names, in the order the driver binds them
	found []placeholder // every placeholder, as written
	// code is text with every literal replaced by 0 and every comment by a
	// space: what the server reads as keywords, for the read-only check.
	code string
	// mask is the text as written with every literal and comment blanked
	// out by spaces: the code, at the offsets of the text (see page.go).
	mask string
	// execComment: the text has a MySQL executable comment, /*! … */.
	execComment bool
}

// syntax says which quoting and comment forms a dialect has, so that a `:name`
// inside a string literal, a quoted identifier or a comment is left alone.
type syntax struct {
	backslash    bool // backslash escapes inside '…' and "…" (MySQL)
	doubleString bool // "…" is a string, not an identifier (MySQL)
	backtick     bool // `…` quotes identifiers (MySQL, SQLite)
	brackets     bool // […] quotes identifiers (SQLite)
	hashComment  bool // # starts a comment (MySQL)
	dollarQuotes bool // $tag$…$tag$ strings, E'…' escapes, nested /* */ (PostgreSQL)
	numbered     bool // placeholders are $1, $2 (PostgreSQL); otherwise ?
	// mysqlComments: -- starts a comment only before a space or a control
	// character (MySQL; --1 is minus minus one); /*! and /*M! comments are
	// code the server runs.
	mysqlComments bool
}

// translate rewrites the `:name` placeholders of src into the dialect's
// positional style. It fails on positional placeholders written by hand, on
// unterminated literals and comments.
func translate(src string, syn syntax) (*statement, error) {
	t := &translator{src: src, syn: syn, st: &statement{}, index: map[string]int{}}
	if err := t.run(); err != nil {
		return nil, err
	}
	t.st.text = t.out.String()
	t.st.code = t.code.String()
	t.st.mask = t.mask.String()
	return t.st, nil
}

type translator struct {
	src   string
	syn   syntax
	i     int
	out   strings.Builder
	code  strings.Builder // see statement.code
	mask  strings.Builder // see statement.mask
	st    *statement
	index map[string]int // name → $N, for numbered placeholders
}

func (t *translator) run() error {
	for t.i < len(t.src) {
		c := t.src[t.i]
		mark, start, from := " 0 ", t.out.Len(), t.i // what stands for a literal in code
		var err error
		switch {
		case c == '\'':
			err = t.quoted('\'', t.syn.backslash || t.escapeString())
		case c == '"':
			err = t.quoted('"', t.syn.backslash && t.syn.doubleString)
		case c == '`' && t.syn.backtick:
			err = t.quoted('`', false)
		case c == '[' && t.syn.brackets:
			err = t.until("]", "quoted identifier")
		case c == '-' && t.peek(1) == '-' && t.dashComment(), c == '#' && t.syn.hashComment:
			mark = " "
			t.lineComment()
		case c == '/' && t.peek(1) == '*':
			mark = " "
			err = t.blockComment()
		case c == '$' && t.syn.dollarQuotes && !t.afterIdent():
			err = t.dollar()
		default:
			mark = ""
			err = t.codeChar(c)
		}
		if err != nil {
			return err
		}
		if mark == "" {
			t.code.WriteString(t.out.String()[start:])
			t.mask.WriteString(t.src[from:t.i])
		} else {
			t.code.WriteString(mark)
			t.mask.WriteString(strings.Repeat(" ", t.i-from))
		}
	}
	return nil
}

// codeChar copies the character at t.i, which is code, not a literal or
// a comment.
func (t *translator) codeChar(c byte) error {
	switch {
	case c == ':':
		return t.colon()
	case c == '?' && !t.syn.numbered:
		return t.errorf("a bare ? is a positional placeholder; write :name and bind it in params")
	case c == '$' && t.syn.dollarQuotes && isDigit(t.peek(1)) && !t.afterIdent():
		return t.errorf("$%c is a positional placeholder; write :name and bind it in params", t.peek(1))
	}
	t.copy(1)
	return nil
}

// dashComment reports whether the -- at t.i starts a comment.
func (t *translator) dashComment() bool {
	return !t.syn.mysqlComments || t.peek(2) <= ' '
}

// afterIdent reports whether t.i follows an identifier character: a $
// there is part of a PostgreSQL identifier (a$b), never a dollar quote.
func (t *translator) afterIdent() bool {
	return t.i > 0 && (isIdent(t.src[t.i-1]) || t.src[t.i-1] == '$')
}

func (t *translator) peek(k int) byte {
	if t.i+k < len(t.src) {
		return t.src[t.i+k]
	}
	return 0
}

func (t *translator) copy(n int) {
	t.out.WriteString(t.src[t.i : t.i+n])
	t.i += n
}

// escapeString reports whether the quote at t.i opens a PostgreSQL E'…'
// string, in which backslash escapes.
func (t *translator) escapeString() bool {
	if !t.syn.dollarQuotes || t.i == 0 {
		return false
	}
	p := t.src[t.i-1]
	return (p == 'E' || p == 'e') && (t.i == 1 || !isIdent(t.src[t.i-2]))
}

// quoted copies a literal delimited by q, where a doubled q (and, with
// backslash, \q) stands for q itself.
func (t *translator) quoted(q byte, backslash bool) error {
	start := t.i
	for j := t.i + 1; j < len(t.src); j++ {
		switch {
		case backslash && t.src[j] == '\\':
			j++
		case t.src[j] == q && j+1 < len(t.src) && t.src[j+1] == q:
			j++
		case t.src[j] == q:
			t.copy(j + 1 - start)
			return nil
		}
	}
	return t.errorf("unterminated %s", map[byte]string{'\'': "string literal", '"': "quoted identifier", '`': "quoted identifier"}[q])
}

// until copies up to and including end.
func (t *translator) until(end, what string) error {
	j := strings.Index(t.src[t.i+1:], end)
	if j < 0 {
		return t.errorf("unterminated %s", what)
	}
	t.copy(j + 1 + len(end))
	return nil
}

func (t *translator) lineComment() {
	j := strings.IndexByte(t.src[t.i:], '\n')
	if j < 0 {
		j = len(t.src) - t.i
	}
	t.copy(j)
}

// blockComment copies a /* */ comment; PostgreSQL's nest.
func (t *translator) blockComment() error {
	if t.syn.mysqlComments && (t.peek(2) == '!' || (t.peek(2) == 'M' || t.peek(2) == 'm') && t.peek(3) == '!') {
		t.st.execComment = true
	}
	start, depth := t.i, 0
	for j := t.i; j+1 < len(t.src); j++ {
		switch {
		case t.src[j] == '/' && t.src[j+1] == '*' && (depth == 0 || t.syn.dollarQuotes):
			depth++
			j++
		case t.src[j] == '*' && t.src[j+1] == '/':
			depth--
			j++
			if depth == 0 {
				t.copy(j + 1 - start)
				return nil
			}
		}
	}
	return t.errorf("unterminated /* comment")
}

// dollar copies a $tag$…$tag$ string, and rejects $1 placeholders.
func (t *translator) dollar() error {
	j := t.i + 1
	for j < len(t.src) && isIdent(t.src[j]) && !(j == t.i+1 && isDigit(t.src[j])) {
		j++
	}
	if j < len(t.src) && t.src[j] == '$' {
		tag := t.src[t.i : j+1]
		k := strings.Index(t.src[j+1:], tag)
		if k < 0 {
			return t.errorf("unterminated %s string", tag)
		}
		t.copy(j + 1 - t.i + k + len(tag))
		return nil
	}
	return t.codeChar('$')
}

// colon handles `::` casts, `:=` and `:name` placeholders.
func (t *translator) colon() error {
	if t.peek(1) == ':' {
		t.copy(2)
		return nil
	}
	// After an identifier character it is a slice bound (arr[lo:hi]), not a placeholder.
	if !isIdentStart(t.peek(1)) || (t.i > 0 && isIdent(t.src[t.i-1])) {
		t.copy(1)
		return nil
	}
	j := t.i + 1
	for j < len(t.src) && isIdent(t.src[j]) {
		j++
	}
	name := t.src[t.i+1 : j]
	t.st.found = append(t.st.found, placeholder{name: name, off: t.i})
	t.i = j
	if !t.syn.numbered {
		t.out.WriteByte('?')
		t.st.binds = append(t.st.binds, name)
		return nil
	}
	n, ok := t.index[name]
	if !ok {
		t.st.binds = append(t.st.binds, name)
		n = len(t.st.binds)
		t.index[name] = n
	}
	t.out.WriteString("$" + strconv.Itoa(n))
	return nil
}

// syntaxError is a statement that cannot be translated, at byte off of its
// text.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

func (t *translator) errorf(format string, args ...any) error {
	return &syntaxError{off: t.i, msg: fmt.Sprintf(format, args...)}
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdent(c byte) bool { return isIdentStart(c) || isDigit(c) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
