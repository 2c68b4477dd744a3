// Package bijoubuf is the Go runtime of the bijoubuf wire format (conformance/SPEC.md in
// the bijoubuf repository): a canonical, Protobuf-style encoding in which every value has
// exactly one byte string and a strict decoder refuses every other spelling with a
// stable error code, a byte offset and a field path.
//
// This package holds the wire primitives that generated Go code will drive, in the shape
// of the Rust runtime (crates/bijoubuf: __private/reader.rs, writer.rs, error.rs) and the
// TypeScript one (typescript/src: reader.ts, errors.ts):
//
//   - Reader: one forward pass over []byte with delta keys (SPEC §4.1), the field-number
//     range, wire types, LEN bounds checked before any allocation, zigzag, bool,
//     big-endian fixed-width values, canonical NaN, UTF-8, repeated records and maps
//     (empty records, packed lengths, key order), oneofs, required fields, unknown
//     records (refused, or kept in preserving mode) and the depth limit (SPEC §9.3);
//   - Decode and DecodeFrame: a top-level message, with the size limit (SPEC §9.4), and
//     one frame of a length-delimited stream (SPEC §9.2);
//   - DecodeError: the code, absolute offset and path of SPEC §11, printed as the Rust
//     and TypeScript runtimes print it;
//   - Writer: the write pass of a two-pass encode (a size pass with KeySize, VarintSize,
//     LenSize, then one exact write), with canonical NaN and delta keys; AppendFrame.
//
// The varint itself is package bijou64. Code generation (`bijoubuf compile --go-out`) and
// the conformance testee are not there yet. The package depends only on the standard
// library.
package bijoubuf
