package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// processWide are the calls that change state every test of the process
// shares. A parallel test must not make them: it passes a child's
// environment in exec.Cmd.Env and its directory in exec.Cmd.Dir instead.
// Fuzz targets may (their seed corpus runs after every test has finished).
var processWide = map[string]bool{
	"os.Setenv": true, "os.Unsetenv": true, "os.Clearenv": true, "os.Chdir": true,
	"t.Setenv": true, "t.Chdir": true, "syscall.Setenv": true, "syscall.Chdir": true,
}

// runsAlone are the top-level tests that do not call t.Parallel, and why:
// go test runs them one at a time before any parallel test starts.
var runsAlone = map[string]string{
	// 100 hooks at once from cold must bring the warm servers up: on 2
	// cores already busy with the other tests' hooks every launch missed
	// its budget and no server was left to count (seen at load 17).
	"TestWarmConcurrentCallsOneServerPerLayer": "its burst measures the warm servers' start under its own load",
}

// TestEveryTestIsParallel keeps the promise testParallel's comment makes:
// every top-level test of this package but those of runsAlone starts with
// t.Parallel(), and no test or helper outside a fuzz target changes the
// environment or the working directory of the test process.
func TestEveryTestIsParallel(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*_test.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files (%v)", err)
	}
	fset := token.NewFileSet()
	tests := 0
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			fuzz := fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Fuzz")
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && !fuzz {
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
						if x, ok := sel.X.(*ast.Ident); ok && processWide[x.Name+"."+sel.Sel.Name] {
							t.Errorf("%s: %s calls %s.%s: tests here run in parallel", fset.Position(call.Pos()), fn.Name.Name, x.Name, sel.Sel.Name)
						}
					}
				}
				return true
			})
			if fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" {
				continue
			}
			tests++
			_, alone := runsAlone[fn.Name.Name]
			switch parallel := startsWithParallel(fn); {
			case alone && parallel:
				t.Errorf("%s: %s is in runsAlone but calls t.Parallel()", fset.Position(fn.Pos()), fn.Name.Name)
			case !alone && !parallel:
				t.Errorf("%s: %s does not start with t.Parallel()", fset.Position(fn.Pos()), fn.Name.Name)
			}
		}
	}
	if tests < 50 {
		t.Errorf("found %d top-level tests, expected the package's 50 and more: is the parser looking at the right files?", tests)
	}
}

// startsWithParallel reports whether fn's first statement is t.Parallel()
// on its *testing.T parameter.
func startsWithParallel(fn *ast.FuncDecl) bool {
	params := fn.Type.Params.List
	if len(fn.Body.List) == 0 || len(params) != 1 || len(params[0].Names) != 1 {
		return false
	}
	stmt, ok := fn.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := stmt.X.(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Parallel" {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == params[0].Names[0].Name
}
