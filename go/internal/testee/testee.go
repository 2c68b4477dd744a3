// Package testee is the Go implementation's conformance testee (conformance/README.md,
// "The testee protocol"): frames of a 4-byte big-endian length and UTF-8 JSON, one
// answer per request, over the message types registered with bijoubuf (the generated
// code of conformance/schemas, linked in by the command).
//
// Decode requests run the generated types' strict (or preserving) decoder, a stream
// frame by frame, and re-encode the value under the request's limits; encode requests
// read the value from proto3 JSON (bijoubufjson, at the depth cap) and run the canonical
// encoder with the request's depth and size limits, answering its refusals as
// `refused`. Two requests beyond the protocol serve the cross-language property tests,
// as the TypeScript testee's do: `{"op": "arbitrary", "type": …, "seed": n}` answers the
// encoding of an arbitrary value built in Go, and `{"op": "json", "type": …, "input":
// hex}` the proto3 JSON Go writes for the decoded value (`{"status": "json", "output":
// text}`, or `failed` when it refuses).
package testee

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"

	"github.com/bijoubuf/bijoubuf/go/bijou64"
	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
	"github.com/bijoubuf/bijoubuf/go/bijoubufjson"
)

// Config is a request's decoder configuration; every field is optional.
type Config struct {
	DepthLimit *uint64 `json:"depth-limit"`
	SizeLimit  *uint64 `json:"size-limit"`
	Preserving bool    `json:"preserving"`
	Stream     bool    `json:"stream"`
}

// Request is one request of the protocol, or of its two extensions.
type Request struct {
	Op      string `json:"op"`
	Type    string `json:"type"`
	Input   string `json:"input"`
	JSON    string `json:"json"`
	Decoder Config `json:"decoder"`
	Seed    uint64 `json:"seed"`
}

type accepted struct {
	Status  string `json:"status"`
	Output  string `json:"output"`
	Unknown int    `json:"unknown"`
}

type refused struct {
	Status string `json:"status"`
	Code   string `json:"code"`
	Offset int    `json:"offset"`
	Path   string `json:"path"`
}

type output struct {
	Status string `json:"status"`
	Output string `json:"output"`
}

type message struct {
	Status  string `json:"status"`
	Message string `json:"message"`
}

func failed(msg string) any      { return message{"failed", msg} }
func unsupported(msg string) any { return message{"unsupported", msg} }

// limit is a depth limit as the options take it: any u32 is valid (0 is 1, above 500 is
// 500, SPEC §9.3), so a value above the int range is the cap as well.
func limit(d *uint64) int {
	if d == nil {
		return bijoubuf.DefaultMaxDepth
	}
	if *d > bijoubuf.MaxDepthLimit {
		return bijoubuf.MaxDepthLimit
	}
	return int(*d)
}

func (c Config) decodeOptions() bijoubuf.DecodeOptions {
	o := bijoubuf.DecodeOptions{}.WithMaxDepth(limit(c.DepthLimit)).Preserving(c.Preserving)
	if c.SizeLimit != nil {
		o = o.WithMaxSize(int(min(*c.SizeLimit, 1<<62)))
	}
	return o
}

// encodeOptions are the encoder's limits for a configuration: SPEC §9, an encoder's
// limits are the decoder's, so a value accepted under a limit above the default encodes
// again.
func (c Config) encodeOptions() bijoubuf.EncodeOptions {
	o := bijoubuf.EncodeOptions{}.WithMaxDepth(limit(c.DepthLimit))
	if c.SizeLimit != nil {
		o = o.WithMaxSize(int(min(*c.SizeLimit, 1<<62)))
	}
	return o
}

// Answer answers one request frame's JSON with a response frame's JSON.
func Answer(body []byte) []byte {
	var req Request
	var res any
	if err := json.Unmarshal(body, &req); err != nil {
		res = failed("bad request: " + err.Error())
	} else {
		res = answer(&req)
	}
	out, err := json.Marshal(res)
	if err != nil {
		out, _ = json.Marshal(failed("response: " + err.Error()))
	}
	return out
}

func answer(req *Request) any {
	desc, ok := bijoubuf.FindMessage(req.Type)
	switch req.Op {
	case "decode":
		if !ok {
			return unsupported("no message type " + req.Type)
		}
		return decode(desc, req)
	case "encode":
		if !ok {
			return unsupported("no message type " + req.Type)
		}
		return encode(desc, req)
	case "json":
		if !ok {
			return failed("no message type " + req.Type)
		}
		b, err := ParseHex(req.Input)
		if err != nil {
			return failed(err.Error())
		}
		m := desc.New()
		if err := m.Unmarshal(b); err != nil {
			return failed(err.Error())
		}
		text, err := bijoubufjson.Marshal(m)
		if err != nil {
			return failed("json: " + err.Error())
		}
		return output{"json", text}
	case "arbitrary":
		if !ok {
			return failed("no message type " + req.Type)
		}
		m := Arbitrary(desc, req.Seed)
		b, err := m.Marshal()
		if err != nil {
			return failed("encoding an arbitrary value: " + err.Error())
		}
		return output{"encoded", FormatHex(b)}
	}
	return failed("unknown op " + req.Op)
}

// refusal is a decoder's error as a response.
func refusal(err error) any {
	if d, ok := bijoubuf.AsDecodeError(err); ok {
		return refused{"refused", d.Code().String(), d.Offset(), d.Path()}
	}
	return failed(err.Error())
}

func decode(desc *bijoubuf.MessageDesc, req *Request) any {
	b, err := ParseHex(req.Input)
	if err != nil {
		return failed(err.Error())
	}
	opts := req.Decoder.decodeOptions()
	enc := req.Decoder.encodeOptions()
	if req.Decoder.Stream {
		out, unknown, err := decodeStream(desc, b, opts, enc)
		if err != nil {
			return err
		}
		return accepted{"accepted", FormatHex(out), unknown}
	}
	m := desc.New()
	unknown, err := m.BijoubufUnmarshal(b, opts)
	if err != nil {
		return refusal(err)
	}
	out, err := m.MarshalOptions(enc)
	if err != nil {
		return failed("re-encoding: " + err.Error())
	}
	return accepted{"accepted", FormatHex(out), unknown}
}

// decodeStream reads a length-delimited stream (SPEC §9.2) frame by frame and frames
// each message's re-encoding again; a refusal is the response to give.
func decodeStream(desc *bijoubuf.MessageDesc, b []byte, opts bijoubuf.DecodeOptions, enc bijoubuf.EncodeOptions) ([]byte, int, any) {
	var out []byte
	unknown := 0
	maxSize, hasMax := opts.MaxSize()
	for pos := 0; pos < len(b); {
		l, n, err := bijou64.Decode(b[pos:])
		if err != nil {
			code := bijoubuf.Truncated
			if errors.Is(err, bijou64.ErrOverflow) {
				code = bijoubuf.VarintOverflow
			}
			return nil, 0, refusal(bijoubuf.NewDecodeError(code, pos).InMessage(desc.Name))
		}
		// SPEC §9.4: the size limit is checked at the prefix, before the frame's bytes.
		if hasMax && l > uint64(maxSize) {
			return nil, 0, refusal(bijoubuf.NewDecodeError(bijoubuf.SizeLimitExceeded, pos).InMessage(desc.Name))
		}
		if l > uint64(len(b)-pos-n) {
			return nil, 0, refusal(bijoubuf.NewDecodeError(bijoubuf.Truncated, pos).InMessage(desc.Name))
		}
		body := pos + n
		end := body + int(l)
		m := desc.New()
		k, err := m.BijoubufUnmarshal(b[body:end], opts)
		if err != nil {
			d, ok := bijoubuf.AsDecodeError(err)
			if !ok {
				return nil, 0, failed(err.Error())
			}
			// The frame's errors are at offsets in the stream.
			return nil, 0, refused{"refused", d.Code().String(), d.Offset() + body, d.Path()}
		}
		unknown += k
		one, err := m.MarshalOptions(enc)
		if err != nil {
			return nil, 0, failed("re-encoding: " + err.Error())
		}
		out = bijoubuf.AppendFrame(out, one)
		pos = end
	}
	return out, unknown, nil
}

func encode(desc *bijoubuf.MessageDesc, req *Request) any {
	m := desc.New()
	// Read at the cap, as the Rust and TypeScript testees do: the request's limits are
	// the encoder's.
	if err := bijoubufjson.UnmarshalOptions(req.JSON, m, bijoubufjson.Options{MaxDepth: bijoubuf.MaxDepthLimit}); err != nil {
		return failed("json: " + err.Error())
	}
	out, err := m.MarshalOptions(req.Decoder.encodeOptions())
	if err != nil {
		var e *bijoubuf.EncodeError
		if errors.As(err, &e) {
			// The encoder's refusal (SPEC §9): offset 0, the path as free text.
			return refused{"refused", e.Code().String(), 0, e.Error()}
		}
		return failed(err.Error())
	}
	return output{"encoded", FormatHex(out)}
}

// Serve answers the frames of in on out until in ends, flushing each answer: the runner
// waits for it before it sends the next request.
func Serve(in io.Reader, out *bufio.Writer) error {
	for {
		body, err := ReadFrame(in)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := WriteFrame(out, Answer(body)); err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return err
		}
	}
}
