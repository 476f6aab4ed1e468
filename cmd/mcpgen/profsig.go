//go:build profsig

package main

import (
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

// With -tags profsig, SIGUSR1 starts a CPU profile into $MCPGEN_CPUPROFILE
// and SIGUSR2 stops it (tbbench -profsig sends them around a round).
func init() {
	path := os.Getenv("MCPGEN_CPUPROFILE")
	if path == "" {
		return
	}
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, syscall.SIGUSR1, syscall.SIGUSR2)
	go func() {
		var f *os.File
		for s := range ch {
			switch {
			case s == syscall.SIGUSR1 && f == nil:
				var err error
				if f, err = os.Create(path); err != nil {
					f = nil
					continue
				}
				if pprof.StartCPUProfile(f) != nil {
					_ = f.Close()
					f = nil
				}
			case s == syscall.SIGUSR2 && f != nil:
				pprof.StopCPUProfile()
				_ = f.Close()
				f = nil
				if a, err := os.Create(path + ".allocs"); err == nil {
					_ = pprof.Lookup("allocs").WriteTo(a, 0)
					_ = a.Close()
				}
			}
		}
	}()
}
