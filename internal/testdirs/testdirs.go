// Package testdirs finds where tests may put fixtures that must lie OUTSIDE
// every directory the fence treats as writable: a fake project whose
// "outside" writes must be judged outside, an external layer the guard
// refuses to run from a writable root, an e2e run's fake home. It is the one
// copy of that choice for the cmd/zcode-fence and e2e tests.
//
// A fixture under os.UserCacheDir() ($HOME/.cache) is outside on a usual
// machine but inside /tmp when HOME is under /tmp (CI, containers), and a
// TMPDIR elsewhere moves the temp root with it: the writable roots are read
// from the guard itself (paths.Native().WritableRoots), never re-listed here.
package testdirs

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/internal/modroot"
)

// EnvVar names the folder to use instead of the default choice. It must be
// outside every temp root; a value that is not is an error, never ignored.
const EnvVar = "ZCODE_FENCE_E2E_CACHE"

// Outside returns a directory (created if missing) outside every writable
// temp root of this process's environment and outside the checkout (some
// tests take the checkout as their project): $ZCODE_FENCE_E2E_CACHE when
// set, else the first of these that qualifies:
//
//   - os.UserCacheDir()/name ($XDG_CACHE_HOME or $HOME/.cache);
//   - <account home>/.cache/name, the home the user database gives (not
//     $HOME, which tests and CI point under /tmp);
//   - <checkout's parent>/.zcode-fence-test-cache/name.
//
// When none does, the error names each candidate and why it was refused,
// and how to fix it; callers fail or skip with it, never fall back to a
// place inside a root. Cost: a few stat and readlink calls.
func Outside(name string) (string, error) {
	module, modErr := modroot.FromWorkingDir()
	if d := os.Getenv(EnvVar); d != "" {
		if err := check(d, module); err != nil {
			return "", fmt.Errorf("testdirs: %s=%s: %w", EnvVar, d, err)
		}
		return d, nil
	}
	var candidates, why []string
	if base, err := os.UserCacheDir(); err != nil {
		why = append(why, "user cache dir: "+err.Error())
	} else {
		candidates = append(candidates, filepath.Join(base, name))
	}
	if u, err := user.Current(); err != nil || u.HomeDir == "" {
		why = append(why, fmt.Sprintf("account home: %v", err))
	} else {
		candidates = append(candidates, filepath.Join(u.HomeDir, ".cache", name))
	}
	if modErr != nil {
		why = append(why, "checkout: "+modErr.Error())
	} else {
		candidates = append(candidates, filepath.Join(filepath.Dir(module), ".zcode-fence-test-cache", name))
	}
	for _, d := range candidates {
		err := check(d, module)
		if err == nil {
			return d, nil
		}
		why = append(why, d+": "+err.Error())
	}
	return "", fmt.Errorf("testdirs: no folder outside every writable temp root and the checkout (%s); set %s to one", strings.Join(why, "; "), EnvVar)
}

// check creates d and reports an error when it lies inside a writable temp
// root as the guard computes them for this environment, or inside the
// checkout module ("" when unknown).
func check(d, module string) error {
	if !filepath.IsAbs(d) {
		return errors.New("not an absolute path")
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		return err
	}
	p := paths.Native()
	if module != "" && p.IsWritable(p.Clean(d), []paths.Path{p.RealPath(p.Clean(module))}) {
		return errors.New("inside the checkout, which some tests take as their project")
	}
	// The project root is WritableRoots' first item; a path that cannot be
	// a project stands in, and only the roots after it are the temp roots.
	roots := p.WritableRoots(p.Clean(filepath.Join(string(filepath.Separator), "zcode-fence-testdirs-no-project")).Norm, "")
	if len(roots) > 1 && p.IsWritable(p.Clean(d), roots[1:]) {
		return errors.New("inside a writable temp root (HOME, XDG_CACHE_HOME or the folder itself under a temp dir?)")
	}
	return nil
}
