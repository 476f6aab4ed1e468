//go:build !unix

package transport

import "io"

// pollableInput reports false: stdioInput copies the input.
func pollableInput(io.Reader) (deadlineReader, func(), bool) { return nil, nil, false }
