package cmdfacts_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// ownedTable is a table this package owns, recognised by strings only
// such a table holds together: a layer that grows its own copy lists
// several of them in one composite literal or one switch.
type ownedTable struct {
	name    string
	marks   []string
	atLeast int
	// contains: a mark may be part of a longer string ("[system.io.file]::
	// writealltext" holds "writealltext").
	contains bool
}

var ownedTables = []ownedTable{
	{name: "git's global options (ParseGit)", atLeast: 2, marks: []string{"--git-dir", "--work-tree", "--namespace",
		"--config-env", "--attr-source", "--super-prefix", "--exec-path", "--shallow-file", "--no-pager", "--list-cmds",
		"--html-path", "--no-replace-objects", "--literal-pathspecs"}},
	{name: "shell names (IsShell, Shells)", atLeast: 3, marks: []string{"bash", "zsh", "dash", "ksh", "ash", "mksh",
		"fish", "rbash", "yash", "csh", "tcsh", "ksh93", "pdksh", "lksh", "oksh"}},
	{name: "interpreter names (InterpreterLang)", atLeast: 2, marks: []string{"nodejs", "pypy", "pypy3", "py", "pythonw",
		"python3", "gawk", "mawk", "nawk", "goawk"}},
	{name: ".NET file calls (DotNetFileCall)", atLeast: 2, contains: true, marks: []string{"writealltext",
		"writealllines", "writeallbytes", "appendalltext", "appendalllines", "createdirectory", "openwrite",
		"createtext", "deletedirectory", "deletefile", "]::delete"}},
	{name: "find's actions (ParseFind)", atLeast: 2, marks: []string{"-execdir", "-okdir", "-fprint", "-fprint0",
		"-fls", "-fprintf"}},
	{name: "cloud CLI operations (Infra)", atLeast: 2, marks: []string{"delete-db-instance", "delete-db-cluster",
		"terminate-instances", "delete-stack", "schedule-key-deletion", "delete-table", "delete-bucket",
		"delete-file-system", "delete-repository", "delete-replication-group"}},
	{name: "Kubernetes kinds (Infra)", atLeast: 3, marks: []string{"persistentvolumeclaim", "persistentvolumeclaims",
		"customresourcedefinition", "customresourcedefinitions", "persistentvolume", "pvc", "crd", "namespaces"}},
	{name: "database clients (ParseDBClient)", atLeast: 3, marks: []string{"psql", "mysql", "mariadb", "sqlite3",
		"redis-cli", "valkey-cli", "keydb-cli", "mongosh", "dropdb", "mysqladmin"}},
	{name: "wrappers (WrapperOf)", atLeast: 3, marks: []string{"ionice", "stdbuf", "nohup", "setsid", "runuser",
		"taskset", "chrt", "gosu", "su-exec", "nsenter", "unshare", "firejail", "proxychains", "fakeroot", "proot",
		"unbuffer", "caffeinate", "eatmydata", "torsocks", "numactl", "prlimit", "cpulimit", "setpriv", "chpst"}},
	{name: "fd's options (FdRoots)", atLeast: 2, marks: []string{"--search-path", "--base-directory", "--exact-depth",
		"--changed-within", "--changed-before", "--max-results", "--exec-batch"}},
}

// TestNoCopiesOfOwnedTables parses every non-test Go file of the module
// outside this package and fails when a composite literal or a switch
// holds enough strings of one table this package owns to be a copy of
// it: the layers (danger, fence, the SDK) and the shell analysis must
// read those facts from here.
func TestNoCopiesOfOwnedTables(t *testing.T) {
	forModuleSources(t, func(rel string, fset *token.FileSet, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			for _, c := range copiesIn(n) {
				t.Errorf("%s:%d: %s", rel, fset.Position(n.Pos()).Line, c)
			}
			return true
		})
	})
}

// forModuleSources parses every non-test Go file of the module outside
// core/cmdfacts (hidden dirs, testdata and vendor skipped) and calls
// visit with its path relative to the module root. It fails the test on
// a parse error or when fewer than 100 files were read (a wrong root).
func forModuleSources(t *testing.T, visit func(rel string, fset *token.FileSet, f *ast.File)) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch {
			case strings.HasPrefix(d.Name(), ".") && rel != ".", d.Name() == "testdata", d.Name() == "vendor",
				rel == filepath.Join("core", "cmdfacts"):
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		visit(rel, fset, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("only %d Go files read from %s", files, root)
	}
}

// copiesIn describes the owned tables n copies: n is a composite literal
// or a switch holding enough marks of one.
func copiesIn(n ast.Node) []string {
	var group []string
	switch n := n.(type) {
	case *ast.CompositeLit:
		group = stringsIn(n)
	case *ast.SwitchStmt:
		for _, s := range n.Body.List {
			for _, e := range s.(*ast.CaseClause).List {
				group = append(group, stringsIn(e)...)
			}
		}
	default:
		return nil
	}
	var out []string
	for _, tb := range ownedTables {
		if hits := tb.hits(group); len(hits) >= tb.atLeast {
			out = append(out, "a copy of "+tb.name+", owned by core/cmdfacts (holds "+strings.Join(hits, " ")+")")
		}
	}
	return out
}

// hits returns the distinct marks of tb among strs.
func (tb ownedTable) hits(strs []string) []string {
	var out []string
	for _, s := range strs {
		s = strings.ToLower(s)
		for _, m := range tb.marks {
			if (s == m || tb.contains && strings.Contains(s, m)) && !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	return out
}

// stringsIn returns the string literals under n.
func stringsIn(n ast.Node) []string {
	var out []string
	ast.Inspect(n, func(n ast.Node) bool {
		if b, ok := n.(*ast.BasicLit); ok && b.Kind == token.STRING {
			if s, err := strconv.Unquote(b.Value); err == nil {
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

// TestOwnershipCatchesACopy: the check above finds a table written the
// way a layer would re-grow one.
func TestOwnershipCatchesACopy(t *testing.T) {
	src := `package x
var shells = map[string]bool{"bash": true, "dash": true, "zsh": true}
func f(v string) bool { switch v { case "--git-dir", "--work-tree": return true }; return false }`
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		found = append(found, copiesIn(n)...)
		return true
	})
	if len(found) != 2 {
		t.Fatalf("copies found: %q, want the shell names and git's globals", found)
	}
}
