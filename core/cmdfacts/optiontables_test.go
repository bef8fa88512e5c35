package cmdfacts_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// optionTablesIn describes the option tables file f writes outside this
// package: a cmdfacts.Spec literal (or a type naming cmdfacts.Spec in a
// composite literal, as map[string]cmdfacts.Spec{...}), and a call of
// cmdfacts.SpecFor or cmdfacts.Operands that lists options as string
// literals. A command's option syntax is read from Syntax / ParseCommand.
// A call of cmdfacts.EffectsOf is one too: a command's effects are
// computed once, when it is built, and read from Command.Effects.
func optionTablesIn(f *ast.File, fset *token.FileSet) []string {
	local := "cmdfacts"
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); strings.HasSuffix(p, "/core/cmdfacts") && imp.Name != nil {
			local = imp.Name.Name
		}
	}
	isFacts := func(e ast.Expr, names ...string) bool {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || id.Name != local {
			return false
		}
		for _, n := range names {
			if sel.Sel.Name == n {
				return true
			}
		}
		return false
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		pos := fset.Position(n.Pos())
		switch n := n.(type) {
		case *ast.CompositeLit:
			spec := isFacts(n.Type, "Spec")
			if m, ok := n.Type.(*ast.MapType); ok && isFacts(m.Value, "Spec") {
				spec = true
			}
			if spec {
				out = append(out, pos.String()+": a cmdfacts.Spec written here; give the command a Syntax in core/cmdfacts")
			}
		case *ast.CallExpr:
			if isFacts(n.Fun, "EffectsOf") {
				out = append(out, pos.String()+": effects read from argv here; read Command.Effects (cmdfacts.FillEffects fills a Command made here)")
				return true
			}
			if !isFacts(n.Fun, "SpecFor", "Operands") {
				return true
			}
			for _, a := range n.Args {
				if b, ok := a.(*ast.BasicLit); ok && b.Kind == token.STRING {
					out = append(out, pos.String()+": options listed in a call; give the command a Syntax in core/cmdfacts")
					break
				}
			}
		}
		return true
	})
	return out
}

// TestNoOptionTablesOutside parses every non-test Go file of the module
// outside core/cmdfacts and fails on an option table written there
// (optionTablesIn): a command's option syntax has one copy, its Syntax.
func TestNoOptionTablesOutside(t *testing.T) {
	forModuleSources(t, func(rel string, fset *token.FileSet, f *ast.File) {
		for _, msg := range optionTablesIn(f, fset) {
			t.Errorf("%s", msg)
		}
	})
}

// TestOptionTablesCaught: the check finds each form a layer would write.
func TestOptionTablesCaught(t *testing.T) {
	src := `package x
import "github.com/zcode-fence/zcode-fence/core/cmdfacts"
var a = cmdfacts.Spec{Short: "t"}
var b = map[string]cmdfacts.Spec{"gzip": {}}
func f() { _ = cmdfacts.Operands(nil, "-t"); _ = cmdfacts.SpecFor("-o"); _ = cmdfacts.Operands(nil); _ = cmdfacts.EffectsOf("rm", nil) }`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := optionTablesIn(f, fset); len(got) != 5 {
		t.Fatalf("found %d option tables, want 5: %q", len(got), got)
	}
}
