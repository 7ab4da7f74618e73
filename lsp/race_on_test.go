//go:build race

package lsp

// raceDetector reports whether the tests run under the race detector,
// which makes the analysis of a huge file about ten times slower: the
// tests that size their input for a hang guard use a smaller one then.
const raceDetector = true
