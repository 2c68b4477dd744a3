package bench

import (
	pbgm1 "github.com/bijoubuf/bijoubuf/go/bench/internal/pb/benchmarks/proto3"
)

// GoogleMessage1 (proto3), shaped as benches/src/msg/gm1.rs draws it: the published
// google_message1 payloads are single messages of a few hundred bytes with about half the
// fields unset (at their default here), most integers small and strings short.

// mostlySmall: 70 % fit 7 bits, 20 % 8-16, 8 % 17-32, 2 % 33-64 (benches/src/msg/data.rs).
func (g *gen) mostlySmall() uint64 {
	p := g.r.IntN(100)
	var bits int
	switch {
	case p < 70:
		bits = 7
	case p < 90:
		bits = g.between(8, 17)
	case p < 98:
		bits = g.between(17, 33)
	default:
		bits = g.between(33, 65)
	}
	v := g.r.Uint64()
	if bits == 64 {
		return v
	}
	return v & (1<<bits - 1)
}

// smallI32: mostly below 128, some wider, a few -1.
func (g *gen) smallI32() int32 {
	if g.chance(0.05) {
		return -1
	}
	return int32(uint32(g.mostlySmall()) & 0x7fff_ffff)
}

func (g *gen) text(lo, hi int) string { return g.words(g.between(lo, hi), " ") }

// opt* give the value with probability p, else the default.
func (g *gen) optI(p float64) int32 {
	if g.chance(p) {
		return g.smallI32()
	}
	return 0
}

func (g *gen) optB(p float64) bool { return g.chance(p) && g.chance(0.5) }

func (g *gen) optS(p float64, lo, hi int) string {
	if g.chance(p) {
		return g.text(lo, hi)
	}
	return ""
}

func (g *gen) optU(p float64) uint64 {
	if g.chance(p) {
		return g.mostlySmall()
	}
	return 0
}

func (g *gen) gm1Sub() *pbgm1.GoogleMessage1SubMessage {
	s := &pbgm1.GoogleMessage1SubMessage{
		Field1: g.optI(0.5), Field2: g.optI(0.5), Field3: g.optI(0.5),
		Field15: g.optS(0.5, 4, 24), Field12: g.optB(0.5),
		Field13: int64(g.optU(0.3)), Field14: int64(g.optU(0.3)),
		Field16: g.optI(0.3), Field19: g.optI(0.5), Field20: g.optB(0.5), Field28: g.optB(0.5),
	}
	if g.chance(0.4) {
		s.Field21 = g.r.Uint64()
	}
	s.Field22, s.Field23, s.Field206 = g.optI(0.3), g.optB(0.3), g.optB(0.3)
	if g.chance(0.4) {
		s.Field203 = g.r.Uint32()
	}
	s.Field204, s.Field205 = g.optI(0.3), g.optS(0.3, 4, 24)
	s.Field207, s.Field300 = g.optU(0.3), g.optU(0.3)
	return s
}

func googleMessage1(seed uint64) *pbgm1.GoogleMessage1 {
	g := newGen(seed)
	m := &pbgm1.GoogleMessage1{Field1: g.text(16, 48)}
	m.Field9, m.Field18 = g.optS(0.5, 6, 32), g.optS(0.5, 6, 32)
	m.Field80, m.Field81 = g.optB(0.5), g.optB(0.5)
	m.Field2, m.Field3 = g.smallI32(), g.smallI32()
	m.Field280, m.Field6 = g.optI(0.5), g.optI(0.5)
	m.Field22 = int64(g.optU(0.3))
	m.Field4 = g.optS(0.5, 6, 32)
	for range g.r.IntN(4) {
		m.Field5 = append(m.Field5, g.r.Uint64())
	}
	m.Field59, m.Field7 = g.optB(0.5), g.optS(0.5, 6, 32)
	m.Field16, m.Field130 = g.optI(0.5), g.optI(0.5)
	m.Field12, m.Field17, m.Field13, m.Field14 = g.optB(0.5), g.optB(0.5), g.optB(0.5), g.optB(0.5)
	m.Field104, m.Field100, m.Field101 = g.optI(0.5), g.optI(0.5), g.optI(0.5)
	m.Field102, m.Field103 = g.optS(0.5, 6, 32), g.optS(0.5, 6, 32)
	m.Field29, m.Field30, m.Field60 = g.optI(0.5), g.optB(0.5), g.optI(0.5)
	m.Field271, m.Field272, m.Field150 = g.optI(0.5), g.optI(0.5), g.optI(0.5)
	m.Field23, m.Field24, m.Field25 = g.optI(0.5), g.optB(0.5), g.optI(0.5)
	if g.chance(0.9) {
		m.Field15 = g.gm1Sub()
	}
	m.Field78, m.Field67, m.Field68 = g.optB(0.5), g.optI(0.5), g.optI(0.5)
	m.Field128, m.Field129, m.Field131 = g.optI(0.5), g.optS(0.3, 6, 32), g.optI(0.5)
	return m
}
