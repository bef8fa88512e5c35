package cmdfacts_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

// optionTablesIn describes the option tables file f writes outside this
// package: a cmdfacts.Spec or cmdfacts.Wrapper literal (or a type naming
// one in a composite literal, as map[string]cmdfacts.Spec{...}), a
// literal of a struct type of f's package that declares option syntax
// (optionTypes, from optionTypesIn: the shell analysis's old
// optSpec{vals, longVals}), and a call of cmdfacts.SpecFor or
// cmdfacts.Operands that lists options as string literals. A command's
// option syntax is read from Syntax / ParseCommand / WrapperOf. A call
// of cmdfacts.EffectsOf is one too, and so is a call of ParseCommand or
// Syntax with the literal name of a command that has effects (rm, cp,
// ln, tee ...): a command's effects are computed once, when it is built,
// and read from Command.Effects.
func optionTablesIn(f *ast.File, fset *token.FileSet, optionTypes map[string]bool) []string {
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
			elem := n.Type
			switch t := n.Type.(type) {
			case *ast.MapType:
				elem = t.Value
			case *ast.ArrayType:
				elem = t.Elt
			}
			if st, ok := elem.(*ast.StarExpr); ok {
				elem = st.X
			}
			if isFacts(elem, "Spec", "Wrapper") {
				out = append(out, pos.String()+": a cmdfacts.Spec written here; give the command a Syntax in core/cmdfacts")
			}
			if id, ok := elem.(*ast.Ident); ok && optionTypes[id.Name] {
				out = append(out, pos.String()+": a literal of "+id.Name+", a type that declares option syntax; give the command a Syntax in core/cmdfacts")
			}
		case *ast.CallExpr:
			if isFacts(n.Fun, "EffectsOf") {
				out = append(out, pos.String()+": effects read from argv here; read Command.Effects (cmdfacts.FillEffects fills a Command made here)")
				return true
			}
			if isFacts(n.Fun, "ParseCommand", "Syntax") && len(n.Args) > 0 {
				if b, ok := n.Args[0].(*ast.BasicLit); ok && b.Kind == token.STRING {
					if name, err := strconv.Unquote(b.Value); err == nil && cmdfacts.HasEffects(name) {
						out = append(out, pos.String()+": "+name+"'s argv parsed here, a command with effects; read Command.Effects")
						return true
					}
				}
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

// optionFieldNames are the field names (lower case) by which a struct
// declares option syntax: the option letters or names that take a value
// or take none (getopt's optstring and longopts).
var optionFieldNames = []string{"vals", "longvals", "valued", "shortvals", "short", "shorts", "long", "longs",
	"longopts", "shortopts", "flags", "letters", "optstring"}

// optionTypesIn returns the struct types declared in files (one package)
// that declare option syntax: one of their fields is a string, a string
// list or a string-keyed set or count, and is named as option syntax is
// (optionFieldNames, or any name ending in "vals" or "valued").
func optionTypesIn(files []*ast.File) map[string]bool {
	stringish := func(e ast.Expr) bool {
		switch t := e.(type) {
		case *ast.Ident:
			return t.Name == "string"
		case *ast.ArrayType:
			id, ok := t.Elt.(*ast.Ident)
			return ok && id.Name == "string"
		case *ast.MapType:
			id, ok := t.Key.(*ast.Ident)
			return ok && id.Name == "string"
		}
		return false
	}
	out := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, fl := range st.Fields.List {
				if !stringish(fl.Type) {
					continue
				}
				for _, name := range fl.Names {
					l := strings.ToLower(name.Name)
					if slices.Contains(optionFieldNames, l) || strings.HasSuffix(l, "vals") || strings.HasSuffix(l, "valued") {
						out[ts.Name.Name] = true
					}
				}
			}
			return true
		})
	}
	return out
}

// TestNoOptionTablesOutside parses every non-test Go file of the module
// outside core/cmdfacts and fails on an option table written there
// (optionTablesIn), on a struct type declared to hold option syntax
// (optionTypesIn), or on an option word the shell analysis spells out
// beyond its recorded debt (checkOptionWordsInAnalysis): a command's
// option syntax has one copy, its Syntax.
func TestNoOptionTablesOutside(t *testing.T) {
	type source struct {
		fset *token.FileSet
		f    *ast.File
	}
	byPkg := map[string][]source{}
	analysis := map[string]*ast.File{}
	forModuleSources(t, func(rel string, fset *token.FileSet, f *ast.File) {
		dir := filepath.Dir(rel)
		byPkg[dir] = append(byPkg[dir], source{fset, f})
		if dir == filepath.Join("core", "shell", "analysis") {
			analysis[rel] = f
		}
	})
	checkOptionWordsInAnalysis(t, analysis)
	for dir, srcs := range byPkg {
		files := make([]*ast.File, len(srcs))
		for i, s := range srcs {
			files[i] = s.f
		}
		types := optionTypesIn(files)
		for name := range types {
			t.Errorf("%s: type %s declares option syntax; use cmdfacts.Spec (core/cmdfacts)", dir, name)
		}
		for _, s := range srcs {
			for _, msg := range optionTablesIn(s.f, s.fset, types) {
				t.Errorf("%s", msg)
			}
		}
	}
}

// TestOptionTablesCaught: the check finds each form a layer would write.
func TestOptionTablesCaught(t *testing.T) {
	src := `package x
import "github.com/zcode-fence/zcode-fence/core/cmdfacts"
var a = cmdfacts.Spec{Short: "t"}
var b = map[string]cmdfacts.Spec{"gzip": {}}
func f() { _ = cmdfacts.Operands(nil, "-t"); _ = cmdfacts.SpecFor("-o"); _ = cmdfacts.Operands(nil); _ = cmdfacts.EffectsOf("rm", nil) }
func g() { _ = cmdfacts.ParseCommand("ln", nil); _, _ = cmdfacts.Syntax("tee"); _ = cmdfacts.ParseCommand("crontab", nil) }`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := optionTablesIn(f, fset, nil); len(got) != 7 {
		t.Fatalf("found %d option tables, want 7: %q", len(got), got)
	}
}

// TestOptionTypesCaught: the check finds the shell analysis's old form, a
// struct of its own declaring which options take a value
// (optSpec{vals, longVals}), each literal of it, and a cmdfacts.Wrapper
// written outside; a struct of strings named otherwise is not one.
func TestOptionTypesCaught(t *testing.T) {
	src := `package x
import "github.com/zcode-fence/zcode-fence/core/cmdfacts"
type optSpec struct {
	vals     string
	longVals []string
}
type opt struct {
	name string
	val  *string
}
type label struct{ name, text string }
var sudoSpec = optSpec{vals: "u", longVals: []string{"user"}}
var specs = map[string]optSpec{"nice": {vals: "n"}}
var w = cmdfacts.Wrapper{NoRun: []string{"l"}}
var l = label{name: "a"}
func f() { skip(optSpec{}); _ = opt{name: "u"} }
func skip(optSpec) {}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	types := optionTypesIn([]*ast.File{f})
	if len(types) != 1 || !types["optSpec"] {
		t.Fatalf("option types %v, want only optSpec", types)
	}
	if got := optionTablesIn(f, fset, types); len(got) != 4 {
		t.Fatalf("found %d option tables, want 4 (sudoSpec, specs, w, optSpec{}): %q", len(got), got)
	}
}

// optionWordsIn returns the option words (string literals written as an
// option: "-x", "--name", "--name="; not "-" or "--") that f spells out,
// by the function or top-level declaration that holds them ("file.go:
// name"). Any use counts (a comparison, a case, a prefix test, a map
// key, a word built for a command), so a command's option syntax typed
// into another package is found whatever form it takes.
func optionWordsIn(rel string, f *ast.File) map[string][]string {
	out := map[string][]string{}
	base := filepath.Base(rel)
	collect := func(key string, n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			b, ok := n.(*ast.BasicLit)
			if !ok || b.Kind != token.STRING {
				return true
			}
			v, err := strconv.Unquote(b.Value)
			if err != nil || !isOptionWord(v) {
				return true
			}
			out[key] = append(out[key], v)
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			collect(base+":"+d.Name.Name, d)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if vs, ok := s.(*ast.ValueSpec); ok {
					collect(base+":"+vs.Names[0].Name, vs)
				}
			}
		}
	}
	for k := range out {
		slices.Sort(out[k])
	}
	return out
}

// isOptionWord reports whether v is written as an option: a dash or two
// and a letter or digit ("-E", "--run", "--coreutils-prog=", "-x86_64").
func isOptionWord(v string) bool {
	if !strings.HasPrefix(v, "-") {
		return false
	}
	v = strings.TrimPrefix(v, "-")
	v = strings.TrimPrefix(v, "-")
	if len(v) == 0 {
		return false
	}
	c := v[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// optionWordsDebt is testdata/analysis_option_words.txt: the option words
// the shell analysis still spells out, by declaration, one line each
// ("file.go:name WORD WORD ..."). It only shrinks: the words belong in a
// Syntax, Wrapper or ShellOptions entry here.
func optionWordsDebt(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "analysis_option_words.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		words := make([]string, 0, len(fields)-1)
		for _, w := range fields[1:] {
			u, err := strconv.Unquote(w)
			if err != nil {
				t.Fatalf("analysis_option_words.txt: %s: %v", w, err)
			}
			words = append(words, u)
		}
		slices.Sort(words)
		out[fields[0]] = words
	}
	return out
}

// checkOptionWordsInAnalysis: the shell analysis (core/shell/analysis,
// files by path) spells out no option word beyond the recorded debt
// (optionWordsDebt), and the debt names no word the code no longer
// holds: a wrapper's or shell command's options (nix-shell --run, sg -c,
// arch -x86_64, coreutils --coreutils-prog=, cmake -E, nohup --help) are
// read from WrapperOf / ShellOptions with ParseArgs.
func checkOptionWordsInAnalysis(t *testing.T, files map[string]*ast.File) {
	got := map[string][]string{}
	for rel, f := range files {
		maps.Copy(got, optionWordsIn(rel, f))
	}
	if len(got) == 0 {
		t.Fatal("no option words found in core/shell/analysis: is the walk reading it?")
	}
	debt := optionWordsDebt(t)
	for _, key := range slices.Sorted(maps.Keys(got)) {
		if !slices.Equal(got[key], debt[key]) {
			t.Errorf("core/shell/analysis/%s spells out options %q (recorded: %q); read them from a cmdfacts entry (Syntax, WrapperOf, ShellOptions), or, when the code dropped some, shorten testdata/analysis_option_words.txt", key, got[key], debt[key])
		}
	}
	for key := range debt {
		if _, ok := got[key]; !ok {
			t.Errorf("testdata/analysis_option_words.txt records %s, which spells out no option now: remove the line", key)
		}
	}
}

// TestOptionWordsCaught: the check finds option words in each form the
// analysis wrote them (a comparison, a prefix test, a case, a word built
// for a command, a map key) and not "-", "--" or text that only holds a
// dash.
func TestOptionWordsCaught(t *testing.T) {
	src := `package x
var table = map[string]bool{"-l": true, "--list": true}
func nix(v string) bool { return v == "--run" || v == "--command" || v == "-" || v == "--" }
func coreutils(v string) string { return strings.TrimPrefix(v, "--coreutils-prog=") }
func arch(v string) bool { switch v { case "-arch", "-x86_64": return true }; return v == "a-b" }
func cmake() []string { return []string{"rm", "-rf", "nix-shell --"} }`
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := optionWordsIn("x/x.go", f)
	want := map[string][]string{
		"x.go:table": {"--list", "-l"}, "x.go:nix": {"--command", "--run"},
		"x.go:coreutils": {"--coreutils-prog="}, "x.go:arch": {"-arch", "-x86_64"}, "x.go:cmake": {"-rf"},
	}
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("option words %q, want %q", got, want)
	}
}
