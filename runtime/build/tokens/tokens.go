// Package tokens counts the tokens a model reads, with a BPE tokenizer
// embedded in the binary (github.com/tiktoken-go/tokenizer): o200k_base,
// the encoding of GPT-4o and later OpenAI models. Other models' tokenizers
// split text differently and count a few percent more or fewer; a budget
// in these tokens is a good guide for any of them, not an exact figure.
package tokens

import (
	"strings"
	"sync"

	"github.com/tiktoken-go/tokenizer/codec"
)

// Encoding names the encoding Count uses.
const Encoding = "o200k_base"

var (
	once  sync.Once
	coder *codec.Codec
)

// Count returns the number of tokens of s. The vocabulary is built on the
// first call (about 0.1 s); Count is safe for concurrent use.
func Count(s string) int {
	once.Do(func() { coder = codec.NewO200kBase() })
	n, err := coder.Count(s)
	if err != nil {
		// invalid UTF-8: count it as the replacement characters a client
		// would see
		n, _ = coder.Count(strings.ToValidUTF8(s, "\uFFFD"))
	}
	return n
}
