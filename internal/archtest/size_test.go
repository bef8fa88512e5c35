package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/internal/modroot"
)

// Size limits of the code in core/ and plugins/ (tests included,
// generated code not).
const (
	maxFileLines = 1500
	maxFuncLines = 120
)

// oversize are the files and functions over the limits that are still to
// be split, with their size when they were listed: each may shrink, none
// may grow, and an entry that fits the limit again must be removed.
// Keys are "path" for a file and "path:func" for a function (methods as
// "path:Type.Method").
var oversize = map[string]int{}

// TestSize fails on a file of core/ or plugins/ over maxFileLines lines or
// a function over maxFuncLines lines that oversize does not list.
func TestSize(t *testing.T) {
	root, err := modroot.FromWorkingDir()
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	check := func(key string, n, limit int) {
		if n <= limit {
			return
		}
		found[key] = true
		switch was, ok := oversize[key]; {
		case !ok:
			t.Errorf("%s has %d lines, over the limit of %d: split it", key, n, limit)
		case n > was:
			t.Errorf("%s grew to %d lines (listed at %d, limit %d): split it", key, n, was, limit)
		}
	}
	for _, top := range []string{"core", "plugins"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
			if err != nil {
				return err
			}
			if ast.IsGenerated(f) {
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			check(rel, fset.File(f.Pos()).LineCount(), maxFileLines)
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				name := fd.Name.Name
				if fd.Recv != nil && len(fd.Recv.List) == 1 {
					name = recvName(fd.Recv.List[0].Type) + "." + name
				}
				lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
				check(rel+":"+name, lines, maxFuncLines)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for key := range oversize {
		if !found[key] {
			t.Errorf("%s is within the limits now: remove it from oversize", key)
		}
	}
}

// recvName is the type name of a method receiver (*T, T, T[P]).
func recvName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return recvName(x.X)
	case *ast.IndexExpr:
		return recvName(x.X)
	case *ast.IndexListExpr:
		return recvName(x.X)
	case *ast.Ident:
		return x.Name
	}
	return "?"
}
