package bijoubuf

import "testing"

func TestRegistryFindsByFullName(t *testing.T) {
	e := &EnumDesc{FullName: "desctest.Color", Values: []EnumValueDesc{{"COLOR_UNSPECIFIED", 0}, {"RED", 1}, {"CRIMSON", 1}}}
	RegisterEnum(e)
	m := &MessageDesc{FullName: "desctest.Paint", Name: "Paint", Fields: []FieldDesc{
		{Number: 1, Name: "main_color", JSONName: "mainColor", GoName: "MainColor", Kind: KindEnum, Enum: e},
		{Number: 4, Name: "label", JSONName: "label", GoName: "Label", Kind: KindString},
	}}
	RegisterMessage(m)
	if got, ok := FindMessage("desctest.Paint"); !ok || got != m {
		t.Fatalf("FindMessage = %v, %v", got, ok)
	}
	if _, ok := FindMessage("desctest.Nope"); ok {
		t.Fatal("found an unregistered type")
	}
	if got, ok := FindEnum("desctest.Color"); !ok || got != e {
		t.Fatalf("FindEnum = %v, %v", got, ok)
	}
	if f, ok := m.FieldByNumber(4); !ok || f.GoName != "Label" {
		t.Fatalf("FieldByNumber(4) = %v, %v", f, ok)
	}
	if _, ok := m.FieldByNumber(2); ok {
		t.Fatal("found field 2")
	}
	if f, ok := m.FieldByName("mainColor"); !ok || f.Number != 1 {
		t.Fatalf("FieldByName(mainColor) = %v, %v", f, ok)
	}
	if f, ok := m.FieldByName("main_color"); !ok || f.Number != 1 {
		t.Fatalf("FieldByName(main_color) = %v, %v", f, ok)
	}
	if n, ok := e.ValueName(1); !ok || n != "RED" {
		t.Fatalf("ValueName(1) = %q, %v (the first name declared)", n, ok)
	}
	if _, ok := e.ValueName(7); ok {
		t.Fatal("an undeclared number has a name")
	}
	if v, ok := e.ValueNumber("CRIMSON"); !ok || v != 1 {
		t.Fatalf("ValueNumber(CRIMSON) = %d, %v", v, ok)
	}
	if KindSfixed64.String() != "sfixed64" || Kind(99).String() != "kind(99)" {
		t.Fatal("Kind.String")
	}
}
