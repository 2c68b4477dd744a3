package bijoubuf

import (
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Descriptors: a static table per generated message and enum, and a registry by full
// name. Generated code builds one MessageDesc per message type and registers it in its
// package's init; the encode and decode paths never read these tables (they are
// generated straight-line code), so the tables are for code that walks values by
// schema: proto3 JSON (with reflect, guided by GoName), a testee that finds a type by
// its full name, tools.

// Kind is a field's schema type (for a repeated field, its element's; for a map, see
// FieldDesc.MapKey and FieldDesc.MapValue).
type Kind uint8

// The schema types.
const (
	KindBool Kind = iota + 1
	KindInt32
	KindSint32
	KindSfixed32
	KindUint32
	KindFixed32
	KindInt64
	KindSint64
	KindSfixed64
	KindUint64
	KindFixed64
	KindFloat
	KindDouble
	KindString
	KindBytes
	KindEnum
	KindMessage
)

// FieldSlot is one entry of a generated message's field table, indexed by field
// number: a singular scalar field outside a oneof (not a string or bytes), the case of
// the generated table decoder that reads it (one per scalar type and presence among the
// message's fields, numbered from 1), the offset of its value in the message's struct
// and its .proto name. A message with many such fields (see go/README.md, "What the
// generated code looks like") reads their records through the table instead of a case
// each of its switch on the field number: the jump of such a switch goes to a different
// case for almost every record of a wide message, which the processor guesses badly;
// the table's few cases, it guesses well. An entry whose Case is 0 is a number the
// table does not hold.
type FieldSlot struct {
	Case uint8
	Off  uintptr
	Name string
}

var kindText = [...]string{
	KindBool:     "bool",
	KindInt32:    "int32",
	KindSint32:   "sint32",
	KindSfixed32: "sfixed32",
	KindUint32:   "uint32",
	KindFixed32:  "fixed32",
	KindInt64:    "int64",
	KindSint64:   "sint64",
	KindSfixed64: "sfixed64",
	KindUint64:   "uint64",
	KindFixed64:  "fixed64",
	KindFloat:    "float",
	KindDouble:   "double",
	KindString:   "string",
	KindBytes:    "bytes",
	KindEnum:     "enum",
	KindMessage:  "message",
}

// String is the schema type's name in .proto spelling: "sint32", "enum", "message".
func (k Kind) String() string {
	if int(k) < len(kindText) && kindText[k] != "" {
		return kindText[k]
	}
	return "kind(" + itoa(int(k)) + ")"
}

// Message is what every generated message type's pointer implements.
type Message interface {
	// BijoubufDesc is the message type's descriptor.
	BijoubufDesc() *MessageDesc
	// Marshal is the canonical encoding with the default limits.
	Marshal() ([]byte, error)
	// MarshalOptions is the canonical encoding under opts's limits.
	MarshalOptions(opts EncodeOptions) ([]byte, error)
	// Unmarshal decodes buf strictly with the default limits, replacing the value. The
	// value keeps nothing of buf (its strings and bytes are copies), so buf may be
	// reused as soon as Unmarshal returns; the same holds for every decode below.
	Unmarshal(buf []byte) error
	// UnmarshalOptions decodes buf under opts, replacing the value.
	UnmarshalOptions(buf []byte, opts DecodeOptions) error
	// BijoubufUnmarshal is UnmarshalOptions that also returns the number of unknown
	// records kept anywhere in the input (a preserving decode; SPEC §8.2).
	BijoubufUnmarshal(buf []byte, opts DecodeOptions) (unknown int, err error)
	// BijoubufUnknown is the unknown records a preserving decode kept directly in this
	// message, in ascending field number; they are re-emitted by the next encode.
	BijoubufUnknown() []UnknownRecord
}

// EnumValueDesc is one declared value of an enum.
type EnumValueDesc struct {
	Name   string // as declared: "STATUS_ACTIVE"
	Number int32
}

// EnumDesc describes an enum type. Enums are open in Go: a value the schema does not
// declare is kept as its number (SPEC §3.6).
type EnumDesc struct {
	FullName string          // "pkg.Status"
	Values   []EnumValueDesc // in declaration order
	// Closed is true for a proto2 (or editions CLOSED) enum. The wire form does not
	// change (SPEC §3.6); proto3 JSON may care.
	Closed bool
}

// ValueName is the first declared name of number, if it has one.
func (e *EnumDesc) ValueName(number int32) (string, bool) {
	for _, v := range e.Values {
		if v.Number == number {
			return v.Name, true
		}
	}
	return "", false
}

// Format is number's first declared name, or the number in decimal when it has none.
func (e *EnumDesc) Format(number int32) string {
	if name, ok := e.ValueName(number); ok {
		return name
	}
	return strconv.Itoa(int(number))
}

// ValueNumber is the number of the value declared as name.
func (e *EnumDesc) ValueNumber(name string) (int32, bool) {
	for _, v := range e.Values {
		if v.Name == name {
			return v.Number, true
		}
	}
	return 0, false
}

// FieldDesc describes one field of a message.
//
// Go shapes (the struct field named GoName): an implicit-presence scalar is a value
// (int32, string, []byte, an enum's named type); an explicit-presence scalar is a
// pointer (*int32, *string, *Enum), except bytes, which is []byte with nil meaning
// absent (an empty non-nil slice is set and empty); a message is *M; a repeated field
// is a slice ([]int32, []*M); a map is a Go map (map[string]*M). A oneof member is the
// only field of its wrapper struct (type M_Name struct{ Name T }), stored in the
// interface field OneofGoName of the message.
type FieldDesc struct {
	Number   uint32
	Name     string // the .proto name: "home_address"
	JSONName string // the proto3 JSON name: "homeAddress"
	// GoName is the Go struct field holding the value: in the message for an ordinary
	// field, in the wrapper struct for a oneof member.
	GoName string
	// Kind is the schema type (a repeated field's element type); KindMessage for a
	// map, whose entry is described by MapKey and MapValue.
	Kind     Kind
	Repeated bool
	// Map fields have MapKey (number 1) and MapValue (number 2), whose GoName is empty.
	Map      bool
	MapKey   *FieldDesc
	MapValue *FieldDesc
	// Explicit presence (SPEC §5.2): proto3 optional, proto2 optional and required,
	// editions EXPLICIT, message fields, oneof members.
	Explicit bool
	Required bool
	// Oneof is the oneof's .proto name ("" for a field outside a oneof); OneofGoName is
	// the message's interface field; NewOneofWrapper returns a new *M_Name.
	Oneof           string
	OneofGoName     string
	NewOneofWrapper func() any
	// Enum describes the enum of a KindEnum field.
	Enum *EnumDesc
	// Message returns the descriptor of a KindMessage field's type (a function, so
	// that recursive types can refer to themselves).
	Message func() *MessageDesc
}

// IsMap says whether the field is a map.
func (f *FieldDesc) IsMap() bool { return f.Map }

// MessageDesc describes a message type.
type MessageDesc struct {
	FullName string // "pkg.Outer.Inner"
	Name     string // the short name, the root of error paths: "Inner"
	// GoType is the Go type's name in its package: "Outer_Inner".
	GoType string
	Fields []FieldDesc // ascending field number
	// Oneofs are the .proto names of the message's oneofs, in declaration order.
	Oneofs []string
	// New returns a new empty message of this type.
	New func() Message
}

// FieldByNumber is the field numbered n.
func (m *MessageDesc) FieldByNumber(n uint32) (*FieldDesc, bool) {
	for i := range m.Fields {
		if m.Fields[i].Number == n {
			return &m.Fields[i], true
		}
	}
	return nil, false
}

// FieldByName is the field whose .proto name or JSON name is name.
func (m *MessageDesc) FieldByName(name string) (*FieldDesc, bool) {
	for i := range m.Fields {
		if m.Fields[i].Name == name || m.Fields[i].JSONName == name {
			return &m.Fields[i], true
		}
	}
	return nil, false
}

var registry struct {
	sync.RWMutex
	messages map[string]*MessageDesc
	enums    map[string]*EnumDesc
}

// RegisterMessage adds a message type to the registry by its full name; generated
// packages call it from init. A second registration of the same full name replaces the
// first.
func RegisterMessage(d *MessageDesc) {
	registry.Lock()
	defer registry.Unlock()
	if registry.messages == nil {
		registry.messages = make(map[string]*MessageDesc)
	}
	registry.messages[d.FullName] = d
}

// RegisterEnum adds an enum type to the registry by its full name.
func RegisterEnum(d *EnumDesc) {
	registry.Lock()
	defer registry.Unlock()
	if registry.enums == nil {
		registry.enums = make(map[string]*EnumDesc)
	}
	registry.enums[d.FullName] = d
}

// FindMessage is the registered message type of fullName ("pkg.Outer.Inner", no
// leading dot); its New makes an empty value. A type is registered when its generated
// package is linked in (imported, if only for its side effect).
func FindMessage(fullName string) (*MessageDesc, bool) {
	registry.RLock()
	defer registry.RUnlock()
	d, ok := registry.messages[fullName]
	return d, ok
}

// RangeMessages calls f with every registered message type, in the order of their full
// names, until f returns false.
func RangeMessages(f func(*MessageDesc) bool) {
	registry.RLock()
	all := make([]*MessageDesc, 0, len(registry.messages))
	for _, d := range registry.messages {
		all = append(all, d)
	}
	registry.RUnlock()
	slices.SortFunc(all, func(a, b *MessageDesc) int { return strings.Compare(a.FullName, b.FullName) })
	for _, d := range all {
		if !f(d) {
			return
		}
	}
}

// FindEnum is the registered enum type of fullName.
func FindEnum(fullName string) (*EnumDesc, bool) {
	registry.RLock()
	defer registry.RUnlock()
	d, ok := registry.enums[fullName]
	return d, ok
}
