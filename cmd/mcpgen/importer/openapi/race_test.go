//go:build race

package openapi

// raceEnabled is true under the race detector, which makes decoding and
// compiling GitHub's description many times slower; the plain run checks it.
const raceEnabled = true
