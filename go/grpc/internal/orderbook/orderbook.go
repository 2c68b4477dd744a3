// Package orderbook is the order service of the repository's RPC examples in Go: the
// same stateless order book as the Rust example server (examples/src/rpc.rs), so that
// the cross-language tests can expect the same answers from either.
package orderbook

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/bijoubuf/bijoubuf/go/grpc/internal/gen/orders"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// MaxBatch is the most orders one List streams and one Submit or Exchange takes.
const MaxBatch = 1000

// Order is the order numbered id: sku-<id>, quantity id % 7 + 1.
func Order(id uint64) *orders.Order {
	return &orders.Order{Id: id, Sku: "sku-" + strconv.FormatUint(id, 10), Quantity: uint32(id%7) + 1}
}

// Server serves the order book.
type Server struct {
	orders.UnimplementedOrdersServer
}

// Get is order q.Id; order 0 does not exist.
func (Server) Get(_ context.Context, q *orders.OrderQuery) (*orders.Order, error) {
	if q.Id == 0 {
		return nil, status.Error(codes.NotFound, "order 0 does not exist")
	}
	return Order(q.Id), nil
}

// List streams q.Count orders from q.Id on.
func (Server) List(q *orders.OrderQuery, stream grpc.ServerStreamingServer[orders.Order]) error {
	if q.Count > MaxBatch {
		return status.Error(codes.OutOfRange, fmt.Sprintf("at most %d orders per list", MaxBatch))
	}
	for i := uint64(0); i < uint64(q.Count); i++ {
		if err := stream.Send(Order(q.Id + i)); err != nil {
			return err
		}
	}
	return nil
}

// Submit sums a batch up; a refused order ends the call with its refusal.
func (Server) Submit(stream grpc.ClientStreamingServer[orders.Order, orders.Summary]) error {
	var sum orders.Summary
	for {
		o, err := stream.Recv()
		if err == io.EOF {
			return stream.SendAndClose(&sum)
		}
		if err != nil {
			return err
		}
		if sum.Orders == MaxBatch {
			return status.Error(codes.OutOfRange, fmt.Sprintf("at most %d orders per batch", MaxBatch))
		}
		sum.Orders++
		sum.TotalQuantity += uint64(o.Quantity)
	}
}

// Exchange echoes each order with its quantity doubled.
func (Server) Exchange(stream grpc.BidiStreamingServer[orders.Order, orders.Order]) error {
	for n := 0; n < MaxBatch; n++ {
		o, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		q := uint64(o.Quantity) * 2
		if q > 1<<32-1 {
			q = 1<<32 - 1
		}
		o.Quantity = uint32(q)
		if err := stream.Send(o); err != nil {
			return err
		}
	}
	return nil
}
