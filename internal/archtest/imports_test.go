package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/internal/modroot"
)

const module = "github.com/zcode-fence/zcode-fence/"

// tiers is the import order of the module, bottom first: a package may
// import only packages of lower tiers (never one of its own tier or
// above). Every package of the module is listed; a new one must be given
// its place here.
var tiers = [][]string{
	// 0: leaves that import nothing of the project; core/ir is the IR the
	// parsers build and every layer reads.
	{"core/ir", "core/paths", "core/steps", "core/integrity", "core/internal/atomicfile",
		"core/internal/filelock", "core/internal/lines", "core/internal/envmemo", "core/layerproto/layerpb",
		"internal/modroot", "internal/crafted", "internal/archtest", "e2e/fakeapi", "e2e/reproduce", "core/archivelist",
		"internal/testarchive"},
	// 1: the layer contract (Call, Verdict) and the command facts, both
	// over the IR.
	{"core", "core/cmdfacts", "core/session", "internal/testdirs"},
	// 2: the parsers below the walker, the rule catalog, the protocol's
	// converters.
	// redact reads wrappers' option syntax from cmdfacts.
	{"core/shell/winshell", "core/shell/oneliner", "core/shell/cdchain", "core/shell/ondisk", "core/rules",
		"redact", "core/layerproto/convert", "core/layerproto/internal/wiretest"},
	// 3: the walker, the agent-host adapters, the layer protocol.
	{"core/shell/analysis", "core/shell/ondisk/ondisktest", "core/agenthost", "core/layerproto", "core/decisionlog"},
	// 4: protected places and settings; the hosts' install readers
	// (doctor's, off the hook path).
	{"core/protect", "core/secrets", "core/config", "core/agenthost/setup"},
	// 5: the host chain, the layers, the SDK.
	{"core/host", "plugins/danger", "plugins/fence", "plugins/decisionmodel", "sdk"},
	// 6: the built-in chain and example layers.
	{"plugins", "examples/layers/protect-branch"},
	// 7: binaries, tools and end-to-end tests.
	{"cmd/zcode-fence", "cmd/benchhook", "cmd/benchhook/floor", "tools/generate", "tools/bundle", "e2e", "e2e/internal/kit"},
}

// TestImportDirection reads the imports of every non-test Go file of the
// module and fails on one that goes up or sideways in tiers, and on a
// package that has no tier.
func TestImportDirection(t *testing.T) {
	root, err := modroot.FromWorkingDir()
	if err != nil {
		t.Fatal(err)
	}
	tierOf := map[string]int{}
	for i, ps := range tiers {
		for _, p := range ps {
			if _, dup := tierOf[p]; dup {
				t.Errorf("%s is listed twice", p)
			}
			tierOf[p] = i
		}
	}
	seen := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		seen[pkg] = true
		mine, ok := tierOf[pkg]
		if !ok {
			t.Errorf("package %s has no tier in internal/archtest/imports_test.go", pkg)
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			dep, ours := strings.CutPrefix(p, module)
			if !ours {
				continue
			}
			if dt, ok := tierOf[dep]; !ok || dt >= mine {
				t.Errorf("%s (tier %d) imports %s (tier %d): imports go only to lower tiers", path, mine, dep, dt)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range tierOf {
		if !seen[p] {
			t.Errorf("tier list names %s, which has no Go files", p)
		}
	}
}
