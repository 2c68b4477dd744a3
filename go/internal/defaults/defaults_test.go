package defaults_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/bijoubuf/bijoubuf/go/internal/defaults"
)

func ptr[T any](v T) *T { return &v }

// An unset field's getter returns the schema's default, on an empty message and on a
// nil one alike; one whose type has no default returns its zero.
func TestUnsetFieldsGetTheirDefaults(t *testing.T) {
	for _, m := range []*defaults.Defaults{nil, {}} {
		if m.GetI32() != math.MinInt32 || m.GetI64() != math.MinInt64 ||
			m.GetU32() != math.MaxUint32 || m.GetU64() != math.MaxUint64 ||
			m.GetS32() != -5 || m.GetF64() != 64 || !m.GetFlag() {
			t.Errorf("%v: integer or bool defaults %d %d %d %d %d %d %v", m, m.GetI32(), m.GetI64(),
				m.GetU32(), m.GetU64(), m.GetS32(), m.GetF64(), m.GetFlag())
		}
		if m.GetText() != "say \"hi\"\n\tç" {
			t.Errorf("text default %q", m.GetText())
		}
		if !bytes.Equal(m.GetRaw(), []byte{1, 0xff, 'q', '"', '\\'}) {
			t.Errorf("bytes default %q", m.GetRaw())
		}
		if m.GetD() != 0.1 || !math.IsInf(m.GetDInf(), -1) || !math.IsNaN(m.GetDNan()) ||
			!math.IsInf(float64(m.GetFInf()), 1) {
			t.Errorf("double defaults %v %v %v %v", m.GetD(), m.GetDInf(), m.GetDNan(), m.GetFInf())
		}
		if d := m.GetDNegZero(); d != 0 || !math.Signbit(d) {
			t.Errorf("-0 default read as %v (sign %v)", d, math.Signbit(d))
		}
		// protoc reads 1.000000059604644775390625000001 as a double (exactly halfway
		// between 1 and the next float), which rounds to the even float, 1; a decimal
		// rounded once to a float would give 1.0000001.
		if m.GetF() != 1 {
			t.Errorf("float default %v, want 1", m.GetF())
		}
		if m.GetLevel() != defaults.Level_HIGH || m.GetFirst() != defaults.Level_LOW {
			t.Errorf("enum defaults %v %v", m.GetLevel(), m.GetFirst())
		}
		if m.GetChild() != nil || m.GetMany() != nil || m.GetCounts() != nil || m.GetPick() != nil {
			t.Errorf("message, repeated, map or oneof not nil")
		}
		if m.GetS() != "" || m.GetPickedLevel() != defaults.Level_LOW || m.GetPicked() != nil {
			t.Errorf("oneof members %q %v %v", m.GetS(), m.GetPickedLevel(), m.GetPicked())
		}
		if m.GetX_() != 0 || m.GetGetX() != 0 || m.GetMarshal_() != 0 || m.GetPlain() != 0 {
			t.Errorf("fields without defaults not zero")
		}
	}
}

// A field set to its type's zero value is set: its getter returns that, not the
// schema's default.
func TestSetFieldsWinOverDefaults(t *testing.T) {
	m := &defaults.Defaults{
		I32: ptr(int32(0)), I64: ptr(int64(0)), U32: ptr(uint32(0)), U64: ptr(uint64(0)),
		S32: ptr(int32(0)), F64: ptr(uint64(0)), Flag: ptr(false), Text: ptr(""),
		Raw: []byte{}, D: ptr(0.0), DInf: ptr(1.5), DNan: ptr(2.5), F: ptr(float32(0.25)),
		FInf: ptr(float32(0)), DNegZero: ptr(0.0), Level: ptr(defaults.Level_LOW),
		First: ptr(defaults.Level_MEDIUM),
	}
	if m.GetI32() != 0 || m.GetI64() != 0 || m.GetU32() != 0 || m.GetU64() != 0 ||
		m.GetS32() != 0 || m.GetF64() != 0 || m.GetFlag() || m.GetText() != "" {
		t.Errorf("a set zero value read as the default")
	}
	if r := m.GetRaw(); r == nil || len(r) != 0 {
		t.Errorf("set empty bytes read as %q", r)
	}
	if m.GetD() != 0 || m.GetDInf() != 1.5 || m.GetDNan() != 2.5 || m.GetF() != 0.25 ||
		m.GetFInf() != 0 || math.Signbit(m.GetDNegZero()) {
		t.Errorf("set floats read as %v %v %v %v %v %v", m.GetD(), m.GetDInf(), m.GetDNan(),
			m.GetF(), m.GetFInf(), m.GetDNegZero())
	}
	if m.GetLevel() != defaults.Level_LOW || m.GetFirst() != defaults.Level_MEDIUM {
		t.Errorf("set enums read as %v %v", m.GetLevel(), m.GetFirst())
	}
	// Set values survive an encode and a decode.
	b, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var back defaults.Defaults
	if err := back.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	if back.GetFlag() || back.GetU32() != 0 || back.GetLevel() != defaults.Level_LOW || back.GetRaw() == nil {
		t.Errorf("decoded set values read as defaults")
	}
}

// The bytes default is a new slice each time: a caller that changes it changes no
// other caller's default.
func TestBytesDefaultIsAFreshSlice(t *testing.T) {
	var m *defaults.Defaults
	m.GetRaw()[0] = 'X'
	if m.GetRaw()[0] != 1 {
		t.Errorf("the default changed: %q", m.GetRaw())
	}
}

// Getters chain through absent messages without a check at each step.
func TestGettersChainThroughNil(t *testing.T) {
	m := &defaults.Defaults{Child: &defaults.Defaults{Level: ptr(defaults.Level_MEDIUM)}}
	if got := m.GetChild().GetLevel(); got != defaults.Level_MEDIUM {
		t.Errorf("child's level %v", got)
	}
	if got := m.GetChild().GetChild().GetChild().GetLevel(); got != defaults.Level_HIGH {
		t.Errorf("absent grandchild's level %v, want the default", got)
	}
	if got := m.GetPicked().GetText(); got != "say \"hi\"\n\tç" {
		t.Errorf("absent oneof message's text %q", got)
	}
}

// A oneof member's getter returns its value when the oneof holds that member, and its
// default otherwise; a typed nil wrapper holds nothing.
func TestOneofMemberGetters(t *testing.T) {
	m := &defaults.Defaults{Pick: &defaults.Defaults_PickedLevel{PickedLevel: defaults.Level_HIGH}}
	if m.GetPickedLevel() != defaults.Level_HIGH || m.GetS() != "" || m.GetPicked() != nil {
		t.Errorf("held enum: %v %q %v", m.GetPickedLevel(), m.GetS(), m.GetPicked())
	}
	if _, ok := m.GetPick().(*defaults.Defaults_PickedLevel); !ok {
		t.Errorf("GetPick holds %T", m.GetPick())
	}
	m.Pick = &defaults.Defaults_S{S: "s"}
	if m.GetS() != "s" || m.GetPickedLevel() != defaults.Level_LOW {
		t.Errorf("held string: %q %v", m.GetS(), m.GetPickedLevel())
	}
	child := &defaults.Defaults{}
	m.Pick = &defaults.Defaults_Picked{Picked: child}
	if m.GetPicked() != child || m.GetS() != "" {
		t.Errorf("held message: %v %q", m.GetPicked(), m.GetS())
	}
	m.Pick = (*defaults.Defaults_S)(nil)
	if m.GetS() != "" {
		t.Errorf("a typed nil wrapper read as %q", m.GetS())
	}
}

// Each of the colliding names reaches its own field.
func TestCollidingNamesStepAside(t *testing.T) {
	m := &defaults.Defaults{X: ptr(int32(1)), GetX: ptr(int32(2)), Marshal_: ptr(int32(3))}
	if m.GetX_() != 1 || m.GetGetX() != 2 || m.GetMarshal_() != 3 {
		t.Errorf("GetX_ %d, GetGetX %d, GetMarshal_ %d", m.GetX_(), m.GetGetX(), m.GetMarshal_())
	}
}
