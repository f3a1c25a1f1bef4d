//go:build race

package main

// raceEnabled: the tests run under the race detector, which makes a run
// of the tool several times slower; tests that run it many times take
// smaller inputs.
const raceEnabled = true
