package transport

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
)

func TestScanFrame(t *testing.T) {
	for _, tt := range []struct {
		line      string
		id        string
		hasMethod bool
		array     bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "1", true, false},
		{`{"method":"ping","jsonrpc":"2.0","id":"a\"b"}`, `"a\"b"`, true, false},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "", true, false},
		{`{"jsonrpc":"2.0","id":null,"method":"x"}`, "null", true, false},
		{`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"{\"id\":1,\"method\":\"x\"}"}]}}`, "7", false, false},
		{`{"jsonrpc":"2.0","params":{"id":1,"method":"nested"},"method":"notifications/x"}`, "", true, false},
		{`{ "id" : 3.5 , "method" : "a" }`, "3.5", true, false},
		{`{"id":{"a":1},"method":"a"}`, "{", true, false},
		{`[{"id":1,"method":"a"}]`, "", false, true},
		{`{"id":12,"method":"a"`, "12", true, false},
		{`{"id":,"method":"a"}`, "", true, false},
		{`not json`, "", false, false},
		{``, "", false, false},
	} {
		fi := scanFrame([]byte(tt.line))
		if string(fi.id) != tt.id || fi.hasMethod != tt.hasMethod || fi.array != tt.array {
			t.Errorf("scanFrame(%s) = id %q, method %v, array %v; want %q, %v, %v",
				tt.line, fi.id, fi.hasMethod, fi.array, tt.id, tt.hasMethod, tt.array)
		}
	}
}

// TestDecodeFrame pins the reply to every kind of malformed frame: the
// JSON-RPC code, and the id it is addressed to (none: dropped and logged).
func TestDecodeFrame(t *testing.T) {
	type reply struct {
		ID      string
		Code    int64
		Message string
	}
	for _, tt := range []struct {
		name, line string
		want       *reply // nil: a message passed on
	}{
		{"request", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, nil},
		{"string id", `{"jsonrpc":"2.0","id":"x","method":"ping"}`, nil},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil},
		{"response", `{"jsonrpc":"2.0","id":3,"result":{}}`, nil},
		{"negative id", `{"jsonrpc":"2.0","id":-4,"method":"ping"}`, nil},
		{"not json", `hello`, &reply{"null", jsonrpc.CodeParseError, msgParseError}},
		{"truncated with id", `{"jsonrpc":"2.0","id":5,"method":"ping"`, &reply{"5", jsonrpc.CodeParseError, msgParseError}},
		{"version 1.0", `{"jsonrpc":"1.0","id":2,"method":"ping"}`, &reply{"2", jsonrpc.CodeInvalidRequest, msgVersion}},
		{"no version", `{"id":2,"method":"ping"}`, &reply{"2", jsonrpc.CodeInvalidRequest, msgVersion}},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, &reply{"", jsonrpc.CodeInvalidRequest, msgBadID}},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, &reply{"", jsonrpc.CodeInvalidRequest, msgBadID}},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, &reply{"1.5", jsonrpc.CodeInvalidRequest, msgBadID}},
		{"exponent id", `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, &reply{"1e3", jsonrpc.CodeInvalidRequest, msgBadID}},
		{"huge id", `{"jsonrpc":"2.0","id":123456789012345678901,"method":"ping"}`, &reply{"123456789012345678901", jsonrpc.CodeInvalidRequest, msgBadID}},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, &reply{"null", jsonrpc.CodeInvalidRequest, msgBadID}},
		{"fractional response id", `{"jsonrpc":"2.0","id":1.5,"result":{}}`, &reply{"", jsonrpc.CodeInvalidRequest, msgBadID}},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, &reply{"", jsonrpc.CodeInvalidRequest, msgBatch}},
		{"scalar", `42`, &reply{"", jsonrpc.CodeInvalidRequest, msgNotRequest}},
		{"deep nesting", `{"jsonrpc":"2.0","id":9,"method":"ping","params":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}`,
			&reply{"9", jsonrpc.CodeInvalidRequest, msgNotRequest}},
		{"deeper than JSON parsers go", `{"jsonrpc":"2.0","id":9,"method":"ping","params":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`,
			&reply{"9", jsonrpc.CodeParseError, msgParseError}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msg, ferr := decodeFrame([]byte(tt.line))
			var got *reply
			if ferr != nil {
				got = &reply{string(ferr.id), ferr.code, ferr.message}
			} else if msg == nil {
				t.Fatal("neither a message nor an error")
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decodeFrame (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeFrameBlank(t *testing.T) {
	for _, line := range []string{"", " ", "\t"} {
		if msg, ferr := decodeFrame([]byte(line)); msg != nil || ferr != nil {
			t.Errorf("decodeFrame(%q) = %v, %v; want nothing", line, msg, ferr)
		}
	}
}

func TestBatchReplies(t *testing.T) {
	got := batchReplies([]byte(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":"b","method":"x"},{"id":{}}]`))
	var ids []string
	for _, r := range got {
		ids = append(ids, string(r.id))
	}
	if diff := cmp.Diff([]string{"1", `"b"`}, ids); diff != "" {
		t.Errorf("batch reply ids (-want +got):\n%s", diff)
	}
}

// endless yields n bytes of 'a' without holding them.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	if e.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), e.n)
	for i := range p[:k] {
		p[i] = 'a'
	}
	e.n -= k
	return k, nil
}

// TestFrameReaderSkipsLongLine shows that a line over the cap is refused,
// that the reader holds at most the cap of it, and that the next line is
// read intact.
func TestFrameReaderSkipsLongLine(t *testing.T) {
	const max = 1 << 10
	head := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"`
	in := io.MultiReader(strings.NewReader(head), &endless{n: 100 << 20}, strings.NewReader("\"}\r\n"),
		strings.NewReader(`{"jsonrpc":"2.0","id":8,"method":"ping"}`+"\n"), strings.NewReader("last"))
	f := newFrameReader(in, max)
	_, err := f.next()
	var big *tooLargeError
	if !errors.As(err, &big) {
		t.Fatalf("first line: err = %v, want a too-large error", err)
	}
	if got := string(big.reply().id); got != "7" {
		t.Errorf("too-large reply id = %q, want 7", got)
	}
	if cap(f.buf) > 2*max {
		t.Errorf("reader grew its buffer to %d bytes for a cap of %d", cap(f.buf), max)
	}
	for _, want := range []string{`{"jsonrpc":"2.0","id":8,"method":"ping"}`, "last"} {
		line, err := f.next()
		if err != nil || string(line) != want {
			t.Errorf("next = %q, %v; want %q", line, err, want)
		}
	}
	if _, err := f.next(); err != io.EOF {
		t.Errorf("at the end: err = %v, want EOF", err)
	}
}

// TestFrameReaderLongLineWithinCap reads a line spanning several buffer
// fills, and checks lines do not share memory.
func TestFrameReaderLongLineWithinCap(t *testing.T) {
	long := strings.Repeat("x", 200<<10)
	f := newFrameReader(strings.NewReader(long+"\nshort\n"+long+"\n"), 1<<20)
	a, _ := f.next()
	b, _ := f.next()
	c, _ := f.next()
	if string(a) != long || string(b) != "short" || string(c) != long {
		t.Fatalf("lines of %d, %q, %d bytes", len(a), b, len(c))
	}
	a[0] = 'y'
	if c[0] != 'x' {
		t.Error("two lines share memory")
	}
}

func TestErrorReplyIsJSONRPC(t *testing.T) {
	r := (&frameError{id: json.RawMessage(`"a"`), code: -32600, message: "bad \x00 \xff"}).reply()
	b, err := json.Marshal(r)
	if err != nil || !json.Valid(b) || !bytes.Contains(b, []byte(`"jsonrpc":"2.0","id":"a","error":{"code":-32600`)) {
		t.Errorf("reply = %s, %v", b, err)
	}
}

// BenchmarkFrame measures what stdio reading adds per well-formed message:
// splitting the line and the checks on it, before the SDK decodes it.
// It allocates once, the line's own copy (the SDK's reader allocated a
// json.RawMessage per message too).
func BenchmarkFrame(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"query","arguments":{"sql":"select 1","limit":10}}}` + "\n")
	f := newFrameReader(&repeat{line: line}, DefaultMaxFrame)
	b.ReportAllocs()
	for b.Loop() {
		l, err := f.next()
		if err != nil {
			b.Fatal(err)
		}
		_ = scanFrame(l)
	}
}

// BenchmarkFrameSDKReader is, for comparison in the same run, what the
// go-sdk's own stdio reader did per message: one json.Decoder per
// connection reading each value into a json.RawMessage.
func BenchmarkFrameSDKReader(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"query","arguments":{"sql":"select 1","limit":10}}}` + "\n")
	dec := json.NewDecoder(&repeat{line: line})
	b.ReportAllocs()
	for b.Loop() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			b.Fatal(err)
		}
	}
}

// repeat reads line over and over.
type repeat struct {
	line []byte
	off  int
}

func (r *repeat) Read(p []byte) (int, error) {
	n := copy(p, r.line[r.off:])
	r.off = (r.off + n) % len(r.line)
	return n, nil
}

// The header names read with header() must be canonical, or it finds nothing.
func TestHeaderNamesAreCanonical(t *testing.T) {
	for _, k := range []string{sessionIDHeader, protocolVersionHeader, lastEventIDHeader, "Origin", "Content-Type", "Accept"} {
		if c := http.CanonicalHeaderKey(k); c != k {
			t.Errorf("%q is not canonical (%q)", k, c)
		}
	}
}
