//go:build !race

package bijoubufgrpc_test

// raceEnabled: built without -race (see race_test.go).
const raceEnabled = false
