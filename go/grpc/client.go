package bijoubufgrpc

import (
	"context"
	"fmt"
	"io"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// contentSubtype is the call option that sends "+bijoubuf", boxed once.
var contentSubtype = grpc.CallContentSubtype(Name)

// callOptions puts the content-subtype first, so that a codec forced by the caller
// (grpc.ForceCodecV2, per call or as a default call option) still wins.
func callOptions(opts []grpc.CallOption, extra ...grpc.CallOption) []grpc.CallOption {
	out := make([]grpc.CallOption, 0, len(opts)+2+len(extra))
	out = append(out, grpc.StaticMethod(), contentSubtype)
	out = append(out, extra...)
	return append(out, opts...)
}

// unaryCall is what [Invoke] allocates for a call, in one piece: the Frame the response
// is decoded through, the trailers, and the call options when the caller passes none.
// It is not pooled: the caller's interceptors are given the Frame and may keep it.
type unaryCall struct {
	frame   Frame
	trailer metadata.MD
	opts    [3]grpc.CallOption
}

// Invoke is a generated unary method's call: in is sent, and the response is decoded
// into out while grpc-go holds it. A refusal is a [*RefusalError]: ByServer when the
// server refused in, otherwise this client refused the response.
func Invoke(ctx context.Context, cc grpc.ClientConnInterface, method string, in, out bijoubuf.Message, opts ...grpc.CallOption) error {
	c := new(unaryCall)
	var callOpts []grpc.CallOption
	if len(opts) == 0 {
		c.opts = [3]grpc.CallOption{grpc.StaticMethod(), contentSubtype, grpc.Trailer(&c.trailer)}
		callOpts = c.opts[:]
	} else {
		callOpts = callOptions(opts, grpc.Trailer(&c.trailer))
	}
	c.frame.expect(out)
	if err := cc.Invoke(ctx, method, in, &c.frame, callOpts...); err != nil {
		return FromCall(err, c.trailer)
	}
	return c.frame.result(out)
}

// NewClientStream starts a generated streaming method's call. Its [ClientStream] is a
// [grpc.ServerStreamingClient], [grpc.ClientStreamingClient] and
// [grpc.BidiStreamingClient] over bijoubuf messages.
func NewClientStream[Req, Res any](ctx context.Context, cc grpc.ClientConnInterface, desc *grpc.StreamDesc, method string, opts ...grpc.CallOption) (*ClientStream[Req, Res], error) {
	ctx, cancel := context.WithCancel(ctx)
	s, err := cc.NewStream(ctx, desc, method, callOptions(opts)...)
	if err != nil {
		cancel()
		return nil, err
	}
	return &ClientStream[Req, Res]{ClientStream: s, cancel: cancel}, nil
}

// ClientStream is a generated client's stream: Req and Res are generated message types.
// Recv refuses a response as [Invoke] does, and reports a refusal by the server as a
// [*RefusalError] with ByServer. A response refused here ends the call (its context is
// cancelled, so the server sees CANCELLED), as does any error or the end of the
// responses.
type ClientStream[Req, Res any] struct {
	grpc.ClientStream
	cancel context.CancelFunc
	// frame is what every Recv receives through.
	frame Frame
}

// Send sends one request.
func (s *ClientStream[Req, Res]) Send(m *Req) error {
	return s.ClientStream.SendMsg(m)
}

// Recv receives and decodes the next response; io.EOF after the last.
func (s *ClientStream[Req, Res]) Recv() (*Res, error) {
	m := new(Res)
	msg, ok := any(m).(bijoubuf.Message)
	if !ok {
		return nil, fmt.Errorf("bijoubufgrpc: *%T is not a bijoubuf message", *m)
	}
	f := &s.frame
	f.expect(msg)
	err := s.ClientStream.RecvMsg(f)
	var decodeErr error
	if err == nil {
		decodeErr = f.result(msg)
	}
	*f = Frame{}
	if err != nil {
		defer s.cancel()
		if err == io.EOF {
			return nil, err
		}
		return nil, FromCall(err, s.ClientStream.Trailer())
	}
	if decodeErr != nil {
		s.cancel()
		return nil, decodeErr
	}
	return m, nil
}

// CloseAndRecv ends the requests of a client-streaming call and receives its response.
func (s *ClientStream[Req, Res]) CloseAndRecv() (*Res, error) {
	if err := s.ClientStream.CloseSend(); err != nil {
		return nil, err
	}
	return s.Recv()
}
