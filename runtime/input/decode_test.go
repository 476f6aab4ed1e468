package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// decodedByEncodingJSON is what decodeNumbers gave when encoding/json's
// Decoder decoded every argument: the reference it must keep to.
func decodedByEncodingJSON(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if len(bytes.TrimLeft(raw[d.InputOffset():], " \t\r\n")) > 0 {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// checkDecodeNumbers fails unless decodeNumbers gives for raw the value,
// or the error, encoding/json gives.
func checkDecodeNumbers(t *testing.T, raw []byte) {
	t.Helper()
	got, gotErr := decodeNumbers(raw)
	want, wantErr := decodedByEncodingJSON(raw)
	if gotErr != nil || wantErr != nil {
		if gotErr == nil || wantErr == nil || gotErr.Error() != wantErr.Error() {
			t.Errorf("%.200q: error %v, want %v", raw, gotErr, wantErr)
		}
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%.200q: got %#.200v\nwant %#.200v", raw, got, want)
	}
}

var decodeSeeds = []string{
	`{"i":1,"n":-0.5e-3,"s":"a\"b\\c\u00e9\ud83d\ude00","b":[true,false,null],"o":{"k":{}}}`,
	`{"i":1e400}`, `{"i":123456789012345678901234567890}`, `{"a":1,"a":2}`, `{"\u0069":1}`,
	"{\"s\":\"\xff\xfe\"}", `{"s":"\ud800"}`, `{"s":"\udc00\ud800x"}`, "{\"s\":\"\x7f\"}",
	` {"i" : -0 , "n":1e2}	`, `{"i":1}}`, `{"i":1} x`, `{"i":1,}`, `{"i":01}`, `{"i":1.}`, `{"i":.5}`,
	`{"i":+1}`, `{"i":0x1}`, `{"i":NaN}`, `{"s":"\x"}`, "{\"s\":\"a\x01\"}", `{i:1}`, `{"i"}`, `[1,2]`, `"s"`,
	`null`, ``, `{`, `{"a":[1,2,]}`, `{"a":tru}`, `{"a":nulll}`, "{\"a\":1}\x00",
	strings.Repeat(`{"a":`, 9999) + "1" + strings.Repeat("}", 9999),
	strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
	`{"a":"` + strings.Repeat("[", 10001) + `"}`,
}

// TestDecodeNumbersAsEncodingJSON: arguments decode to what encoding/json
// gives them, and bad ones fail with its error.
func TestDecodeNumbersAsEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, raw := range decodeSeeds {
		checkDecodeNumbers(t, []byte(raw))
	}
}

func FuzzDecodeNumbers(f *testing.F) {
	for _, raw := range decodeSeeds {
		f.Add([]byte(raw))
	}
	f.Fuzz(checkDecodeNumbers)
}
