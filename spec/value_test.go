package spec

import "testing"

func TestSizeString(t *testing.T) {
	t.Parallel()
	for n, want := range map[Size]string{
		0: "0 bytes", 512: "512 bytes", 1 << 10: "1KiB", 64 << 10: "64KiB", 1<<20 + 1: "1048577 bytes",
		3 << 20: "3MiB", 1536 << 10: "1536KiB",
	} {
		if got := n.String(); got != want {
			t.Errorf("Size(%d).String() = %q, want %q", int64(n), got, want)
		}
	}
}
