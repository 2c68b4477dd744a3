package bijoubufgrpc_test

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"

	bijoubufgrpc "github.com/bijoubuf/bijoubuf/go/grpc"
	"github.com/bijoubuf/bijoubuf/go/grpc/internal/gen/orders"
	"github.com/bijoubuf/bijoubuf/go/grpc/internal/orderbook"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// TestAgainstATonicServer calls the Rust example server (tonic, bijoubuf-tonic) at
// BIJOUBUF_TONIC_ADDR with the generated Go client; examples/tests/rpc_go.rs starts the
// server and runs it. Skipped without the variable.
func TestAgainstATonicServer(t *testing.T) {
	addr := os.Getenv("BIJOUBUF_TONIC_ADDR")
	if addr == "" {
		t.Skip("BIJOUBUF_TONIC_ADDR is not set: run by examples/tests/rpc_go.rs")
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer conn.Close()
	client := orders.NewOrdersClient(conn)
	ctx := context.Background()

	// Every call shape, against the same order book as orderbook's.
	got, err := client.Get(ctx, &orders.OrderQuery{Id: 9})
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if want := orderbook.Order(9); got.Id != want.Id || got.Sku != want.Sku || got.Quantity != want.Quantity {
		t.Fatalf("Get = %+v", got)
	}
	if _, err := client.Get(ctx, &orders.OrderQuery{}); status.Code(err) != codes.NotFound {
		t.Fatalf("Get(0) = %v, want NotFound", err)
	}
	list, err := client.List(ctx, &orders.OrderQuery{Id: 100, Count: 5})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	for want := uint64(100); ; want++ {
		o, err := list.Recv()
		if err == io.EOF {
			if want != 105 {
				t.Fatalf("List ended at %d", want)
			}
			break
		}
		if err != nil || o.Id != want || o.Sku != orderbook.Order(want).Sku {
			t.Fatalf("List = %+v, %v", o, err)
		}
	}
	submit, err := client.Submit(ctx)
	if err != nil {
		t.Fatalf("Submit: %v", err)
	}
	var total uint64
	for id := uint64(1); id <= 10; id++ {
		total += uint64(orderbook.Order(id).Quantity)
		if err := submit.Send(orderbook.Order(id)); err != nil {
			t.Fatalf("Submit Send: %v", err)
		}
	}
	sum, err := submit.CloseAndRecv()
	if err != nil || sum.Orders != 10 || sum.TotalQuantity != total {
		t.Fatalf("Submit = %+v, %v", sum, err)
	}
	ex, err := client.Exchange(ctx)
	if err != nil {
		t.Fatalf("Exchange: %v", err)
	}
	if err := ex.Send(&orders.Order{Id: 1, Quantity: 21}); err != nil {
		t.Fatalf("Exchange Send: %v", err)
	}
	if o, err := ex.Recv(); err != nil || o.Quantity != 42 {
		t.Fatalf("Exchange = %+v, %v", o, err)
	}
	_ = ex.CloseSend()
	if _, err := ex.Recv(); err != io.EOF {
		t.Fatalf("Exchange end = %v", err)
	}

	// tonic's refusals, read from its trailers: protobuf bytes, and a default written
	// out, sent as a peer with its own codec would.
	for _, tc := range []struct {
		payload      []byte
		code, offset string
		path         string
	}{
		{[]byte{0x08, 0x01}, "missing-marker", "0", ""},
		{[]byte{0x01, 0x00, 0x00}, "default-value-present", "0", "OrderQuery.id"},
	} {
		_, err, trailer := rawCall(conn, orders.Orders_Get_FullMethodName, tc.payload)
		if status.Code(err) != codes.InvalidArgument {
			t.Fatalf("% x: %v", tc.payload, err)
		}
		wantEntries(t, trailer, tc.code, tc.offset, tc.path)
		var r *bijoubufgrpc.RefusalError
		if !errors.As(bijoubufgrpc.FromCall(err, trailer), &r) || !r.ByServer || r.Code != tc.code || r.Path != tc.path {
			t.Fatalf("% x: refusal %+v", tc.payload, r)
		}
	}
}
