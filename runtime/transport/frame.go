package transport

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
)

// DefaultMaxFrame caps one JSON-RPC message read on stdio.
const DefaultMaxFrame = 4 << 20

// tooLargeError reports a line longer than the frame cap; the line was
// skipped up to its newline and the reader is ready for the next one.
type tooLargeError struct {
	max  int
	info frameInfo // from the line's beginning
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("invalid request: the message exceeds %d bytes", e.max)
}

// reply answers the request if its beginning showed its id.
func (e *tooLargeError) reply() *frameError {
	ferr := &frameError{code: jsonrpc.CodeInvalidRequest, message: e.Error()}
	if e.info.hasMethod {
		ferr.id = scalarID(e.info.id)
	}
	return ferr
}

// frameReader splits stdin into newline-delimited frames of at most max
// bytes. A longer line is skipped without being held in memory.
type frameReader struct {
	r   *bufio.Reader
	max int
	buf []byte // a line spanning several buffer fills
}

func newFrameReader(r io.Reader, max int) *frameReader {
	if max <= 0 {
		max = DefaultMaxFrame
	}
	return &frameReader{r: bufio.NewReaderSize(r, min(max, 64<<10)), max: max}
}

// next returns the next line without its line ending, in a slice of its
// own. At the end of input it returns io.EOF (after a last unterminated
// line, if any). A line over the cap returns a *tooLargeError.
func (f *frameReader) next() ([]byte, error) {
	f.buf = f.buf[:0]
	for {
		chunk, err := f.r.ReadSlice('\n')
		if err == nil {
			chunk = trimEOL(chunk)
		}
		if len(f.buf)+len(chunk) > f.max {
			return nil, f.skip(chunk, err)
		}
		switch {
		case err == nil && len(f.buf) == 0: // the common case: one buffer fill
			return bytes.Clone(chunk), nil
		case errors.Is(err, bufio.ErrBufferFull):
			f.buf = append(f.buf, chunk...)
		case err == nil || len(f.buf)+len(chunk) > 0: // the last line may lack its newline
			line := append(f.buf, chunk...)
			f.buf = nil // the caller owns line now
			return line, nil
		default:
			return nil, err
		}
	}
}

// skip discards input up to and including the next newline, noting what
// the line's beginning (the first buffer fill) tells about it.
func (f *frameReader) skip(chunk []byte, err error) error {
	head := chunk
	if len(f.buf) > 0 {
		head = f.buf[:min(len(f.buf), f.r.Size())]
	}
	big := &tooLargeError{max: f.max, info: scanFrame(head)}
	f.buf = f.buf[:0]
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = f.r.ReadSlice('\n')
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return big
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// frameInfo is what one pass over a frame's bytes tells, without decoding
// it: enough to answer a malformed frame and to check the id, and what the
// request acts on (see postBody.Item).
type frameInfo struct {
	array     bool   // the frame is a JSON array (a batch)
	hasMethod bool   // the top-level object has a "method" key
	method    []byte // raw token of the "method" value
	id        []byte // raw token of the top-level "id" value; nil when absent
	name, uri []byte // raw tokens of "name" and "uri" in the top-level "params" object
	// unsure: a key that matters to what the request acts on is escaped,
	// given twice, or differs from a known one only in case; a JSON
	// decoder may read the request otherwise than the fields above say.
	unsure bool
	seen   uint8 // keys that matter, seen so far (seenMethod...)
}

// Keys of a request that say what it acts on.
const (
	seenMethod uint8 = 1 << iota
	seenParams
	seenName
	seenURI
)

// scanFrame finds the top-level "method" key and "id" value of a frame,
// and the "name" and "uri" of its "params" object, in one pass over its
// bytes, allocating nothing. It tolerates malformed input: what it reports
// is a best effort, used to address an error reply; a request is decoded
// by the go-sdk, which refuses what is malformed.
func scanFrame(b []byte) frameInfo {
	var fi frameInfo
	depth, inString, escaped := 0, false, false
	keyStart, keyDepth, expectKey := -1, 0, false
	paramsNext, inParams := false, false // the value of "params" comes next; inside it
	keyed := func() bool { return depth == 1 || depth == 2 && inParams }
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				if keyStart >= 0 {
					if keyDepth == 1 {
						fi.key(b[keyStart:i], b[i+1:])
						paramsNext = string(b[keyStart:i]) == "params"
					} else {
						fi.paramKey(b[keyStart:i], b[i+1:])
					}
					keyStart = -1
				}
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			if expectKey && keyed() {
				keyStart, keyDepth, expectKey = i+1, depth, false
			}
		case '{', '[':
			if depth == 0 && c == '[' {
				fi.array = true
			}
			depth++
			if depth == 2 {
				inParams, paramsNext = c == '{' && paramsNext, false
			}
			expectKey = c == '{' && keyed()
		case '}', ']':
			depth--
			if depth < 2 {
				inParams = false
			}
		case ',':
			expectKey = keyed()
		}
	}
	return fi
}

// key records a top-level key and, for "id" and "method", the token after
// it.
func (fi *frameInfo) key(k, rest []byte) {
	if fi.array {
		return
	}
	switch string(k) {
	case "method":
		fi.saw(seenMethod)
		fi.hasMethod = true
		fi.method = valueToken(rest)
	case "id":
		fi.id = valueToken(rest)
	case "params":
		fi.saw(seenParams)
	default:
		fi.odd(k, "method", "params")
	}
}

// paramKey records a key of the top-level "params" object: the token
// after "name" or "uri".
func (fi *frameInfo) paramKey(k, rest []byte) {
	switch string(k) {
	case "name":
		fi.saw(seenName)
		fi.name = valueToken(rest)
	case "uri":
		fi.saw(seenURI)
		fi.uri = valueToken(rest)
	default:
		fi.odd(k, "name", "uri")
	}
}

// saw notes a key that matters; given twice, it makes the scan unsure.
func (fi *frameInfo) saw(key uint8) {
	if fi.seen&key != 0 {
		fi.unsure = true
	}
	fi.seen |= key
}

// odd makes the scan unsure when k may be one of known to a decoder: it
// holds an escape, or matches one of them regardless of case (as Go's
// encoding/json matches keys).
func (fi *frameInfo) odd(k []byte, known ...string) {
	if bytes.IndexByte(k, '\\') >= 0 {
		fi.unsure = true
		return
	}
	for _, w := range known {
		if bytes.EqualFold(k, []byte(w)) {
			fi.unsure = true
		}
	}
}

// valueToken returns the JSON token after `:` in b: a whole string or
// scalar, or the single opening byte of an object or array. It returns nil
// when b does not hold a value.
func valueToken(b []byte) []byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 || b[0] != ':' {
		return nil
	}
	b = bytes.TrimLeft(b[1:], " \t\r\n")
	if len(b) == 0 {
		return nil
	}
	switch b[0] {
	case '{', '[':
		return b[:1]
	case '"':
		for i, escaped := 1, false; i < len(b); i++ {
			switch {
			case escaped:
				escaped = false
			case b[i] == '\\':
				escaped = true
			case b[i] == '"':
				return b[:i+1]
			}
		}
		return nil
	}
	end := bytes.IndexAny(b, ",} \t\r\n")
	if end <= 0 { // no terminator, or no value before it
		return nil
	}
	return b[:end]
}
