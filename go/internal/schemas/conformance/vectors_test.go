package conformance_test

// Every decode vector of conformance/vectors (the TOML files at the repository root)
// through the generated code: an accepted input decodes and re-encodes to itself (the
// unknown records kept, when preserving, counted as the vector says); a refused one
// fails with the vector's code, offset and path. The JSON value of an accepted input and
// the encode vectors are the testee's to check, through proto3 JSON.

import (
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bijoubuf/bijoubuf/go/bijou64"
	"github.com/bijoubuf/bijoubuf/go/bijoubuf"
	_ "github.com/bijoubuf/bijoubuf/go/internal/schemas/evolution/v1"
	_ "github.com/bijoubuf/bijoubuf/go/internal/schemas/evolution/v2"
)

type vector struct {
	file, id, typ, hex string
	accept, encode     bool
	reject             map[string]string
	decoder            map[string]string
	unknown            int
}

// tomlString reads a basic ("…", with escapes) or literal ('…') string at s's start
// and returns it and the rest.
func tomlString(t *testing.T, s string) (string, string) {
	if s == "" {
		t.Fatal("expected a string")
	}
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), s[i+1:]
		case c == '\\' && q == '"':
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'u', 'U':
				n := 4
				if s[i] == 'U' {
					n = 8
				}
				r, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
				if err != nil {
					t.Fatalf("bad escape in %q", s)
				}
				b.WriteRune(rune(r))
				i += n
			default:
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	t.Fatalf("unterminated string %q", s)
	return "", ""
}

// tomlValue reads a scalar (string, number or bool) as text.
func tomlValue(t *testing.T, s string) (string, string) {
	s = strings.TrimLeft(s, " ")
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		return tomlString(t, s)
	}
	end := strings.IndexAny(s, ",}")
	if end < 0 {
		end = len(s)
	}
	return strings.TrimSpace(s[:end]), s[end:]
}

// tomlTable reads an inline table { k = v, … } of scalars.
func tomlTable(t *testing.T, s string) map[string]string {
	out := map[string]string{}
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "{")
	for {
		s = strings.TrimLeft(s, " ,")
		if s == "" || s[0] == '}' {
			return out
		}
		eq := strings.Index(s, "=")
		key := strings.TrimSpace(s[:eq])
		var v string
		v, s = tomlValue(t, s[eq+1:])
		out[key] = v
	}
}

func loadVectors(t *testing.T) []vector {
	dir := filepath.Join("..", "..", "..", "..", "conformance", "vectors")
	files, err := filepath.Glob(filepath.Join(dir, "[0-9]*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors in %s: %v", dir, err)
	}
	var out []vector
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cur *vector
		for _, line := range strings.Split(string(text), "\n") {
			line = strings.TrimSpace(line)
			if line == "[[case]]" {
				out = append(out, vector{file: filepath.Base(f)})
				cur = &out[len(out)-1]
				continue
			}
			eq := strings.Index(line, " = ")
			if cur == nil || eq < 0 || strings.HasPrefix(line, "#") {
				continue
			}
			key, val := line[:eq], line[eq+3:]
			switch key {
			case "id":
				cur.id, _ = tomlString(t, val)
			case "type":
				cur.typ, _ = tomlString(t, val)
			case "hex":
				cur.hex, _ = tomlString(t, val)
			case "accept":
				cur.accept = true
			case "encode":
				cur.encode = true
			case "reject":
				cur.reject = tomlTable(t, val)
			case "decoder":
				cur.decoder = tomlTable(t, val)
			case "unknown":
				cur.unknown, _ = strconv.Atoi(val)
			}
		}
	}
	return out
}

// parseHex reads the vectors' hex notation: two hex digits a byte; XX{n} is XX n times;
// (P){n} REST is n levels of P followed by the bijou64 length of the level inside, REST
// innermost.
func parseHex(t *testing.T, text string) []byte {
	open := strings.IndexByte(text, '(')
	if open < 0 {
		return parseFlat(t, text)
	}
	out := parseFlat(t, text[:open])
	after := text[open+1:]
	end := strings.IndexByte(after, ')')
	prefix := parseFlat(t, after[:end])
	tail := after[end+1:]
	countEnd := strings.IndexByte(tail, '}')
	n, err := strconv.Atoi(tail[1:countEnd])
	if err != nil || tail[0] != '{' {
		t.Fatalf("bad group in %q", text)
	}
	inner := parseHex(t, tail[countEnd+1:])
	lens := make([]int, n)
	l := len(inner)
	for i := range n {
		lens[i] = l
		l += len(prefix) + len(bijou64.Encode(uint64(l)))
	}
	for i := n - 1; i >= 0; i-- {
		out = append(out, prefix...)
		out = bijou64.Append(out, uint64(lens[i]))
	}
	return append(out, inner...)
}

func parseFlat(t *testing.T, text string) []byte {
	var out []byte
	for _, tok := range strings.Fields(text) {
		count := 1
		if i := strings.IndexByte(tok, '{'); i >= 0 {
			n, err := strconv.Atoi(strings.TrimSuffix(tok[i+1:], "}"))
			if err != nil {
				t.Fatalf("bad count in %q", tok)
			}
			count, tok = n, tok[:i]
		}
		b, err := hex.DecodeString(tok)
		if err != nil || len(b) != 1 {
			t.Fatalf("bad byte %q", tok)
		}
		out = append(out, bytes.Repeat(b, count)...)
	}
	return out
}

type decoder interface {
	BijoubufDecode(*bijoubuf.Reader) error
}

func TestVectors(t *testing.T) {
	vectors := loadVectors(t)
	ran := 0
	for _, v := range vectors {
		if v.encode {
			continue
		}
		ran++
		t.Run(v.id, func(t *testing.T) {
			desc, ok := bijoubuf.FindMessage(v.typ)
			if !ok {
				t.Fatalf("type %s is not registered", v.typ)
			}
			in := parseHex(t, v.hex)
			var err error
			opts := bijoubuf.DecodeOptions{}
			// Re-encoding under the decode's depth limit (SPEC §9: the same counting).
			eopts := bijoubuf.EncodeOptions{}
			stream := false
			for k, val := range v.decoder {
				switch k {
				case "preserving":
					opts = opts.Preserving(val == "true")
				case "depth-limit":
					n, _ := strconv.Atoi(val)
					opts = opts.WithMaxDepth(n)
					eopts = eopts.WithMaxDepth(n)
				case "size-limit":
					n, _ := strconv.Atoi(val)
					opts = opts.WithMaxSize(n)
				case "stream":
					stream = val == "true"
				default:
					t.Fatalf("decoder option %s", k)
				}
			}
			keeps := !strings.HasPrefix(v.typ, "google.protobuf.")
			var out []byte
			unknown := 0
			if stream {
				for pos := 0; pos < len(in) && err == nil; {
					m := desc.New()
					var n int
					pos, n, err = bijoubuf.DecodeFrame(in, pos, opts, desc.Name, keeps, m.(decoder).BijoubufDecode)
					if err == nil {
						var enc []byte
						enc, err = m.MarshalOptions(eopts)
						out = bijoubuf.AppendFrame(out, enc)
						unknown += n
					}
				}
			} else {
				m := desc.New()
				unknown, err = m.BijoubufUnmarshal(in, opts)
				if err == nil {
					out, err = m.MarshalOptions(eopts)
				}
			}
			if v.reject != nil {
				d, ok := bijoubuf.AsDecodeError(err)
				if !ok {
					t.Fatalf("accepted (or failed otherwise: %v); want %v", err, v.reject)
				}
				got := map[string]string{"code": d.Code().String(), "offset": strconv.Itoa(d.Offset()), "path": d.Path()}
				for k, want := range v.reject {
					if got[k] != want {
						t.Fatalf("%s: got %s %q, want %q (%v)", v.file, k, got[k], want, d)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: refused: %v", v.file, err)
			}
			if !bytes.Equal(out, in) {
				t.Fatalf("re-encoded % X, want % X", out, in)
			}
			if unknown != v.unknown {
				t.Fatalf("%d unknown records kept, want %d", unknown, v.unknown)
			}
		})
	}
	if ran < 600 {
		t.Fatalf("only %d decode vectors ran", ran)
	}
}
