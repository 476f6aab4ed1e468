package build

import (
	"bufio"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// kernelMagic names the kernel filesystems by their statfs type.
var kernelMagic = map[int64]string{
	0x9fa0: "proc", 0x62656572: "sysfs", 0x64626720: "debugfs", 0x74726163: "tracefs",
	0x73636673: "securityfs", 0xde5e81e4: "efivarfs", 0x62656570: "configfs", 0xcafe4a11: "bpf",
	0x6165676c: "pstore",
}

// kernelFS returns the kernel filesystem path resolves to or, when path
// is a directory, the first one mounted below it ("/proc (proc)"), or "".
func kernelFS(path string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "" // a path that does not resolve is reported where it is read
	}
	var st syscall.Statfs_t
	if syscall.Statfs(real, &st) == nil {
		if name, ok := kernelMagic[int64(st.Type)]; ok {
			return real + " (" + name + ")"
		}
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return ""
	}
	return kernelMountBelow(real)
}

// kernelMountBelow returns the first kernel filesystem mounted at or
// below dir, from /proc/self/mountinfo.
func kernelMountBelow(dir string) string {
	fh, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	defer fh.Close()
	prefix := strings.TrimSuffix(dir, "/") + "/"
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		// 36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw
		fields := strings.Fields(sc.Text())
		sep := slices.Index(fields, "-")
		if len(fields) < 5 || sep < 0 || sep+1 >= len(fields) {
			continue
		}
		point, fstype := unescapeMount(fields[4]), fields[sep+1]
		if slices.Contains(slices.Collect(maps.Values(kernelMagic)), fstype) && (point == dir || strings.HasPrefix(point, prefix)) {
			return point + " (" + fstype + ")"
		}
	}
	return ""
}

// unescapeMount decodes the octal escapes (\040 for a space) of a mount
// point in mountinfo.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
