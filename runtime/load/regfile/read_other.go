//go:build !unix

package regfile

import (
	"io"
	"os"
)

// readAll reads f to its end, failing past limit bytes.
func readAll(f *os.File, limit int64) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > limit {
		return nil, tooLarge(limit)
	}
	return body, nil
}
