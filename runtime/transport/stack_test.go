package transport

import "testing"

// BenchmarkDeepCall measures a call 20 KiB and 100 frames deep on a fresh goroutine, as
// the go-sdk runs each request, with and without presized's growStack
// first. The difference is the stack copies that presized saves.
func BenchmarkDeepCall(b *testing.B) {
	for _, tt := range []struct {
		name  string
		first func()
	}{{"grown", growStack}, {"as-started", func() {}}} {
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				done := make(chan struct{})
				go func() {
					tt.first()
					descend(100)
					close(done)
				}()
				<-done
			}
		})
	}
}

// descend goes n frames of about 200 bytes deep.
//
//go:noinline
func descend(n int) byte {
	var frame [200]byte
	if n > 0 {
		frame[n] = descend(n - 1)
	}
	return frame[n%len(frame)]
}
