package bijoubufgrpc

import (
	"errors"
	"strconv"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// RefusalError is a message refused as bijoubuf: by this side's decoder (a server's
// request, a client's response) or, with ByServer, by the server that a client called.
// Its gRPC status ([RefusalError.GRPCStatus]) is INVALID_ARGUMENT with Message as text.
type RefusalError struct {
	// Code is the error code: a decoder's code (SPEC §11.1) or "missing-marker".
	Code string
	// Offset is the byte offset, counted from the first byte after the marker; −1 for
	// a server's refusal whose trailers hold no offset, or one that is not a
	// non-negative decimal.
	Offset int
	// Path is the field path ("Order.sku"), empty when the refusal names none.
	Path string
	// Message is the refusal's text: "default-value-present: Order.id holds its
	// default at byte 1".
	Message string
	// ByServer says the server refused the request; otherwise this side refused what
	// it received.
	ByServer bool
	// Err is the decoder's [*bijoubuf.DecodeError] when this side's decoder refused
	// the message, nil otherwise (a missing marker, or a refusal by the server).
	Err error
}

// Error is Message, after "the server refused the request: " when ByServer.
func (e *RefusalError) Error() string {
	if e.ByServer {
		return "the server refused the request: " + e.Message
	}
	return e.Message
}

// Unwrap is Err: [errors.As] finds the [*bijoubuf.DecodeError] of a local refusal.
func (e *RefusalError) Unwrap() error { return e.Err }

// GRPCStatus is INVALID_ARGUMENT with Message as its text, what [status.Code] and
// [status.FromError] see.
func (e *RefusalError) GRPCStatus() *status.Status {
	return status.New(codes.InvalidArgument, e.Message)
}

// Metadata is the refusal as conformance/RPC.md §4's entries: the code, the offset
// (unless it is unknown, −1) and, when not empty, the path.
func (e *RefusalError) Metadata() metadata.MD {
	md := metadata.Pairs(CodeKey, e.Code)
	if e.Offset >= 0 {
		md.Set(OffsetKey, strconv.Itoa(e.Offset))
	}
	if e.Path != "" && printable(e.Path) {
		md.Set(PathKey, e.Path)
	}
	return md
}

// printable: metadata values must be visible ASCII or space.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// FromCall is the refusal a server reported for a call that ended with err, read from
// the call's trailers: a [*RefusalError] with ByServer set when err is INVALID_ARGUMENT
// and trailer holds [CodeKey]; err itself otherwise. Generated clients call it.
func FromCall(err error, trailer metadata.MD) error {
	if err == nil {
		return nil
	}
	var r *RefusalError
	if errors.As(err, &r) {
		return err
	}
	s, ok := status.FromError(err)
	if !ok || s.Code() != codes.InvalidArgument {
		return err
	}
	code := trailer.Get(CodeKey)
	if len(code) == 0 {
		return err
	}
	r = &RefusalError{Code: code[0], Offset: -1, Message: s.Message(), ByServer: true}
	if v := trailer.Get(OffsetKey); len(v) > 0 {
		// Digits only: Atoi would also take a sign.
		if n, err := strconv.Atoi(v[0]); err == nil && v[0][0] >= '0' && v[0][0] <= '9' {
			r.Offset = n
		}
	}
	if v := trailer.Get(PathKey); len(v) > 0 {
		r.Path = v[0]
	}
	return r
}
