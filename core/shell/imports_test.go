package shell_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/zcode-fence/zcode-fence/"

// allowedImports is the one-way order of the shell packages: each may
// import only the project packages listed for it (the standard library
// and mvdan.cc/sh are not listed).
var allowedImports = map[string][]string{
	"core/shell":                   {},
	"core/cmdfacts":                {"core/shell"},
	"core/shell/winshell":          {"core/shell"},
	"core/shell/oneliner":          {"core/cmdfacts"},
	"core/shell/ondisk":            {"core/cmdfacts"},
	"core/shell/ondisk/ondisktest": {"core/shell/ondisk"},
	"core/shell/analysis":          {"core/shell", "core/cmdfacts", "core/shell/winshell", "core/shell/oneliner", "core/shell/ondisk"},
	"core/shell/cdchain":           {"core/shell", "core/steps"},
}

// TestImportDirection reads the imports of every non-test file of the
// shell packages and fails on one that goes against the order: the types
// import nothing, the splitters and the one-liner scanner never import the
// walker, and no shell package imports a layer or the host.
func TestImportDirection(t *testing.T) {
	for pkg, allowed := range allowedImports {
		files, err := filepath.Glob(filepath.Join("../..", pkg, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		read := 0
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			read++
			for _, imp := range af.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				dep, ours := strings.CutPrefix(path, module)
				if ours && !slices.Contains(allowed, dep) {
					t.Errorf("%s imports %s; %s may import only %q", f, dep, pkg, allowed)
				}
			}
		}
		if read == 0 {
			t.Errorf("%s: no Go files read", pkg)
		}
	}
}
