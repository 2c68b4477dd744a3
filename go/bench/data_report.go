package bench

import (
	"fmt"
	"math"
	"strings"

	pbreport "github.com/bijoubuf/bijoubuf/go/bench/internal/pb/report"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// A page of an analytics report (benches/schemas/report.proto): 16 rows of segments and
// 150 metrics each, about 85 % of the metrics set. Its row is the widest message of these
// datasets, past the size where the generated Go code splits a message's passes.

const reportRows = 16

var countries = []string{"US", "DE", "FR", "JP", "BR", "IN", "GB", "CA"}

func reportPage(seed uint64) *pbreport.ReportPage {
	g := newGen(seed)
	p := &pbreport.ReportPage{NextPageToken: g.words(24, "-")}
	campaign := g.between(1, 1_000_000)
	for i := range reportRows {
		p.Rows = append(p.Rows, g.reportRow(int64(campaign), i))
	}
	return p
}

func (g *gen) reportRow(campaign int64, i int) *pbreport.ReportRow {
	adGroup := campaign*1000 + int64(i)
	r := &pbreport.ReportRow{
		ResourceName: fmt.Sprintf("customers/%d/campaigns/%d/adGroups/%d", 1_000_000+campaign%97, campaign, adGroup),
		Segments: &pbreport.Segments{
			Date:       fmt.Sprintf("2026-11-%02d", 1+i%28),
			Device:     pbreport.Device(1 + g.r.IntN(3)),
			Campaign:   strings.ToUpper(g.words(8, " ")[:1]) + g.words(12, " "),
			CampaignId: campaign,
			AdGroup:    g.words(10, " "),
			AdGroupId:  adGroup,
			Country:    countries[g.r.IntN(len(countries))],
			Keyword:    g.words(6, " "),
		},
	}
	// The metrics, set through reflection: count, amount, rate and micros in turn.
	m := r.ProtoReflect()
	fields := m.Descriptor().Fields()
	for k := 2; k < fields.Len(); k++ {
		if !g.chance(0.85) {
			continue
		}
		fd := fields.Get(k)
		var v protoreflect.Value
		switch (k - 2) % 4 {
		case 0: // a count: log-uniform up to a million
			v = protoreflect.ValueOfInt64(int64(math.Pow(10, 6*g.r.Float64())))
		case 1: // an amount
			v = protoreflect.ValueOfFloat64(math.Round(g.r.ExpFloat64()*10000) / 100)
		case 2: // a rate
			v = protoreflect.ValueOfFloat64(g.r.Float64())
		default: // micros: up to ten thousand units
			v = protoreflect.ValueOfInt64(g.r.Int64N(10_000_000_000))
		}
		m.Set(fd, v)
	}
	return r
}
