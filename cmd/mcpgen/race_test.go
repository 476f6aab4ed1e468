//go:build race

package main

// raceEnabled is true under the race detector, which makes compressing a
// whole mcpgen binary into a bundle minutes slow; the plain run checks it.
const raceEnabled = true
