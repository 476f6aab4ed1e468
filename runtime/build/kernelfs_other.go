//go:build !linux

package build

// kernelFS finds no kernel filesystem where there is no /proc to read the
// server's environment from.
func kernelFS(string) string { return "" }
