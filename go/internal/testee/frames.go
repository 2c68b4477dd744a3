package testee

import (
	"encoding/binary"
	"errors"
	"io"
)

// ReadFrame reads one frame (a 4-byte big-endian length, then that many bytes); io.EOF
// at a clean end of input, io.ErrUnexpectedEOF for a partial frame.
func ReadFrame(r io.Reader) ([]byte, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(head[:])
	body := make([]byte, 0, min(int(n), 1<<20))
	// Read in pieces, so a length the bytes do not follow costs no more than they do.
	for uint32(len(body)) < n {
		chunk := min(int(n)-len(body), 1<<20)
		start := len(body)
		body = append(body, make([]byte, chunk)...)
		if _, err := io.ReadFull(r, body[start:]); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
	return body, nil
}

// WriteFrame writes body as one frame.
func WriteFrame(w io.Writer, body []byte) error {
	var head [4]byte
	binary.BigEndian.PutUint32(head[:], uint32(len(body)))
	if _, err := w.Write(head[:]); err != nil {
		return err
	}
	_, err := w.Write(body)
	return err
}
