package main

import (
	"crypto/ed25519"
	"errors"
	"testing"
)

func TestSignedTransferVerifiesAndTamperingIsRefused(t *testing.T) {
	key := ed25519.NewKeyFromSeed([]byte("bijoubuf example key: not secret"))
	public := key.Public().(ed25519.PublicKey)
	env, err := SignTransfer(key, DemoTransfer())
	if err != nil {
		t.Fatal(err)
	}
	got, err := VerifyTransfer(public, env)
	if err != nil || got.Payer != "alice" || got.Amount != 2500 || got.Labels["invoice"] != "2024-117" {
		t.Fatalf("%+v %v", got, err)
	}
	// Every byte changed in turn: refused, never accepted as another transfer.
	for i := range env {
		bad := append([]byte(nil), env...)
		bad[i] ^= 0x01
		if _, err := VerifyTransfer(public, bad); err == nil {
			t.Fatalf("byte %d changed: accepted", i)
		}
	}
	// A signature over other bytes, on a canonical body: bad-signature.
	other := DemoTransfer()
	other.Amount = 2501
	forged, err := SignTransfer(ed25519.NewKeyFromSeed(make([]byte, 32)), other)
	if err != nil {
		t.Fatal(err)
	}
	_, err = VerifyTransfer(public, forged)
	var v *VerifyError
	if !errors.As(err, &v) || v.Code() != "bad-signature" {
		t.Fatalf("a stranger's signature: %v", err)
	}
	// A body that is not canonical (a default written out): refused as the body's error.
	_, err = VerifyTransfer(public, append([]byte{0x06, 0x02, 0x22, 0x00}, env[4:]...))
	if !errors.As(err, &v) || v.Part == "signature" {
		t.Fatalf("broken envelope: %v", err)
	}
}
