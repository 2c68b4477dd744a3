package bench

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
)

// side is one library's operation on a dataset's variant i.
type side struct {
	name string
	op   func(i int) error
}

// ratioCases is, for each dataset, its strict decode and its encode on every side, as
// BenchmarkDecode and BenchmarkEncode run them.
func ratioCases(ds []dataset) (names []string, cases [][]side) {
	for _, d := range ds {
		var bbIn, pbIn [][]byte
		for i := range variants {
			x, _ := d.bb[i].Marshal()
			y, _ := proto.Marshal(d.pb[i])
			bbIn, pbIn = append(bbIn, x), append(pbIn, y)
		}
		names = append(names, d.name+"/decode")
		cases = append(cases, []side{
			{"bijoubuf-strict", func(i int) error { return d.newBB().Unmarshal(bbIn[i]) }},
			{"protobuf-go", func(i int) error { return proto.Unmarshal(pbIn[i], d.newPB()) }},
			{"vtprotobuf", func(i int) error { return d.newPB().(vtMessage).UnmarshalVT(pbIn[i]) }},
		})
		names = append(names, d.name+"/encode")
		cases = append(cases, []side{
			{"bijoubuf", func(i int) error { _, err := d.bb[i].Marshal(); return err }},
			{"protobuf-go", func(i int) error { _, err := proto.Marshal(d.pb[i]); return err }},
			{"vtprotobuf", func(i int) error { _, err := d.pb[i].(vtMessage).MarshalVT(); return err }},
		})
	}
	return names, cases
}

// runSlice runs op n times (cycling through the variants) and returns the process's CPU
// time per operation.
func runSlice(op func(i int) error, n int) (time.Duration, error) {
	start := cpuTime()
	for k := range n {
		if err := op(k % variants); err != nil {
			return 0, err
		}
	}
	return (cpuTime() - start) / time.Duration(n), nil
}

// TestRatios measures each dataset's decode and encode on the three sides in
// alternation: rounds of one slice of about 200 ms per side (several of the collector's
// cycles), the sides' order rotated every round, and for each round the ratio of each
// peer's CPU time per operation to bijoubuf's. A round's three slices run within about a
// second of each other, so a machine whose speed drifts over seconds (a shared host)
// moves them together, and the median of the rounds' ratios holds where separate
// benchmark runs swing by more than the differences they are meant to show.
//
// What a decode costs includes the collector's work for the bytes it allocates, the
// marking of what is live when it runs. Two setups, each named in the output:
//   - shared (the default): every dataset of both libraries stays alive throughout, as
//     in the benchmarks, about 28 MB of live values full of pointers;
//   - alone (BIJOUBUF_RATIOS_HEAP=alone): each dataset is measured with only its own
//     inputs and values alive (the others are built, dropped and collected first), as a
//     benchmark of one message type is usually written.
//
// It runs only when asked: BIJOUBUF_RATIOS=ROUNDS (for example 31), optionally
// BIJOUBUF_RATIOS_ONLY=substring of the case names ("google_message1/decode"):
//
//	BIJOUBUF_RATIOS=31 go test -run '^TestRatios$' -v -timeout 0 .
func TestRatios(t *testing.T) {
	rounds, _ := strconv.Atoi(os.Getenv("BIJOUBUF_RATIOS"))
	if rounds <= 0 {
		t.Skip("set BIJOUBUF_RATIOS=ROUNDS to measure")
	}
	heap := os.Getenv("BIJOUBUF_RATIOS_HEAP")
	if heap == "" {
		heap = "shared"
	}
	if heap != "shared" && heap != "alone" {
		t.Fatalf("BIJOUBUF_RATIOS_HEAP=%q: shared or alone", heap)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	only := os.Getenv("BIJOUBUF_RATIOS_ONLY")
	t.Logf("%s, GOMAXPROCS 1, %d rounds, %s heap; medians of CPU ns per operation, and of "+
		"the rounds' peer ÷ bijoubuf ratios (first and third quartiles)", runtime.Version(),
		rounds, heap)
	if heap == "shared" {
		names, cases := ratioCases(datasets())
		t.Logf("live heap %.1f MB", liveHeapMB())
		measureRatios(t, names, cases, rounds, only)
		return
	}
	for i := range len(datasets()) {
		// Built afresh each time and all but one dropped: the others are garbage by the
		// time liveHeapMB collects, so the live heap is this dataset's alone.
		d := datasets()[i]
		names, cases := ratioCases([]dataset{d})
		live := liveHeapMB()
		if measureRatios(t, names, cases, rounds, only) {
			t.Logf("%s: live heap %.1f MB", d.name, live)
		}
	}
}

// liveHeapMB collects and returns the heap's size then: what is live.
func liveHeapMB() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / 1e6
}

// measureRatios runs the rounds of the cases whose names contain only and logs a line
// for each; it says whether any case ran.
func measureRatios(t *testing.T, names []string, cases [][]side, rounds int, only string) bool {
	ran := false
	for c, sides := range cases {
		if only != "" && !strings.Contains(names[c], only) {
			continue
		}
		ran = true
		// The slice length: about 200 ms of bijoubuf's operation, after a warm-up.
		n := 64
		for {
			d, err := runSlice(sides[0].op, n)
			if err != nil {
				t.Fatalf("%s %s: %v", names[c], sides[0].name, err)
			}
			if time.Duration(n)*d >= 200*time.Millisecond || n >= 1<<24 {
				break
			}
			n *= 2
		}
		per := make([][]float64, len(sides))
		ratios := make([][]float64, len(sides))
		for r := range rounds {
			got := make([]float64, len(sides))
			for k := range sides {
				s := (r + k) % len(sides)
				d, err := runSlice(sides[s].op, n)
				if err != nil {
					t.Fatalf("%s %s: %v", names[c], sides[s].name, err)
				}
				got[s] = float64(d)
			}
			for s := range sides {
				per[s] = append(per[s], got[s])
				ratios[s] = append(ratios[s], got[s]/got[0])
			}
		}
		line := fmt.Sprintf("%-22s %d ops/slice  %s %.0f ns", names[c], n, sides[0].name, quartile(per[0], 2))
		for s := 1; s < len(sides); s++ {
			line += fmt.Sprintf("  |  %s %.0f ns, ÷ bijoubuf %.2f (%.2f–%.2f)", sides[s].name,
				quartile(per[s], 2), quartile(ratios[s], 2), quartile(ratios[s], 1), quartile(ratios[s], 3))
		}
		t.Log(line)
	}
	return ran
}

// quartile is the q-th quartile of xs (q = 2: the median), the nearest rank.
func quartile(xs []float64, q int) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[(len(s)-1)*q/4]
}
