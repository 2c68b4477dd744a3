package testee

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestHexRoundTripsAndWritesRuns(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		text string
	}{
		{nil, ""},
		{[]byte{0x18, 0x02}, "18 02"},
		{bytes.Repeat([]byte{0xAB}, 7), "AB AB AB AB AB AB AB"},
		{append([]byte{1}, bytes.Repeat([]byte{0}, 8)...), "01 00{8}"},
		{append(bytes.Repeat([]byte{0xFF}, 10), 2, 2), "FF{10} 02 02"},
	} {
		if got := FormatHex(c.in); got != c.text {
			t.Errorf("FormatHex(%x) = %q, want %q", c.in, got, c.text)
		}
		back, err := ParseHex(c.text)
		if err != nil || !bytes.Equal(back, c.in) {
			t.Errorf("ParseHex(%q) = %x, %v", c.text, back, err)
		}
	}
	got, err := ParseHex(" 3e\tFA\n00{3} 01{0} ")
	if err != nil || !bytes.Equal(got, []byte{0x3e, 0xfa, 0, 0, 0}) {
		t.Errorf("mixed case, runs, whitespace: %x %v", got, err)
	}
	for _, bad := range []string{"1", "123", "GG", "0x", "01{", "01{}", "01{x}", "01{-1}", "01{+1}",
		"01}", "(02){3} 04", "+1", "01{99999999999}", "01{1073741824} 01"} {
		if b, err := ParseHex(bad); err == nil {
			t.Errorf("ParseHex(%q) = %x", bad, b)
		}
	}
}

func TestFramesRoundTripAndPartialFramesFail(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteFrame(&buf, []byte(`{"op":"x"}`)); err != nil {
		t.Fatal(err)
	}
	whole := buf.Bytes()
	if !bytes.Equal(whole[:4], []byte{0, 0, 0, 10}) {
		t.Fatalf("head %x", whole[:4])
	}
	r := bytes.NewReader(whole)
	if body, err := ReadFrame(r); err != nil || string(body) != `{"op":"x"}` {
		t.Fatalf("%q %v", body, err)
	}
	if _, err := ReadFrame(r); !errors.Is(err, io.EOF) {
		t.Fatalf("clean end: %v", err)
	}
	for _, cut := range []int{2, len(whole) - 1} {
		if _, err := ReadFrame(bytes.NewReader(whole[:cut])); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("cut at %d: %v", cut, err)
		}
	}
	// A length the bytes do not follow: refused after reading what is there.
	if _, err := ReadFrame(bytes.NewReader([]byte{0xFF, 0xFF, 0xFF, 0xFF, '{'})); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("4 GiB announced: %v", err)
	}
}

func TestServeAnswersEachFrameInOrder(t *testing.T) {
	var in bytes.Buffer
	for _, req := range []string{`{"op": "decode", "type": "no.Such", "input": ""}`, `not json`,
		`{"op": "frobnicate", "type": "no.Such"}`} {
		if err := WriteFrame(&in, []byte(req)); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	if err := Serve(&in, w); err != nil {
		t.Fatal(err)
	}
	var statuses []string
	for {
		body, err := ReadFrame(&out)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var res map[string]any
		if err := json.Unmarshal(body, &res); err != nil {
			t.Fatal(err)
		}
		statuses = append(statuses, res["status"].(string)+":"+res["message"].(string))
	}
	want := []string{"unsupported:no message type no.Such", "failed:bad request", "failed:unknown op frobnicate"}
	if len(statuses) != len(want) {
		t.Fatalf("answers %q", statuses)
	}
	for i := range want {
		if !strings.HasPrefix(statuses[i], want[i]) {
			t.Errorf("answer %d: %q, want %q…", i, statuses[i], want[i])
		}
	}
}
