//go:build !race

package lsp

// raceDetector: see race_on_test.go.
const raceDetector = false
