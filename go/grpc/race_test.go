//go:build race

package bijoubufgrpc_test

// raceEnabled: built with -race, under which sync.Pool drops some of what it is given
// and escape analysis differs, so allocation counts are not the program's.
const raceEnabled = true
