// Package kit holds the helpers the end-to-end test packages share (e2e and
// e2e/reproduce): where the checkout is, the go command, this platform's
// binary name, file copies, strict JSON reads, core.Version as written in the
// source, and the GoReleaser snapshot build. It is test support only: every
// function fails the calling test rather than returning an error.
//
// The release tests live in two packages so that each test binary gets go
// test's own time limit (10 minutes by default): the reproducibility check
// compiles everything afresh with an empty build cache, which on a loaded
// 2-core machine takes minutes, and the host tests in e2e take minutes too.
package kit

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/zcode-fence/zcode-fence/internal/modroot"
)

// RepoRoot is the checkout root: the nearest directory at or above the
// test's working directory that holds go.mod.
func RepoRoot(t testing.TB) string {
	t.Helper()
	root, err := modroot.FromWorkingDir()
	if err != nil {
		t.Fatalf("e2e: %v", err)
	}
	return root
}

// GoTool finds the go command: PATH, else GOROOT/bin.
func GoTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// HostBinaryName is the launcher's name for this platform's binary.
func HostBinaryName() string {
	name := "zcode-fence-" + runtime.GOOS + "-" + runtime.GOARCH
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	return name
}

// CopyFile copies src to dst (creating dst's directory), keeping src's
// permission bits.
func CopyFile(t testing.TB, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, st.Mode().Perm())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// ReadJSON decodes the one JSON value in the file at path into v.
func ReadJSON(t testing.TB, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if dec.More() {
		t.Fatalf("%s: more than one JSON value", path)
	}
}

// CoreVersion reads the default of core.Version from core/version.go (a
// variable, so builds can stamp it with -X). Parsing the file, rather than
// importing package core, keeps these checks independent of the rest of the
// module compiling.
func CoreVersion(t testing.TB) string {
	t.Helper()
	path := filepath.Join(RepoRoot(t), "core", "version.go")
	file, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatalf("e2e: %v", err)
	}
	for _, decl := range file.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || (gen.Tok != token.CONST && gen.Tok != token.VAR) {
			continue
		}
		for _, spec := range gen.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if name.Name != "Version" || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if v, err := strconv.Unquote(lit.Value); err == nil {
						return v
					}
				}
			}
		}
	}
	t.Fatalf("e2e: no Version = \"...\" in %s", path)
	return ""
}
