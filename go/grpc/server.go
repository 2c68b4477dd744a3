package bijoubufgrpc

import (
	"context"
	"errors"
	"fmt"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// refuse ends a server call for a refused request: the refusal's entries go in the
// trailers and the error returned is INVALID_ARGUMENT; other errors pass unchanged.
func refuse(err error, setTrailer func(metadata.MD)) error {
	var r *RefusalError
	if !errors.As(err, &r) {
		return err
	}
	setTrailer(r.Metadata())
	return r.GRPCStatus().Err()
}

// DecodeRequest is a generated unary handler's decode: dec (grpc-go's) receives the
// payload into a [Frame], and [Codec] decodes it into in while grpc-go holds it. A
// refusal sets the trailers of conformance/RPC.md §4 on ctx's call and returns
// INVALID_ARGUMENT, and the handler returns it before any interceptor or method runs.
func DecodeRequest(ctx context.Context, dec func(any) error, in bijoubuf.Message) error {
	f := requestFrames.Get().(*Frame)
	f.expect(in)
	err := dec(f)
	var decodeErr error
	if err == nil {
		decodeErr = f.result(in)
	}
	*f = Frame{}
	requestFrames.Put(f)
	if err != nil {
		return err
	}
	if decodeErr != nil {
		return refuse(decodeErr, func(md metadata.MD) { _ = grpc.SetTrailer(ctx, md) })
	}
	return nil
}

// RecvRequest is a generated server-streaming handler's receive of its one request,
// refused as [DecodeRequest] refuses.
func RecvRequest(stream grpc.ServerStream, in bijoubuf.Message) error {
	var f Frame
	f.expect(in)
	err := stream.RecvMsg(&f)
	if err != nil {
		return err
	}
	if err := f.result(in); err != nil {
		return refuse(err, stream.SetTrailer)
	}
	return nil
}

// ServerStream is a generated handler's stream of client- and bidi-streaming methods:
// [grpc.ClientStreamingServer] and [grpc.BidiStreamingServer] over bijoubuf messages,
// Req and Res being generated message types. Recv refuses a request with a
// [*RefusalError] (its gRPC status INVALID_ARGUMENT); when the method returns that
// error, [ServerStream.End] puts the refusal's entries in the trailers
// (conformance/RPC.md §4). A method that goes on past a refusal and ends otherwise
// ends the call without them.
type ServerStream[Req, Res any] struct {
	grpc.ServerStream
	refused *RefusalError
	// frame is what every Recv receives through.
	frame Frame
}

// End is what a generated handler returns: err, the method's result, with the entries
// of the refusal Recv returned put in the trailers when err is that refusal.
func (s *ServerStream[Req, Res]) End(err error) error {
	var r *RefusalError
	if s.refused != nil && errors.As(err, &r) && r == s.refused {
		s.ServerStream.SetTrailer(r.Metadata())
	}
	return err
}

// Recv receives and decodes the next request; io.EOF when the client has sent all.
func (s *ServerStream[Req, Res]) Recv() (*Req, error) {
	m := new(Req)
	msg, ok := any(m).(bijoubuf.Message)
	if !ok {
		return nil, fmt.Errorf("bijoubufgrpc: *%T is not a bijoubuf message", *m)
	}
	f := &s.frame
	f.expect(msg)
	err := s.ServerStream.RecvMsg(f)
	var decodeErr error
	if err == nil {
		decodeErr = f.result(msg)
	}
	*f = Frame{}
	if err != nil {
		return nil, err
	}
	if decodeErr != nil {
		if r, ok := decodeErr.(*RefusalError); ok {
			s.refused = r
		}
		return nil, decodeErr
	}
	return m, nil
}

// Send sends one response.
func (s *ServerStream[Req, Res]) Send(m *Res) error {
	return s.ServerStream.SendMsg(m)
}

// SendAndClose sends the one response of a client-streaming method.
func (s *ServerStream[Req, Res]) SendAndClose(m *Res) error {
	return s.ServerStream.SendMsg(m)
}
