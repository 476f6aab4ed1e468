//go:build race

package transport_test

// raceEnabled is true under the race detector, whose sync.Pool drops items
// at random: allocation counts are then not those of a plain build.
const raceEnabled = true
