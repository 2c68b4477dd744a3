// Command signed is the signed envelope of the repository's examples
// (schemas/examples/signed.proto) in Go: Ed25519 (crypto/ed25519) over
// "bijoubuf-sig-v1:" + full type name + 0x00 + body, the body decoded strictly before the
// signature is checked. Because the encoding is canonical and Ed25519 deterministic, the
// envelope Go signs is byte for byte the one Rust and TypeScript sign.
//
// As a program (used by the cross-language test, conformance/tests/go.rs):
//
//	signed sign <seed hex>                      # signs the demo transfer
//	signed verify <public key hex> <signed hex>
//
// Both print one line of JSON.
package main

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
	"github.com/bijoubuf/bijoubuf/go/examples/internal/gen/ledger"
	"github.com/bijoubuf/bijoubuf/go/examples/internal/gen/signed"
)

// domainPrefix is the scheme's prefix (examples/src/signing.rs).
const domainPrefix = "bijoubuf-sig-v1:"

// SigningInput is the bytes a signature covers: the prefix, the type name, a zero byte
// (type names never hold one, so the name cannot run into the body), then the body.
func SigningInput(typeName string, body []byte) []byte {
	out := make([]byte, 0, len(domainPrefix)+len(typeName)+1+len(body))
	out = append(out, domainPrefix...)
	out = append(out, typeName...)
	out = append(out, 0)
	return append(out, body...)
}

// SignTransfer encodes t canonically, signs it with key and returns the encoded envelope.
func SignTransfer(key ed25519.PrivateKey, t *ledger.Transfer) ([]byte, error) {
	body, err := t.Marshal()
	if err != nil {
		return nil, err
	}
	sig := ed25519.Sign(key, SigningInput(t.FullName(), body))
	return (&signed.SignedMessage{Body: body, Signature: sig}).Marshal()
}

// VerifyError says why a signed message was refused: the decoder's error in the envelope
// or in the body (Part "envelope" or "body"), or a signature that does not match (Part
// "signature", Err nil).
type VerifyError struct {
	Part string
	Err  *bijoubuf.DecodeError
}

func (e *VerifyError) Error() string {
	if e.Err == nil {
		return "bad-signature: the signature does not match the body"
	}
	return e.Part + ": " + e.Err.Error()
}

// Code is the decoder's code, or "bad-signature".
func (e *VerifyError) Code() string {
	if e.Err == nil {
		return "bad-signature"
	}
	return e.Err.Code().String()
}

func refused(part string, err error) error {
	if d, ok := bijoubuf.AsDecodeError(err); ok {
		return &VerifyError{Part: part, Err: d}
	}
	return err
}

// VerifyTransfer decodes the envelope and the body strictly, then checks the signature
// over the body bytes as received.
func VerifyTransfer(public ed25519.PublicKey, envelope []byte) (*ledger.Transfer, error) {
	var env signed.SignedMessage
	if err := env.Unmarshal(envelope); err != nil {
		return nil, refused("envelope", err)
	}
	var t ledger.Transfer
	if err := t.Unmarshal(env.Body); err != nil {
		return nil, refused("body", err)
	}
	if len(public) != ed25519.PublicKeySize || len(env.Signature) != ed25519.SignatureSize ||
		!ed25519.Verify(public, SigningInput(t.FullName(), env.Body), env.Signature) {
		return nil, &VerifyError{Part: "signature"}
	}
	return &t, nil
}

// DemoTransfer is the transfer of the Rust example (examples/src/tamper.rs).
func DemoTransfer() *ledger.Transfer {
	return &ledger.Transfer{
		Payer:  "alice",
		Payee:  "bob",
		Amount: 2500,
		Labels: map[string]string{"project": "roof", "invoice": "2024-117"},
	}
}

func run(args []string) (any, error) {
	switch {
	case len(args) == 2 && args[0] == "sign":
		seed, err := hex.DecodeString(args[1])
		if err != nil || len(seed) != ed25519.SeedSize {
			return nil, errors.New("the seed is 32 bytes of hex")
		}
		b, err := SignTransfer(ed25519.NewKeyFromSeed(seed), DemoTransfer())
		if err != nil {
			return nil, err
		}
		return map[string]string{"signed": hex.EncodeToString(b)}, nil
	case len(args) == 3 && args[0] == "verify":
		public, err1 := hex.DecodeString(args[1])
		envelope, err2 := hex.DecodeString(args[2])
		if err1 != nil || err2 != nil {
			return nil, errors.New("the key and the envelope are hex")
		}
		t, err := VerifyTransfer(public, envelope)
		var v *VerifyError
		switch {
		case err == nil:
			return map[string]any{"ok": true, "payer": t.Payer, "payee": t.Payee,
				"amount": strconv.FormatUint(t.Amount, 10)}, nil
		case errors.As(err, &v) && v.Err == nil:
			return map[string]any{"ok": false, "part": v.Part, "code": v.Code()}, nil
		case errors.As(err, &v):
			return map[string]any{"ok": false, "part": v.Part, "code": v.Code(),
				"offset": v.Err.Offset(), "path": v.Err.Path(), "message": v.Err.Error()}, nil
		}
		return nil, err
	}
	return nil, errors.New("usage: signed sign <seed hex> | verify <public key hex> <signed hex>")
}

func main() {
	out, err := run(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "signed:", err)
		os.Exit(2)
	}
	line, _ := json.Marshal(out)
	fmt.Println(string(line))
}
