package bijoubuf

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The conformance vectors' manifest (conformance/vectors/MANIFEST) against the tree, as
// conformance/README.md ("The vector pack") defines it: SPEC version, vectors per file
// and SHA-256 over the set. A vector changed without a new manifest fails here.

const regenerate = "cargo run -p bijoubuf-conformance --bin vectors-manifest -- --version NEW-VERSION"

// conformanceDir is the repository's conformance/, relative to the module (go/).
func conformanceDir() string { return filepath.Join("..", "..", "conformance") }

// setFiles lists the hashed set: vectors/*.toml but known_divergences.toml, and
// schemas/**/*.proto, as paths relative to conformance/ with '/', in byte order.
func setFiles(root string) ([]string, error) {
	var out []string
	entries, err := os.ReadDir(filepath.Join(root, "vectors"))
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && strings.HasSuffix(n, ".toml") && n != "known_divergences.toml" {
			out = append(out, "vectors/"+n)
		}
	}
	err = filepath.WalkDir(filepath.Join(root, "schemas"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".proto") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

type manifest struct {
	spec    int
	version string
	sha256  string
	cases   []string // "file count", in order
}

func parseManifest(text string) (manifest, error) {
	var m manifest
	sc := bufio.NewScanner(strings.NewReader(text))
	for line := 1; sc.Scan(); line++ {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		w := strings.Fields(l)
		switch {
		case len(w) == 2 && w[0] == "spec":
			n, err := strconv.Atoi(w[1])
			if err != nil {
				return m, fmt.Errorf("MANIFEST line %d: %q", line, l)
			}
			m.spec = n
		case len(w) == 2 && w[0] == "version":
			m.version = w[1]
		case len(w) == 2 && w[0] == "sha256":
			m.sha256 = strings.ToLower(w[1])
		case len(w) == 3 && w[0] == "cases":
			m.cases = append(m.cases, w[1]+" "+w[2])
		default:
			return m, fmt.Errorf("MANIFEST line %d: cannot read %q", line, l)
		}
	}
	if m.version == "" || m.sha256 == "" || m.spec == 0 {
		return m, fmt.Errorf("MANIFEST: spec, version and sha256 are required")
	}
	return m, nil
}

// checkManifest compares conformance/vectors/MANIFEST under root with the tree.
func checkManifest(root string) error {
	text, err := os.ReadFile(filepath.Join(root, "vectors", "MANIFEST"))
	if err != nil {
		return err
	}
	m, err := parseManifest(string(text))
	if err != nil {
		return err
	}
	stale := func(what string) error {
		return fmt.Errorf("%s: the conformance vectors or schemas changed since vectors/MANIFEST was written (pack version %s). Bump the version and regenerate it: %s", what, m.version, regenerate)
	}
	spec, err := os.ReadFile(filepath.Join(root, "SPEC.md"))
	if err != nil {
		return err
	}
	first, _, _ := strings.Cut(string(spec), "\n")
	if want := fmt.Sprintf("# bijoubuf wire format, version %d", m.spec); strings.TrimSpace(first) != want {
		return stale(fmt.Sprintf("MANIFEST says SPEC version %d, SPEC.md begins %q", m.spec, first))
	}
	files, err := setFiles(root)
	if err != nil {
		return err
	}
	h := sha256.New()
	var cases []string
	for _, rel := range files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\n%d\n", rel, len(b))
		h.Write(b)
		if name, ok := strings.CutPrefix(rel, "vectors/"); ok {
			n := 0
			for _, l := range bytes.Split(b, []byte("\n")) {
				if string(bytes.TrimSpace(l)) == "[[case]]" {
					n++
				}
			}
			cases = append(cases, fmt.Sprintf("%s %d", name, n))
		}
	}
	if strings.Join(cases, ", ") != strings.Join(m.cases, ", ") {
		return stale(fmt.Sprintf("vectors per file: MANIFEST has %v, the tree %v", m.cases, cases))
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != m.sha256 {
		return stale(fmt.Sprintf("SHA-256 over the set: MANIFEST has %s, the tree %s", m.sha256, got))
	}
	return nil
}

func TestVectorManifest(t *testing.T) {
	if err := checkManifest(conformanceDir()); err != nil {
		t.Fatal(err)
	}
}

// The check can fail: a copy of the tree with one vector file changed is refused.
func TestVectorManifestRefusesAChangedVector(t *testing.T) {
	root := conformanceDir()
	files, err := setFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	for _, rel := range append(files, "vectors/MANIFEST", "SPEC.md") {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(tmp, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if rel == files[0] {
			b = append(b, '\n')
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	err = checkManifest(tmp)
	if err == nil || !strings.Contains(err.Error(), "Bump the version") || !strings.Contains(err.Error(), regenerate) {
		t.Fatalf("a changed vector: %v", err)
	}
}
