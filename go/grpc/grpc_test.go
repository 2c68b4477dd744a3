package bijoubufgrpc_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bijoubuf/bijoubuf/go/bijou64"
	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
	bijoubufgrpc "github.com/bijoubuf/bijoubuf/go/grpc"
	bbtrace "github.com/bijoubuf/bijoubuf/go/grpc/internal/bb/opentelemetry/proto/trace/v1"
	"github.com/bijoubuf/bijoubuf/go/grpc/internal/gen/orders"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
)

// ordersServer implements the order service and counts the calls its methods see.
type ordersServer struct {
	orders.UnimplementedOrdersServer
	calls atomic.Int32
}

func (s *ordersServer) Get(_ context.Context, q *orders.OrderQuery) (*orders.Order, error) {
	s.calls.Add(1)
	return &orders.Order{Id: q.Id, Sku: "sku-" + string(rune('a'+q.Id%26)), Quantity: 2}, nil
}

func (s *ordersServer) List(q *orders.OrderQuery, stream grpc.ServerStreamingServer[orders.Order]) error {
	s.calls.Add(1)
	for i := uint64(0); i < uint64(q.Count); i++ {
		if err := stream.Send(&orders.Order{Id: q.Id + i, Quantity: uint32(i + 1)}); err != nil {
			return err
		}
	}
	return nil
}

func (s *ordersServer) Submit(stream grpc.ClientStreamingServer[orders.Order, orders.Summary]) error {
	s.calls.Add(1)
	var sum orders.Summary
	for {
		o, err := stream.Recv()
		if err == io.EOF {
			return stream.SendAndClose(&sum)
		}
		if err != nil {
			return err
		}
		sum.Orders++
		sum.TotalQuantity += uint64(o.Quantity)
	}
}

func (s *ordersServer) Exchange(stream grpc.BidiStreamingServer[orders.Order, orders.Order]) error {
	s.calls.Add(1)
	for {
		o, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		o.Quantity *= 2
		if err := stream.Send(o); err != nil {
			return err
		}
	}
}

// serve starts s on an in-process listener and returns a connection to it, dialled
// with opts too.
func serve(t testing.TB, s *grpc.Server, opts ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	go func() { _ = s.Serve(lis) }()
	t.Cleanup(s.Stop)
	conn, err := grpc.NewClient("passthrough:///bufnet", append([]grpc.DialOption{
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials())}, opts...)...)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// ordersService is a server with the order service and the health service (protobuf),
// made as the package's documentation says.
func ordersService(t *testing.T) (*ordersServer, *grpc.ClientConn) {
	t.Helper()
	impl := &ordersServer{}
	s := grpc.NewServer(bijoubufgrpc.ServerOption(bijoubufgrpc.Codec{}))
	orders.RegisterOrdersServer(s, impl)
	healthpb.RegisterHealthServer(s, health.NewServer())
	return impl, serve(t, s)
}

// rawCodec sends and receives payloads as they are: *[]byte both ways. Its name is
// empty, so a client using it sends "application/grpc" with no subtype, as tonic does.
type rawCodec struct{ name string }

func (c rawCodec) Name() string { return c.name }

func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(*v.(*[]byte))}, nil
}

func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	*v.(*[]byte) = data.Materialize()
	return nil
}

// rawCall calls method with payload as the request's whole payload, as a peer with
// its own codec does; it returns the response payload, the error and the trailers.
func rawCall(conn *grpc.ClientConn, method string, payload []byte) ([]byte, error, metadata.MD) {
	var out []byte
	var trailer metadata.MD
	err := conn.Invoke(context.Background(), method, &payload, &out,
		grpc.ForceCodecV2(rawCodec{}), grpc.Trailer(&trailer))
	return out, err, trailer
}

func TestUnaryAndServerStreamingCallsRoundTrip(t *testing.T) {
	_, conn := ordersService(t)
	client := orders.NewOrdersClient(conn)
	ctx := context.Background()

	got, err := client.Get(ctx, &orders.OrderQuery{Id: 3})
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if got.Id != 3 || got.Sku != "sku-d" || got.Quantity != 2 {
		t.Fatalf("Get = %+v", got)
	}

	stream, err := client.List(ctx, &orders.OrderQuery{Id: 10, Count: 3})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	var ids []uint64
	for {
		o, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("List Recv: %v", err)
		}
		ids = append(ids, o.Id)
	}
	if len(ids) != 3 || ids[0] != 10 || ids[2] != 12 {
		t.Fatalf("List ids = %v", ids)
	}
}

func TestClientAndBidiStreamingCallsRoundTrip(t *testing.T) {
	_, conn := ordersService(t)
	client := orders.NewOrdersClient(conn)
	ctx := context.Background()

	submit, err := client.Submit(ctx)
	if err != nil {
		t.Fatalf("Submit: %v", err)
	}
	for _, q := range []uint32{1, 2, 4} {
		if err := submit.Send(&orders.Order{Id: 1, Quantity: q}); err != nil {
			t.Fatalf("Submit Send: %v", err)
		}
	}
	sum, err := submit.CloseAndRecv()
	if err != nil {
		t.Fatalf("Submit CloseAndRecv: %v", err)
	}
	if sum.Orders != 3 || sum.TotalQuantity != 7 {
		t.Fatalf("Submit = %+v", sum)
	}

	ex, err := client.Exchange(ctx)
	if err != nil {
		t.Fatalf("Exchange: %v", err)
	}
	if err := ex.Send(&orders.Order{Id: 5, Quantity: 21}); err != nil {
		t.Fatalf("Exchange Send: %v", err)
	}
	o, err := ex.Recv()
	if err != nil || o.Quantity != 42 {
		t.Fatalf("Exchange Recv = %+v, %v", o, err)
	}
	if err := ex.CloseSend(); err != nil {
		t.Fatalf("Exchange CloseSend: %v", err)
	}
	if _, err := ex.Recv(); err != io.EOF {
		t.Fatalf("Exchange end = %v, want io.EOF", err)
	}
}

func TestAProtobufServiceOnTheSameServerStillWorks(t *testing.T) {
	_, conn := ordersService(t)
	resp, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatalf("health Check: %v", err)
	}
	if resp.Status != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health status = %v", resp.Status)
	}
}

// peer is a server that records each request payload and the content-type it came
// with, and answers with a fixed payload: what a client sends and how it takes a
// response, byte for byte.
type peer struct {
	mu          sync.Mutex
	requests    [][]byte
	contentType []string
	answer      []byte
}

func (p *peer) handle(_ any, stream grpc.ServerStream) error {
	var in []byte
	if err := stream.RecvMsg(&in); err != nil {
		return err
	}
	md, _ := metadata.FromIncomingContext(stream.Context())
	p.mu.Lock()
	p.requests = append(p.requests, in)
	p.contentType = append(p.contentType, md.Get("content-type")...)
	answer := p.answer
	p.mu.Unlock()
	return stream.SendMsg(&answer)
}

func rawPeer(t *testing.T, answer []byte) (*peer, orders.OrdersClient) {
	t.Helper()
	p := &peer{answer: answer}
	s := grpc.NewServer(grpc.ForceServerCodecV2(rawCodec{name: "raw"}), grpc.UnknownServiceHandler(p.handle))
	return p, orders.NewOrdersClient(serve(t, s))
}

func TestTheRequestFrameIsTheMarkerThenTheCanonicalBytes(t *testing.T) {
	// conformance/RPC.md §2's worked example: OrderQuery { id: 3 } is 01 00 03.
	answer := append([]byte{bijoubufgrpc.Marker}, must((&orders.Order{Id: 3, Sku: "x"}).Marshal())...)
	p, client := rawPeer(t, answer)
	got, err := client.Get(context.Background(), &orders.OrderQuery{Id: 3})
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if got.Id != 3 || got.Sku != "x" {
		t.Fatalf("Get = %+v", got)
	}
	if want := []byte{0x01, 0x00, 0x03}; len(p.requests) != 1 || !bytes.Equal(p.requests[0], want) {
		t.Fatalf("request payloads = % x, want % x", p.requests, want)
	}
	canonical := must((&orders.OrderQuery{Id: 7, Count: 2}).Marshal())
	if _, err := client.List(context.Background(), &orders.OrderQuery{Id: 7, Count: 2}); err != nil {
		t.Fatalf("List: %v", err)
	}
	// The stream's request is sent when the call starts; wait for the peer to see it.
	waitFor(t, func() bool { p.mu.Lock(); defer p.mu.Unlock(); return len(p.requests) == 2 })
	if want := append([]byte{0x01}, canonical...); !bytes.Equal(p.requests[1], want) {
		t.Fatalf("List request payload = % x, want % x", p.requests[1], want)
	}
	for _, ct := range p.contentType {
		if ct != "application/grpc+bijoubuf" {
			t.Fatalf("content-type = %q", ct)
		}
	}
}

func TestProtobufBytesAreRefusedNeverMisread(t *testing.T) {
	impl, conn := ordersService(t)
	// protobuf's OrderQuery { id: 3 }: 08 03 (in bijoubuf, a record of another field).
	_, err, trailer := rawCall(conn, orders.Orders_Get_FullMethodName, []byte{0x08, 0x03})
	st := status.Convert(err)
	if st.Code() != codes.InvalidArgument {
		t.Fatalf("status = %v, want InvalidArgument", st)
	}
	const text = "missing-marker: a OrderQuery message must start with the bijoubuf marker 0x01, not 0x08 at byte 0 (protobuf bytes are refused, never read as bijoubuf)"
	if st.Message() != text {
		t.Fatalf("message = %q", st.Message())
	}
	wantEntries(t, trailer, "missing-marker", "0", "")
	// An empty payload (protobuf's empty message) is refused the same way.
	_, err, trailer = rawCall(conn, orders.Orders_Get_FullMethodName, nil)
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("empty: %v", err)
	}
	wantEntries(t, trailer, "missing-marker", "0", "")
	if n := impl.calls.Load(); n != 0 {
		t.Fatalf("the handler ran %d times", n)
	}
}

func TestACallWithoutAContentSubtypeIsServed(t *testing.T) {
	// tonic sends "application/grpc" whatever its codec: the forced codec serves it.
	_, conn := ordersService(t)
	out, err, _ := rawCall(conn, orders.Orders_Get_FullMethodName, []byte{0x01, 0x00, 0x03})
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	want := append([]byte{0x01}, must((&orders.Order{Id: 3, Sku: "sku-d", Quantity: 2}).Marshal())...)
	if !bytes.Equal(out, want) {
		t.Fatalf("response payload = % x, want % x", out, want)
	}
}

func TestANonCanonicalRequestIsRefusedWithItsCodeOffsetAndPath(t *testing.T) {
	impl, conn := ordersService(t)
	// OrderQuery { count: 2^32 }: field 2 holds a value past uint32.
	key := must((&orders.OrderQuery{Count: 1}).Marshal())[0]
	payload := bijou64.Append([]byte{bijoubufgrpc.Marker, key}, 1<<32)
	_, err, trailer := rawCall(conn, orders.Orders_Get_FullMethodName, payload)
	st := status.Convert(err)
	if st.Code() != codes.InvalidArgument {
		t.Fatalf("status = %v", st)
	}
	// The offset is the one a decode of the message bytes alone reports.
	derr, ok := bijoubuf.AsDecodeError((&orders.OrderQuery{}).Unmarshal(payload[1:]))
	if !ok || derr.Code() != bijoubuf.IntegerOutOfRange || derr.Offset() != 1 {
		t.Fatalf("local decode: %v", derr)
	}
	if st.Message() != derr.Error() {
		t.Fatalf("message = %q, want %q", st.Message(), derr.Error())
	}
	wantEntries(t, trailer, "integer-out-of-range", "1", "OrderQuery.count")

	// A default written out: 01, then field 1 holding 0.
	_, err, trailer = rawCall(conn, orders.Orders_Get_FullMethodName, []byte{0x01, 0x00, 0x00})
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("default: %v", err)
	}
	wantEntries(t, trailer, "default-value-present", "0", "OrderQuery.id")
	if n := impl.calls.Load(); n != 0 {
		t.Fatalf("the handler ran %d times", n)
	}
}

func TestAStreamedRequestIsRefusedWithItsEntries(t *testing.T) {
	_, conn := ordersService(t)
	// Submit reads each order with Recv, which refuses a protobuf one; the method
	// returns the error, and the call ends with the refusal's entries.
	desc := &grpc.StreamDesc{ClientStreams: true}
	stream, err := conn.NewStream(context.Background(), desc, orders.Orders_Submit_FullMethodName, grpc.ForceCodecV2(rawCodec{}))
	if err != nil {
		t.Fatalf("NewStream: %v", err)
	}
	payload := []byte{0x18, 0x01}
	if err := stream.SendMsg(&payload); err != nil {
		t.Fatalf("SendMsg: %v", err)
	}
	_ = stream.CloseSend()
	var out []byte
	err = stream.RecvMsg(&out)
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("status = %v", err)
	}
	wantEntries(t, stream.Trailer(), "missing-marker", "0", "")
}

func TestAGeneratedClientSeesTheServersRefusal(t *testing.T) {
	// A request the server's limits refuse: this server takes messages of 2 bytes
	// at most.
	s := grpc.NewServer(bijoubufgrpc.ServerOption(bijoubufgrpc.Codec{
		DecodeOptions: bijoubuf.DecodeOptions{}.WithMaxSize(2),
	}))
	impl := &ordersServer{}
	orders.RegisterOrdersServer(s, impl)
	client := orders.NewOrdersClient(serve(t, s))
	_, err := client.Get(context.Background(), &orders.OrderQuery{Id: 3, Count: 1})
	var r *bijoubufgrpc.RefusalError
	if !errors.As(err, &r) || !r.ByServer || r.Code != "size-limit-exceeded" {
		t.Fatalf("err = %#v", err)
	}
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("status = %v", status.Code(err))
	}
	if impl.calls.Load() != 0 {
		t.Fatal("the handler ran")
	}
}

func TestAClientRefusesABadResponse(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer []byte
		code   string
		offset int
		path   string
		decode bool
	}{
		{"protobuf", []byte{0x08, 0x03}, "missing-marker", 0, "", false},
		{"default written out", []byte{0x01, 0x00, 0x00}, "default-value-present", 0, "Order.id", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, client := rawPeer(t, tc.answer)
			_, err := client.Get(context.Background(), &orders.OrderQuery{Id: 3})
			var r *bijoubufgrpc.RefusalError
			if !errors.As(err, &r) {
				t.Fatalf("err = %#v, want a *RefusalError", err)
			}
			if r.ByServer || r.Code != tc.code || r.Offset != tc.offset || r.Path != tc.path {
				t.Fatalf("refusal = %+v", r)
			}
			if status.Code(err) != codes.InvalidArgument {
				t.Fatalf("status = %v", status.Code(err))
			}
			_, isDecode := bijoubuf.AsDecodeError(err)
			if isDecode != tc.decode {
				t.Fatalf("errors.As *bijoubuf.DecodeError = %v", isDecode)
			}

			stream, err := client.List(context.Background(), &orders.OrderQuery{Id: 3, Count: 1})
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			_, err = stream.Recv()
			if !errors.As(err, &r) || r.ByServer || r.Code != tc.code {
				t.Fatalf("List Recv err = %#v", err)
			}
		})
	}
}

func TestAPayloadWithoutTheMarkerIsRefusedByTheCodec(t *testing.T) {
	for _, tc := range []struct {
		payload []byte
		text    string
	}{
		{nil, "missing-marker: a OrderQuery message must start with the bijoubuf marker 0x01, and the message is empty"},
		{[]byte{0x02, 0x00}, "missing-marker: a OrderQuery message must start with the bijoubuf marker 0x01, not 0x02 at byte 0"},
	} {
		err := bijoubufgrpc.DecodePayload(tc.payload, &orders.OrderQuery{}, bijoubuf.DecodeOptions{})
		if err == nil || err.Error() != tc.text {
			t.Fatalf("% x: %v", tc.payload, err)
		}
	}
	var q orders.OrderQuery
	if err := bijoubufgrpc.DecodePayload([]byte{0x01, 0x00, 0x03}, &q, bijoubuf.DecodeOptions{}); err != nil || q.Id != 3 {
		t.Fatalf("decode: %v %+v", err, &q)
	}
}

func wantEntries(t *testing.T, md metadata.MD, code, offset, path string) {
	t.Helper()
	get := func(k string) string {
		if v := md.Get(k); len(v) > 0 {
			return v[0]
		}
		return ""
	}
	if get(bijoubufgrpc.CodeKey) != code || get(bijoubufgrpc.OffsetKey) != offset || get(bijoubufgrpc.PathKey) != path {
		t.Fatalf("trailers = %v, want code %q offset %q path %q", md, code, offset, path)
	}
	if path == "" && len(md.Get(bijoubufgrpc.PathKey)) != 0 {
		t.Fatalf("an empty path is sent: %v", md)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("timed out")
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func TestAServerWithoutTheOptionStillRefusesProtobufBytes(t *testing.T) {
	// A plain grpc.NewServer(): a call with no content-subtype (tonic's, or a protobuf
	// client's) goes to the "proto" codec, which this package wraps.
	impl := &ordersServer{}
	s := grpc.NewServer()
	orders.RegisterOrdersServer(s, impl)
	healthpb.RegisterHealthServer(s, health.NewServer())
	conn := serve(t, s)
	_, err, trailer := rawCall(conn, orders.Orders_Get_FullMethodName, []byte{0x08, 0x03})
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("status = %v, want InvalidArgument", err)
	}
	wantEntries(t, trailer, "missing-marker", "0", "")
	if n := impl.calls.Load(); n != 0 {
		t.Fatalf("the handler ran %d times", n)
	}
	out, err, _ := rawCall(conn, orders.Orders_Get_FullMethodName, []byte{0x01, 0x00, 0x03})
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	want := append([]byte{0x01}, must((&orders.Order{Id: 3, Sku: "sku-d", Quantity: 2}).Marshal())...)
	if !bytes.Equal(out, want) {
		t.Fatalf("response payload = % x, want % x", out, want)
	}
	// Protobuf values still go to protobuf's codec.
	resp, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health: %v %v", resp, err)
	}
}

// recvServer's Exchange records what Recv returned and ends as told.
type recvServer struct {
	orders.UnimplementedOrdersServer
	mu      sync.Mutex
	refusal *bijoubufgrpc.RefusalError
	own     error
}

func (s *recvServer) Exchange(stream grpc.BidiStreamingServer[orders.Order, orders.Order]) error {
	_, err := stream.Recv()
	var r *bijoubufgrpc.RefusalError
	errors.As(err, &r)
	s.mu.Lock()
	s.refusal = r
	own := s.own
	s.mu.Unlock()
	if own != nil {
		return own
	}
	return err
}

func TestAStreamedRefusalReachesTheMethodAndOnlyItsOwnEndCarriesTheEntries(t *testing.T) {
	send := func(t *testing.T, own error) (*recvServer, error, metadata.MD) {
		impl := &recvServer{own: own}
		s := grpc.NewServer(bijoubufgrpc.ServerOption(bijoubufgrpc.Codec{}))
		orders.RegisterOrdersServer(s, impl)
		conn := serve(t, s)
		desc := &grpc.StreamDesc{ClientStreams: true, ServerStreams: true}
		stream, err := conn.NewStream(context.Background(), desc, orders.Orders_Exchange_FullMethodName, grpc.ForceCodecV2(rawCodec{}))
		if err != nil {
			t.Fatalf("NewStream: %v", err)
		}
		payload := []byte{0x01, 0x00, 0x00} // Order.id holding its default
		if err := stream.SendMsg(&payload); err != nil {
			t.Fatalf("SendMsg: %v", err)
		}
		_ = stream.CloseSend()
		var out []byte
		err = stream.RecvMsg(&out)
		return impl, err, stream.Trailer()
	}
	// The method sees the *RefusalError (code, offset, path) and ends the call with it.
	impl, err, trailer := send(t, nil)
	if impl.refusal == nil || impl.refusal.Code != "default-value-present" || impl.refusal.Path != "Order.id" {
		t.Fatalf("the method saw %+v", impl.refusal)
	}
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("status = %v", err)
	}
	wantEntries(t, trailer, "default-value-present", "0", "Order.id")
	// A method that ends with its own error after the refusal: no refusal entries.
	impl, err, trailer = send(t, status.Error(codes.FailedPrecondition, "my own"))
	if impl.refusal == nil {
		t.Fatal("the method saw no refusal")
	}
	if status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("status = %v", err)
	}
	if v := trailer.Get(bijoubufgrpc.CodeKey); len(v) != 0 {
		t.Fatalf("trailers carry %s = %v", bijoubufgrpc.CodeKey, v)
	}
}

// streamPeer answers a streaming call with answer and then waits for the call to end.
type streamPeer struct {
	answer []byte
	ended  chan error
}

func (p *streamPeer) handle(_ any, stream grpc.ServerStream) error {
	var in []byte
	if err := stream.RecvMsg(&in); err != nil {
		return err
	}
	if err := stream.SendMsg(&p.answer); err != nil {
		return err
	}
	<-stream.Context().Done()
	p.ended <- stream.Context().Err()
	return nil
}

func TestAResponseRefusedOnAStreamEndsTheCall(t *testing.T) {
	p := &streamPeer{answer: []byte{0x08, 0x03}, ended: make(chan error, 1)}
	s := grpc.NewServer(grpc.ForceServerCodecV2(rawCodec{name: "raw"}), grpc.UnknownServiceHandler(p.handle))
	client := orders.NewOrdersClient(serve(t, s))
	stream, err := client.List(context.Background(), &orders.OrderQuery{Id: 3, Count: 5})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	var r *bijoubufgrpc.RefusalError
	if _, err := stream.Recv(); !errors.As(err, &r) || r.Code != "missing-marker" {
		t.Fatalf("Recv err = %v", err)
	}
	select {
	case err := <-p.ended:
		if err == nil {
			t.Fatal("the server's call ended without an error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server's call is still open 10 s after the client refused its response")
	}
}

// TestFromCallReadsOnlyAWellFormedOffset: a server's trailers without an offset, or with
// one that is not a non-negative decimal, give −1 (unknown), never a made-up 0; and a
// refusal of unknown offset is written back without the offset entry.
func TestFromCallReadsOnlyAWellFormedOffset(t *testing.T) {
	call := status.Error(codes.InvalidArgument, "default-value-present: OrderQuery.id holds its default at byte 0")
	for _, tc := range []struct {
		offset []string
		want   int
	}{
		{nil, -1},
		{[]string{"7"}, 7},
		{[]string{"0"}, 0},
		{[]string{""}, -1},
		{[]string{"x"}, -1},
		{[]string{"-3"}, -1},
		{[]string{"+3"}, -1},
		{[]string{"99999999999999999999999"}, -1},
	} {
		md := metadata.Pairs(bijoubufgrpc.CodeKey, "default-value-present")
		if tc.offset != nil {
			md.Set(bijoubufgrpc.OffsetKey, tc.offset...)
		}
		var r *bijoubufgrpc.RefusalError
		if !errors.As(bijoubufgrpc.FromCall(call, md), &r) {
			t.Fatalf("offset %q: not a refusal", tc.offset)
		}
		if r.Offset != tc.want || !r.ByServer || r.Code != "default-value-present" {
			t.Fatalf("offset %q: got %+v, want offset %d", tc.offset, r, tc.want)
		}
		_, has := r.Metadata()[bijoubufgrpc.OffsetKey]
		if has != (tc.want >= 0) {
			t.Fatalf("offset %q: metadata %v", tc.offset, r.Metadata())
		}
	}
}

// TestMarshalAllocatesOnlyTheEncodingAndItsSlice: sending a small message costs the
// payload (the marker and the encoding in one buffer), its boxing as a buffer and the
// slice, as grpc-go's own proto codec costs three. And every payload starts with the
// marker.
func TestMarshalAllocatesOnlyTheEncodingAndItsSlice(t *testing.T) {
	c := bijoubufgrpc.Codec{}
	q := &orders.OrderQuery{Id: 3}
	allocs := testing.AllocsPerRun(100, func() {
		bs, err := c.Marshal(q)
		if err != nil {
			t.Fatal(err)
		}
		bs.Free()
	})
	if allocs > 3 {
		t.Fatalf("Marshal allocates %v times per message, want at most 3", allocs)
	}
	for range 2 {
		bs, err := c.Marshal(q)
		if err != nil {
			t.Fatal(err)
		}
		if got := bs.Materialize(); !bytes.Equal(got, []byte{bijoubufgrpc.Marker, 0x00, 0x03}) {
			t.Fatalf("payload % x", got)
		}
		bs.Free()
	}
}

// marshalChecked is c's payload of m, failing t unless it is the marker and m's own
// Marshal's bytes.
func marshalChecked(t *testing.T, c bijoubufgrpc.Codec, m bijoubuf.Message) mem.BufferSlice {
	t.Helper()
	want, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	bs, err := c.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if got := bs.Materialize(); got[0] != bijoubufgrpc.Marker || !bytes.Equal(got[1:], want) {
		t.Fatalf("%T: payload % x, want the marker and % x", m, got, want)
	}
	return bs
}

// TestMarshalWritesLargeMessagesIntoPooledBuffers: a payload over grpc-go's pooling
// threshold is written into a buffer of its default pool, which Free gives back, so
// that sending costs the slice alone, and is exactly the marker and the message's
// encoding. Each payload here usually lands in the buffer the one before it filled
// (sync.Pool promises nothing; TestWriteIntoAnyBuffer in go/internal/schemas/conformance
// writes over old bytes deterministically). A message that cannot be encoded is refused
// as before.
func TestMarshalWritesLargeMessagesIntoPooledBuffers(t *testing.T) {
	c := bijoubufgrpc.Codec{}
	// Notes of decreasing length, so that each payload lands in a buffer a longer one
	// filled before it (the pool keeps buffers by capacity tier).
	for i, size := range []int{3000, 2999, 2048, 1500, 1030} {
		o := &orders.Order{Id: uint64(1000 + i), Sku: "sku-7", Quantity: uint32(i + 1),
			Note: string(bytes.Repeat([]byte{byte('a' + i)}, size))}
		bs := marshalChecked(t, c, o)
		if len(bs) != 1 || mem.IsBelowBufferPoolingThreshold(bs.Len()) {
			t.Fatalf("%d-byte note: %d buffers, %d bytes", size, len(bs), bs.Len())
		}
		bs.Free()
	}
	big := &orders.Order{Id: 9, Note: string(bytes.Repeat([]byte("xyz"), 1000))}
	if raceEnabled {
		t.Log("allocation counts under -race are not the program's")
	} else if allocs := testing.AllocsPerRun(100, func() {
		bs, err := c.Marshal(big)
		if err != nil {
			t.Fatal(err)
		}
		bs.Free()
	}); allocs > 1 {
		t.Fatalf("Marshal of a 3 KB message allocates %v times, want at most 1 (the slice)", allocs)
	}
	bad := &orders.Order{Id: 9, Note: string(bytes.Repeat([]byte("xyz"), 1000)) + "\xff"}
	if _, err := c.Marshal(bad); err == nil {
		t.Fatal("a 3 KB note that is not UTF-8 was encoded")
	} else if e := (*bijoubuf.EncodeError)(nil); !errors.As(err, &e) || e.Code() != bijoubuf.EncodeInvalidUTF8 {
		t.Fatalf("a 3 KB note that is not UTF-8: %v", err)
	}
}

// handWritten is a bijoubuf.Message that is not generated code: it has no passes
// (bijoubuf.Sizer), only the Message methods, here forwarded to an order.
type handWritten struct{ o orders.Order }

func (h *handWritten) BijoubufDesc() *bijoubuf.MessageDesc { return h.o.BijoubufDesc() }
func (h *handWritten) Marshal() ([]byte, error)            { return h.o.Marshal() }
func (h *handWritten) MarshalOptions(opts bijoubuf.EncodeOptions) ([]byte, error) {
	return h.o.MarshalOptions(opts)
}
func (h *handWritten) Unmarshal(buf []byte) error { return h.o.Unmarshal(buf) }
func (h *handWritten) UnmarshalOptions(buf []byte, opts bijoubuf.DecodeOptions) error {
	return h.o.UnmarshalOptions(buf, opts)
}
func (h *handWritten) BijoubufUnmarshal(buf []byte, opts bijoubuf.DecodeOptions) (int, error) {
	return h.o.BijoubufUnmarshal(buf, opts)
}
func (h *handWritten) BijoubufUnknown() []bijoubuf.UnknownRecord { return h.o.BijoubufUnknown() }

// TestMarshalOfAMessageWithoutPasses: a bijoubuf.Message that is not generated code is
// sent as the marker and its own Marshal's bytes, small or large, and its refusal is
// the codec's.
func TestMarshalOfAMessageWithoutPasses(t *testing.T) {
	c := bijoubufgrpc.Codec{}
	for _, note := range []string{"small", strings.Repeat("n", 2000)} {
		h := &handWritten{orders.Order{Id: 5, Note: note}}
		if _, ok := any(h).(bijoubuf.Sizer); ok {
			t.Fatal("handWritten has the passes")
		}
		marshalChecked(t, c, h).Free()
	}
	h := &handWritten{orders.Order{Note: "\xff"}}
	if _, err := c.Marshal(h); err == nil || !strings.Contains(err.Error(), "Order message could not be encoded") {
		t.Fatalf("a note that is not UTF-8: %v", err)
	}
}

// TestAGeneratedCallAllocatesAsPinned: the bijoubuf peer's calls over grpc-go (client,
// server and transport in one process) allocate no more than they do now. The received
// payload is decoded straight from grpc-go's buffer through a Frame that a unary
// handler takes from a pool and a stream holds for all its messages, without a copy of
// the payload; the unary client's Frame, trailers and call options are one allocation.
// Before, every received message cost a Frame and a copy of its payload, and a unary
// call its trailers, call options and the error check of its decode: 159 for Get,
// 1,658 for a List of 100, where protobuf-go's peer makes 152 and 1,529
// (benches/RESULTS-rpc.md). The numbers are grpc-go v1.85.0's.
func TestAGeneratedCallAllocatesAsPinned(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts under -race are not the program's")
	}
	s := grpc.NewServer(bijoubufgrpc.ServerOption(bijoubufgrpc.Codec{}))
	orders.RegisterOrdersServer(s, bbOrders{})
	client := orders.NewOrdersClient(serve(t, s))
	ctx := context.Background()
	var i uint64
	get := func() error {
		i++
		o, err := client.Get(ctx, &orders.OrderQuery{Id: i%benchVariants + 1})
		if err == nil && o.Sku == "" {
			t.Fatalf("Get %d answered %+v", i, o)
		}
		return err
	}
	list := func() error {
		i++
		stream, err := client.List(ctx, &orders.OrderQuery{Id: i % benchVariants * 1000, Count: listCount})
		if err != nil {
			return err
		}
		for {
			if _, err := stream.Recv(); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
		}
	}
	for _, tc := range []struct {
		name string
		call func() error
		runs int
		want float64
	}{
		{"unary Get", get, 200, 152},
		{"List of 100", list, 20, 1454},
	} {
		// The fewest of five measurements: AllocsPerRun counts every goroutine's
		// allocations, and another test's connection closing in the background can
		// add some to one measurement (a List of 100 read 1,455 once in a run of the
		// whole package), never take any away.
		var err error
		allocs := math.Inf(1)
		for range 5 {
			allocs = min(allocs, testing.AllocsPerRun(tc.runs, func() {
				if e := tc.call(); e != nil {
					err = e
				}
			}))
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if allocs > tc.want {
			t.Errorf("a %s allocates %v times per call, want at most %v", tc.name, allocs, tc.want)
		}
	}
}

// TestADecodedMessageKeepsNothingOfGrpcGosBuffer: the codec decodes from the buffers
// grpc-go frees (and reuses) when Unmarshal returns, so the message's strings and bytes
// must be copies: overwriting the received bytes afterwards leaves it as it was, when
// the payload came in one buffer (read in place) and in several (copied into a pooled
// buffer, given back).
func TestADecodedMessageKeepsNothingOfGrpcGosBuffer(t *testing.T) {
	want := &bbtrace.Span{
		TraceId: bytes.Repeat([]byte{0x5a}, 16), SpanId: bytes.Repeat([]byte{0xa5}, 8),
		Name: "checkout", TraceState: "vendor=on",
	}
	body := must(want.Marshal())
	payload := append([]byte{bijoubufgrpc.Marker}, body...)
	half := len(payload) / 2
	for _, tc := range []struct {
		name  string
		parts [][]byte
	}{
		{"one buffer", [][]byte{bytes.Clone(payload)}},
		{"two buffers", [][]byte{bytes.Clone(payload[:half]), bytes.Clone(payload[half:])}},
	} {
		data := make(mem.BufferSlice, 0, len(tc.parts))
		for _, p := range tc.parts {
			data = append(data, mem.SliceBuffer(p))
		}
		got := new(bbtrace.Span)
		if err := (bijoubufgrpc.Codec{}).Unmarshal(data, got); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, p := range tc.parts {
			for k := range p {
				p[k] = 0xff
			}
		}
		// The pooled copy of a payload in several buffers went back to the pool: take
		// buffers of its size and overwrite them too.
		pool := mem.DefaultBufferPool()
		for range 4 {
			b := pool.Get(len(payload))
			for k := range *b {
				(*b)[k] = 0xff
			}
			defer pool.Put(b)
		}
		if !bytes.Equal(must(got.Marshal()), body) {
			t.Fatalf("%s: decoded %+v, which changed with the received bytes", tc.name, got)
		}
	}
}

// zeroConn is a ClientConnInterface whose unary calls succeed without receiving a
// response, as no grpc-go connection does.
type zeroConn struct{ grpc.ClientConnInterface }

func (zeroConn) Invoke(context.Context, string, any, any, ...grpc.CallOption) error { return nil }

// TestAResponseNoCodecDecodedIsMissingItsMarker: a unary call whose connection reports
// success without the codec having decoded a response refuses it as an empty payload,
// missing its marker, rather than answering an empty message.
func TestAResponseNoCodecDecodedIsMissingItsMarker(t *testing.T) {
	_, err := orders.NewOrdersClient(zeroConn{}).Get(context.Background(), &orders.OrderQuery{Id: 3})
	var r *bijoubufgrpc.RefusalError
	if !errors.As(err, &r) || r.Code != bijoubufgrpc.MissingMarker || r.ByServer {
		t.Fatalf("err = %#v, want this client's missing-marker refusal", err)
	}
}
