package pack

import (
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"strings"
)

// HasDebugInfo reports whether the executable at path carries DWARF debug
// information, which `go build -ldflags="-s -w"` leaves out (a plain build
// of mcpgen is about 70 MB, a stripped one 50). An unreadable or
// unknown file has none as far as it can tell.
func HasDebugInfo(path string) bool {
	var names []string
	if f, err := elf.Open(path); err == nil {
		defer f.Close()
		for _, s := range f.Sections {
			names = append(names, s.Name)
		}
	} else if f, err := macho.Open(path); err == nil {
		defer f.Close()
		for _, s := range f.Sections {
			names = append(names, s.Name)
		}
	} else if f, err := pe.Open(path); err == nil {
		defer f.Close()
		for _, s := range f.Sections {
			names = append(names, s.Name)
		}
	}
	for _, n := range names {
		if strings.HasPrefix(n, ".debug_") || strings.HasPrefix(n, ".zdebug_") || strings.HasPrefix(n, "__debug_") || strings.HasPrefix(n, "__zdebug_") {
			return true
		}
	}
	return false
}
