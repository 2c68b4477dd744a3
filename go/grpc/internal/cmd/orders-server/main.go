// Command orders-server serves the order book (internal/orderbook) on 127.0.0.1 at a
// port the system picks, prints the address on a line of its own, and stops when its
// standard input closes: the Go server the Rust cross-language tests call with tonic.
package main

import (
	"fmt"
	"io"
	"net"
	"os"

	bijoubufgrpc "github.com/bijoubuf/bijoubuf/go/grpc"
	"github.com/bijoubuf/bijoubuf/go/grpc/internal/gen/orders"
	"github.com/bijoubuf/bijoubuf/go/grpc/internal/orderbook"
	"google.golang.org/grpc"
)

func main() {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "orders-server:", err)
		os.Exit(1)
	}
	s := grpc.NewServer(bijoubufgrpc.ServerOption(bijoubufgrpc.Codec{}))
	orders.RegisterOrdersServer(s, orderbook.Server{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		s.Stop()
	}()
	fmt.Println(lis.Addr().String())
	if err := s.Serve(lis); err != nil {
		fmt.Fprintln(os.Stderr, "orders-server:", err)
		os.Exit(1)
	}
}
