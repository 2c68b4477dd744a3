// Package bijoubufjson is the proto3 JSON mapping of bijoubuf's Go implementation, as the
// Rust (bijoubuf-reflect) and TypeScript implementations read and write it.
//
// Input accepts both the JSON name and the schema name of a field, 64-bit integers as
// strings or numbers (a float with no fractional part, "1e3" and "5.0" included), floats
// as numbers, numeric strings or "NaN" / "Infinity" / "-Infinity", standard or URL-safe
// base64 with or without padding, enum names or numbers, and null for "absent" (except
// where null is the value: google.protobuf.Value and NullValue). It refuses a key twice
// in one object, unknown field names, a field given by both its names, two members of
// one oneof, values out of range for their type, and JSON whose arrays and objects nest
// deeper than twice the message depth limit (SPEC §9.3), before building anything.
//
// The well-known types have their special forms: Timestamp (RFC 3339, years 1 to 9999),
// Duration ("-1.5s", within ±10000 years), the wrappers (the bare value), Struct / Value /
// ListValue (plain JSON), FieldMask (comma-joined lowerCamelCase paths), Empty ({}), and
// Any ("@type" plus the message's members, or plus "value" for a type with a special
// form).
//
// Input is read into a tree, then each value into its place in the message; the elements
// of a repeated message field are allocated together, as one array of structs the slice
// points into, so that a walk over them (the encoder's) reads memory in order.
//
// Output writes fields by JSON name in field-number order, 64-bit integers as strings,
// bytes as standard base64, enums by name (a number the enum does not name as that
// number), doubles with the shortest digits that read back (`0.1`, `1e+20`, `1.0`), floats
// as protobuf's JSON writes them (`1.0`, `1e+20`, `3.4028235e+38`), and refuses values
// with no JSON form that would read back as the same value (a Value with no kind set, a
// Timestamp out of range, a FieldMask path lowerCamelCase cannot spell).
package bijoubufjson
