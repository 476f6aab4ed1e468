package sqlkind

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers/sqlkind/sqlcursor"
)

// FuzzCursor: whatever a model passes as cursor is refused, or is a cursor
// this pager made; decoding never panics, and the values of a cursor
// accepted bind as the types they were made from.
func FuzzCursor(f *testing.F) {
	p := &pager{keys: []string{"at", "id"}, desc: []bool{true, false}, codec: sqlcursor.Codec{Salt: []byte("sqlite\x00at desc,id\x00SELECT at, id FROM t")}}
	dig := sqlcursor.Digest([]any{"x", int64(2)})
	made := p.codec.Encode(dig, sqlcursor.Payload{Keys: []sqlcursor.Key{{"t", time.Date(2024, 1, 2, 3, 4, 5, 6000, time.UTC).Format(time.RFC3339Nano)}, {"i", "42"}}})
	for _, seed := range []string{made, "", "garbage", "' OR 1=1 --", made + "\x00", strings.Repeat("A", 5000),
		"eyJrIjpbXX0.AAAAAAAAAAAAAAAA", made[:len(made)-1] + "A", strings.Replace(made, ".", "..", 1)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, cursor string) {
		c, err := p.decode(dig, cursor)
		if err != nil {
			return
		}
		if cursor != made {
			t.Fatalf("accepted %q, which this pager did not make", cursor)
		}
		for _, k := range c.Keys {
			if _, err := k.Value(); err != nil {
				t.Fatalf("key %v: %v", k, err)
			}
		}
	})
}
