package bijoubuf

import "github.com/bijoubuf/bijoubuf/go/bijou64"

// Length-delimited streams (SPEC §9.2): a sequence of frames, each bijou64(L) followed by
// exactly L bytes holding one top-level message. The empty stream holds no message; 00
// is a frame holding an empty message.

// AppendFrame appends one frame holding the encoded message msg to stream.
func AppendFrame(stream, msg []byte) []byte {
	stream = bijou64.Append(stream, uint64(len(msg)))
	return append(stream, msg...)
}

// DecodeFrame decodes the frame whose length prefix starts at start in stream, as a
// message named name (see Decode), and returns the offset just past the frame and the
// number of unknown records kept. Offsets in errors count from the start of the stream.
//
// A prefix that is incomplete, or an L beyond the bytes that remain, is truncated at the
// prefix; a prefix that overflows is varint-overflow there; with a size limit, an L
// above it is size-limit-exceeded at the prefix, before the frame's bytes are checked
// against the input (SPEC §9.4). Frame-level errors carry the message's path.
//
//	for pos := 0; pos < len(stream); {
//		next, _, err := bijoubuf.DecodeFrame(stream, pos, opts, "Person", false, decodePerson)
//		if err != nil {
//			return err
//		}
//		pos = next
//	}
func DecodeFrame(stream []byte, start int, opts DecodeOptions, name string, keeps bool, decode func(*Reader) error) (int, int, error) {
	var rest []byte
	if start < len(stream) {
		rest = stream[start:]
	}
	l, n, err := bijou64.Decode(rest)
	if err != nil {
		code := Truncated
		if err == bijou64.ErrOverflow {
			code = VarintOverflow
		}
		return 0, 0, NewDecodeError(code, start).InMessage(name)
	}
	if opts.hasMaxSize && l > uint64(opts.maxSize) {
		return 0, 0, NewDecodeError(SizeLimitExceeded, start).InMessage(name)
	}
	if l > uint64(len(rest)-n) {
		return 0, 0, NewDecodeError(Truncated, start).InMessage(name)
	}
	body := start + n
	end := body + int(l)
	unknown, err := decodeTop(newReader(stream, body, end, opts), name, keeps, decode)
	if err != nil {
		return 0, 0, err
	}
	return end, unknown, nil
}
