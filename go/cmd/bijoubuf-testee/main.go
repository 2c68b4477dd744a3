// Command bijoubuf-testee is the Go implementation's conformance testee: it answers the
// testee protocol (conformance/README.md) on stdin and stdout for the message types of
// conformance/schemas, generated into this module.
//
//	BIJOUBUF_TESTEE="/path/to/bijoubuf-testee" cargo test -p bijoubuf-conformance --test vectors
package main

import (
	"bufio"
	"fmt"
	"os"

	// The message types the testee knows, registered by their packages' init.
	_ "github.com/bijoubuf/bijoubuf/go/internal/schemas/conformance"
	_ "github.com/bijoubuf/bijoubuf/go/internal/schemas/evolution/v1"
	_ "github.com/bijoubuf/bijoubuf/go/internal/schemas/evolution/v2"
	"github.com/bijoubuf/bijoubuf/go/internal/testee"
	_ "github.com/bijoubuf/bijoubuf/go/wkt"
)

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	if err := testee.Serve(in, out); err != nil {
		fmt.Fprintln(os.Stderr, "bijoubuf-testee:", err)
		os.Exit(1)
	}
}
