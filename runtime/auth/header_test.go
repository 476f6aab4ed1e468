package auth_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/auth"
)

func TestBearerCredential(t *testing.T) {
	for _, tt := range []struct {
		name    string
		headers []string
		want    string
		err     error
	}{
		{"bearer", []string{"Bearer abc.def-ghi_~+/=="}, "abc.def-ghi_~+/==", nil},
		{"lowercase scheme", []string{"bearer abc"}, "abc", nil},
		{"upper case scheme", []string{"BEARER abc"}, "abc", nil},
		{"several spaces", []string{"Bearer   abc"}, "abc", nil},
		{"none", nil, "", auth.ErrNoCredential},
		{"basic", []string{"Basic abc"}, "", auth.ErrNoCredential},
		{"scheme only", []string{"Bearer"}, "", auth.ErrMalformed},
		{"empty credential", []string{"Bearer "}, "", auth.ErrMalformed},
		{"two headers", []string{"Bearer a", "Bearer a"}, "", auth.ErrMalformed},
		{"trailing text", []string{"Bearer abc def"}, "", auth.ErrMalformed},
		{"padding in the middle", []string{"Bearer ab=c"}, "", auth.ErrMalformed},
		{"only padding", []string{"Bearer =="}, "", auth.ErrMalformed},
		{"control character", []string{"Bearer ab\x00c"}, "", auth.ErrMalformed},
		{"too long", []string{"Bearer " + strings.Repeat("a", auth.MaxCredential+1)}, "", auth.ErrMalformed},
		{"longest", []string{"Bearer " + strings.Repeat("a", auth.MaxCredential)}, strings.Repeat("a", auth.MaxCredential), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for _, v := range tt.headers {
				h.Add("Authorization", v)
			}
			got, err := auth.BearerCredential(h)
			if got != tt.want || !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
				t.Errorf("got %q, %v; want %q, %v", got, err, tt.want, tt.err)
			}
		})
	}
}

// FuzzBearerCredential: parsing never panics; what it accepts is a
// well-formed credential of bounded length that parses back to itself.
func FuzzBearerCredential(f *testing.F) {
	for _, s := range []string{"Bearer abc", "bearer a.b.c", "Basic x", "Bearer ", "Bearer a b", "Bearer ==", "Bearer a==", ""} {
		f.Add(s, false)
	}
	f.Add("Bearer abc", true)
	f.Fuzz(func(t *testing.T, v string, twice bool) {
		h := http.Header{"Authorization": {v}}
		if twice {
			h.Add("Authorization", v)
		}
		cred, err := auth.BearerCredential(h)
		if err != nil {
			if cred != "" {
				t.Fatalf("error %v with credential %q", err, cred)
			}
			if !errors.Is(err, auth.ErrNoCredential) && !errors.Is(err, auth.ErrMalformed) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if twice {
			t.Fatal("two headers accepted")
		}
		if cred == "" || len(cred) > auth.MaxCredential || strings.ContainsAny(cred, " \t\r\n\"\\,") {
			t.Fatalf("accepted %q from %q", cred, v)
		}
		if !strings.EqualFold(v[:len("Bearer")], "Bearer") {
			t.Fatalf("accepted scheme of %q", v)
		}
		again, err := auth.BearerCredential(http.Header{"Authorization": {"Bearer " + cred}})
		if err != nil || again != cred {
			t.Fatalf("%q does not parse back: %q, %v", cred, again, err)
		}
	})
}
