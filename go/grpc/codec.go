package bijoubufgrpc

import (
	"errors"
	"fmt"
	"sync"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
)

// Marker is the first byte of every message payload: bijoubuf format 1
// (conformance/RPC.md §2). No protobuf message starts with a byte in 0x00–0x07.
const Marker byte = 0x01

// Name is the codec's name and the content-subtype generated clients send:
// "application/grpc+bijoubuf".
const Name = "bijoubuf"

// The metadata keys of a refusal (conformance/RPC.md §4).
const (
	// CodeKey holds the error code: "default-value-present", "missing-marker", ….
	CodeKey = "bijoubuf-error-code"
	// OffsetKey holds the byte offset in decimal, counted from the first byte after
	// the marker.
	OffsetKey = "bijoubuf-error-offset"
	// PathKey holds the field path ("Order.sku"); absent when the path is empty.
	PathKey = "bijoubuf-error-path"
)

// MissingMarker is the code of a payload that is empty or does not start with [Marker].
const MissingMarker = "missing-marker"

func init() {
	encoding.RegisterCodecV2(Codec{})
	// grpc-go gives a call with no content-subtype ("application/grpc", what tonic
	// sends) or an unknown one to the codec named "proto". Registered in its place, a
	// Codec that hands every value not bijoubuf's to the one it replaces makes a server
	// without ServerOption refuse protobuf bytes as conformance/RPC.md §3 says, instead
	// of failing the call with INTERNAL. Package grpc registers its "proto" codec before
	// this init runs (this package imports it).
	replacedProto = encoding.GetCodecV2("proto")
	encoding.RegisterCodecV2(protoNamed{})
}

// replacedProto is the "proto" codec registered before [protoNamed] took its name.
var replacedProto encoding.CodecV2

// protoNamed is [Codec] with the default limits under the name "proto".
type protoNamed struct{ Codec }

func (protoNamed) Name() string { return "proto" }

// Codec is a grpc-go [encoding.CodecV2] for bijoubuf messages. The zero value uses the
// runtime's default limits. It encodes a [bijoubuf.Message] as [Marker] then its
// canonical encoding (under EncodeOptions), receives into a [*Frame] (generated code
// does) or decodes straight into a [bijoubuf.Message] (under DecodeOptions), and hands
// any other value to the registered "proto" codec.
//
// A refusal met by Unmarshal into a message is a [*RefusalError], but grpc-go reports
// it to the caller as INTERNAL with the error's text only; generated code receives
// through a [*Frame] instead, which keeps the refusal, so that a refusal ends the call
// as conformance/RPC.md §3 says.
type Codec struct {
	// DecodeOptions are the limits every received message is decoded with.
	DecodeOptions bijoubuf.DecodeOptions
	// EncodeOptions are the limits every sent message is encoded with.
	EncodeOptions bijoubuf.EncodeOptions
}

// ServerOption forces c on a server, for every call whatever its content-subtype: the
// way to decode requests under c's limits rather than the defaults, and to stay right
// when another package registers a "proto" codec after this one's. Values that are not
// bijoubuf messages still go to the "proto" codec.
func ServerOption(c Codec) grpc.ServerOption {
	return grpc.ForceServerCodecV2(c)
}

// Name is [Name].
func (Codec) Name() string { return Name }

// Marshal is the marker then v's canonical encoding, for a [bijoubuf.Message]; the
// "proto" codec's encoding for anything else.
//
// The payload is one buffer, the marker first: one larger than grpc-go's pooling
// threshold (1 KiB) is a buffer of grpc-go's default pool, which grpc-go gives back once
// it is sent, as grpc-go's own proto codec does, so that a server sending large messages
// does not allocate one per message.
func (c Codec) Marshal(v any) (mem.BufferSlice, error) {
	m, ok := v.(bijoubuf.Message)
	if !ok {
		return protoCodec(v).Marshal(v)
	}
	// The marker, then the encoding written after it in the same buffer: a new one, or
	// above the threshold one of grpc-go's pool. The Encoder is pooled: passed to the
	// message's methods through an interface, a local's state would escape, an
	// allocation each.
	e := encoders.Get().(*bijoubuf.Encoder)
	defer encoders.Put(e)
	e.Options = c.EncodeOptions
	var b []byte
	var pooled *[]byte
	err := e.Encode(m, func(n int) []byte {
		if mem.IsBelowBufferPoolingThreshold(1 + n) {
			b = make([]byte, 1+n)
		} else {
			pooled = mem.DefaultBufferPool().Get(1 + n)
			b = *pooled
		}
		b[0] = Marker
		return b[1:]
	})
	switch {
	case err != nil:
		if pooled != nil {
			mem.DefaultBufferPool().Put(pooled)
		}
		return nil, fmt.Errorf("a %s message could not be encoded: %w", m.BijoubufDesc().Name, err)
	case pooled != nil:
		return mem.BufferSlice{mem.NewBuffer(pooled, mem.DefaultBufferPool())}, nil
	}
	return mem.BufferSlice{mem.SliceBuffer(b)}, nil
}

// encoders holds the Encoders of Marshal between messages.
var encoders = sync.Pool{New: func() any { return new(bijoubuf.Encoder) }}

// Unmarshal keeps the payload in a [*Frame] (with c's DecodeOptions), decodes it into a
// [bijoubuf.Message] (a refusal is a [*RefusalError]), or hands anything else to the
// "proto" codec. A message is decoded straight from grpc-go's buffers, which grpc-go
// frees when Unmarshal returns: a message's decode keeps nothing of its input (generated
// code copies strings and bytes).
func (c Codec) Unmarshal(data mem.BufferSlice, v any) error {
	switch t := v.(type) {
	case *Frame:
		if m := t.into; m != nil {
			// This package's own receive: decoded now, no copy kept.
			t.into, t.err = nil, decodeBuffers(data, m, c.DecodeOptions)
			return nil
		}
		// data is freed when this returns; a Frame is decoded later.
		t.payload = data.Materialize()
		t.opts = c.DecodeOptions
		return nil
	case bijoubuf.Message:
		return decodeBuffers(data, t, c.DecodeOptions)
	default:
		return protoCodec(v).Unmarshal(data, v)
	}
}

// decodeBuffers is [DecodePayload] of a received payload: read in place when it came in
// one buffer (a small message does), else copied once into a buffer of grpc-go's pool,
// given back after the decode.
func decodeBuffers(data mem.BufferSlice, m bijoubuf.Message, opts bijoubuf.DecodeOptions) error {
	switch len(data) {
	case 0:
		return DecodePayload(nil, m, opts)
	case 1:
		return DecodePayload(data[0].ReadOnlyData(), m, opts)
	}
	buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
	defer buf.Free()
	return DecodePayload(buf.ReadOnlyData(), m, opts)
}

// protoCodec is the registered "proto" codec (the one [protoNamed] replaced while it
// holds the name), or one that refuses v when there is none.
func protoCodec(v any) encoding.CodecV2 {
	p := encoding.GetCodecV2("proto")
	if _, ours := p.(protoNamed); ours {
		p = replacedProto
	}
	if p == nil {
		return noCodec{v}
	}
	return p
}

type noCodec struct{ v any }

func (n noCodec) err() error {
	return fmt.Errorf("bijoubufgrpc: a %T is neither a bijoubuf message nor a frame, and no \"proto\" codec is registered", n.v)
}
func (n noCodec) Marshal(any) (mem.BufferSlice, error) { return nil, n.err() }
func (n noCodec) Unmarshal(mem.BufferSlice, any) error { return n.err() }
func (noCodec) Name() string                           { return "proto" }

// Frame is one received message payload, not yet decoded, with the receiving codec's
// limits. Receive into a Frame to decode the payload later, or to tell a refusal from
// other errors: grpc-go reports an error of a codec's Unmarshal as INTERNAL with its
// text only.
//
// Generated code's calls receive into Frames that [Codec] decodes while grpc-go still
// holds the payload, into the message the call asked for; such a Frame keeps no payload
// (a stats handler given one sees an empty [Frame.Payload]).
type Frame struct {
	payload []byte
	opts    bijoubuf.DecodeOptions
	// into, set by this package's receives, is the message Unmarshal decodes the payload
	// into (it then clears into); err is that decode's result.
	into bijoubuf.Message
	err  error
}

// Payload is the payload as received: [Marker], then the message.
func (f *Frame) Payload() []byte { return f.payload }

// Decode checks the marker and decodes the message after it into m with the codec's
// limits. A refusal is a [*RefusalError].
func (f *Frame) Decode(m bijoubuf.Message) error {
	return DecodePayload(f.payload, m, f.opts)
}

// expect has the next Unmarshal into f decode into m. This package's receives call
// expect, the receive, then result, in the receiving function itself: a helper around
// them would add a frame to the stack of grpc-go's handler goroutine, walked at each of
// its early stack growths.
func (f *Frame) expect(m bijoubuf.Message) { f.into, f.err = m, nil }

// result is the decode into m after a receive through f succeeded: [Codec.Unmarshal]'s,
// or, when something other than Codec filled f, the decode of the payload it holds (none:
// missing-marker).
func (f *Frame) result(m bijoubuf.Message) error {
	if f.into != nil {
		return f.Decode(m)
	}
	return f.err
}

// requestFrames are the Frames unary handlers receive through: grpc-go's dec keeps
// nothing it is given once it returns (a stats handler is told that InPayload.Payload
// may change after HandleRPC), so a Frame serves call after call.
var requestFrames = sync.Pool{New: func() any { return new(Frame) }}

// DecodePayload checks that payload starts with [Marker] before reading anything else,
// then decodes the rest strictly into m under opts. A refusal is a [*RefusalError]
// (code "missing-marker" at offset 0 when the marker is not there; otherwise the
// decoder's code, offset and path, and [errors.As] finds the [*bijoubuf.DecodeError]).
func DecodePayload(payload []byte, m bijoubuf.Message, opts bijoubuf.DecodeOptions) error {
	if len(payload) == 0 || payload[0] != Marker {
		return missingMarker(payload, m.BijoubufDesc().Name)
	}
	err := m.UnmarshalOptions(payload[1:], opts)
	if err == nil {
		return nil
	}
	var d *bijoubuf.DecodeError
	if !errors.As(err, &d) {
		return err
	}
	return &RefusalError{
		Code:    d.Code().String(),
		Offset:  d.Offset(),
		Path:    d.Path(),
		Message: d.Error(),
		Err:     d,
	}
}

func missingMarker(payload []byte, name string) *RefusalError {
	text := MissingMarker + ": a " + name + " message must start with the bijoubuf marker 0x01"
	if len(payload) == 0 {
		text += ", and the message is empty"
	} else {
		text += fmt.Sprintf(", not 0x%02x at byte 0", payload[0])
		if payload[0] >= 0x08 {
			text += " (protobuf bytes are refused, never read as bijoubuf)"
		}
	}
	return &RefusalError{Code: MissingMarker, Message: text}
}
