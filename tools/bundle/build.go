package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/zcode-fence/zcode-fence/core/integrity"
)

// modulePath is the module this tool builds; it finds the checkout root by it.
const modulePath = "github.com/zcode-fence/zcode-fence"

// mainPackage is the command that goes into the bundle.
const mainPackage = "./cmd/zcode-fence"

// versionVar is the variable the linker stamps with the build's version.
const versionVar = modulePath + "/core.Version"

// Target is one GOOS/GOARCH pair.
type Target struct{ OS, Arch string }

func (t Target) String() string { return t.OS + "/" + t.Arch }

// FileName is the binary's name in libexec/, as the launchers expect it.
func (t Target) FileName() string {
	name := "zcode-fence-" + t.OS + "-" + t.Arch
	if t.OS == "windows" {
		name += ".exe"
	}
	return name
}

// AllTargets are the platforms the bundle ships, in manifest order.
var AllTargets = []Target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// ParseTargets reads a comma-separated list of os/arch pairs. "all" (or an
// empty list) means AllTargets; "host" means the machine running the tool.
// Only supported targets are accepted; duplicates are dropped.
func ParseTargets(list string) ([]Target, error) {
	list = strings.TrimSpace(list)
	if list == "" || list == "all" {
		return slices.Clone(AllTargets), nil
	}
	var out []Target
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		var t Target
		if item == "host" {
			t = Target{runtime.GOOS, runtime.GOARCH}
		} else {
			osName, arch, ok := strings.Cut(item, "/")
			if !ok {
				return nil, fmt.Errorf("bundle: target %q is not os/arch", item)
			}
			t = Target{osName, arch}
		}
		if !slices.Contains(AllTargets, t) {
			return nil, fmt.Errorf("bundle: target %q is not supported (supported: %s)", item, targetList())
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("bundle: no targets given")
	}
	return out, nil
}

func targetList() string {
	names := make([]string, len(AllTargets))
	for i, t := range AllTargets {
		names[i] = t.String()
	}
	return strings.Join(names, ", ")
}

// versionRE is what a version stamped into a build may look like: semver,
// with an optional pre-release (0.2.0, 0.2.1-snapshot.1a2b3c4).
var versionRE = regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`)

// CheckVersion rejects a version that is not semver (it ends up in -ldflags
// and in the manifests).
func CheckVersion(v string) error {
	if !versionRE.MatchString(v) {
		return fmt.Errorf("bundle: version %q is not semver (MAJOR.MINOR.PATCH[-PRERELEASE])", v)
	}
	return nil
}

// BuildArgs are the arguments of `go` for one bundle binary: static,
// stripped, no file paths, no VCS stamp and an empty build ID, so the bytes
// depend only on the source, the Go version and the target. They are the
// flags of .goreleaser.yaml's build (TestGoreleaserConfigMatches checks the
// file; e2e/reproduce checks the two produce the same bytes).
func BuildArgs(version, out string) []string {
	return []string{"build", "-trimpath", "-buildvcs=false",
		"-ldflags=-s -w -buildid= -X " + versionVar + "=" + version,
		"-o", out, mainPackage}
}

// BuildEnv is the environment added for target t: no cgo, and the baseline
// CPU level GoReleaser also builds for (GOAMD64=v1, GOARM64=v8.0), whatever
// the caller's environment says.
func BuildEnv(t Target) []string {
	env := []string{"CGO_ENABLED=0", "GOOS=" + t.OS, "GOARCH=" + t.Arch}
	switch t.Arch {
	case "amd64":
		env = append(env, "GOAMD64=v1")
	case "arm64":
		env = append(env, "GOARM64=v8.0")
	}
	return env
}

// Result is one finished build.
type Result struct {
	Target  Target
	Path    string
	Size    int64
	SHA256  string
	Elapsed time.Duration
}

// Builder compiles the main package of the checkout at Root.
type Builder struct {
	Root string // the module root (directory holding go.mod)
	Go   string // the go command
	// Version is stamped into core.Version (CheckVersion must accept it).
	Version string
	// Jobs bounds the builds running at once (at least 1).
	Jobs int
	// Progress, when set, gets one line when each target starts and one
	// when it ends, as they happen (a full build takes minutes).
	Progress io.Writer
}

// Build compiles every target into outDir and returns the results in the
// order of targets. It stops at the first failure, after the builds already
// running have finished; the error names the target and carries go's output.
func (b Builder) Build(ctx context.Context, targets []Target, outDir string) ([]Result, error) {
	if err := CheckVersion(b.Version); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	stage, err := os.MkdirTemp(outDir, ".bundle-build-")
	if err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	defer os.RemoveAll(stage)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := max(b.Jobs, 1)
	sem := make(chan struct{}, jobs)
	results := make([]Result, len(targets))
	errs := make([]error, len(targets))
	var mu sync.Mutex
	progress := func(format string, args ...any) {
		if b.Progress == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(b.Progress, format+"\n", args...)
	}
	var wg sync.WaitGroup
	for i, t := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				errs[i] = ctx.Err()
				return
			}
			defer func() { <-sem }()
			progress("bundle: [%d/%d] %s: building %s %s", i+1, len(targets), t, t.FileName(), b.Version)
			results[i], errs[i] = b.buildOne(ctx, t, stage, outDir)
			if errs[i] != nil {
				if !errors.Is(errs[i], context.Canceled) {
					progress("bundle: [%d/%d] %s: failed", i+1, len(targets), t)
				}
				cancel()
				return
			}
			r := results[i]
			progress("bundle: [%d/%d] %s: done in %.1fs, %.1f MB", i+1, len(targets), t, r.Elapsed.Seconds(), float64(r.Size)/1e6)
		}()
	}
	wg.Wait()
	// Report the first real failure, not the cancellations it caused.
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}

func (b Builder) buildOne(ctx context.Context, t Target, stage, outDir string) (Result, error) {
	start := time.Now()
	tmp := filepath.Join(stage, t.FileName())
	cmd := exec.CommandContext(ctx, b.Go, BuildArgs(b.Version, tmp)...)
	cmd.Dir = b.Root
	cmd.Env = append(os.Environ(), BuildEnv(t)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return Result{}, fmt.Errorf("bundle: go build %s: %v\n%s", t, err, strings.TrimSpace(string(out)))
	}
	dst := filepath.Join(outDir, t.FileName())
	if err := os.Chmod(tmp, 0o755); err != nil {
		return Result{}, fmt.Errorf("bundle: %s: %w", t, err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return Result{}, fmt.Errorf("bundle: %s: %w", t, err)
	}
	sum, size, err := integrity.HashFile(dst)
	if err != nil {
		return Result{}, fmt.Errorf("bundle: %s: %w", t, err)
	}
	return Result{Target: t, Path: dst, Size: size, SHA256: sum, Elapsed: time.Since(start)}, nil
}

// ManifestName is the checksum manifest written next to the binaries.
const ManifestName = integrity.SumsFile

// ManifestEntry is one line of SHA256SUMS.
type ManifestEntry struct {
	File   string
	SHA256 string
	Size   int64
}

// WriteManifest hashes every supported binary present in dir and writes
// dir/SHA256SUMS (integrity.FormatSums: "<hex>  <file>" lines sorted by file
// name), replacing it atomically. It returns the entries written. Binaries
// of other builds left in dir are included, so the manifest always
// describes the directory.
func WriteManifest(dir string) ([]ManifestEntry, error) {
	var entries []ManifestEntry
	var sums []integrity.Sum
	for _, t := range AllTargets {
		path := filepath.Join(dir, t.FileName())
		sum, size, err := integrity.HashFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("bundle: manifest: %w", err)
		}
		entries = append(entries, ManifestEntry{File: t.FileName(), SHA256: sum, Size: size})
		sums = append(sums, integrity.Sum{File: t.FileName(), SHA256: sum})
	}
	slices.SortFunc(entries, func(a, b ManifestEntry) int { return strings.Compare(a.File, b.File) })
	if err := writeFileAtomic(filepath.Join(dir, ManifestName), integrity.FormatSums(sums), 0o644); err != nil {
		return nil, fmt.Errorf("bundle: manifest: %w", err)
	}
	return entries, nil
}

// writeFileAtomic writes data to path through a temporary file in the same
// directory, renamed into place.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".manifest-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// FindModuleRoot walks up from dir to the directory whose go.mod declares
// this module.
func FindModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && declaresModule(string(data)) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("bundle: no go.mod for %s above the current directory; run this inside a zcode-fence checkout", modulePath)
		}
		dir = parent
	}
}

func declaresModule(gomod string) bool {
	for _, line := range strings.Split(gomod, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "module" && strings.Trim(f[1], `"`) == modulePath {
			return true
		}
	}
	return false
}

// GoCommand finds the go tool: the one on PATH, else the one in GOROOT.
func GoCommand() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	exe := "go"
	if runtime.GOOS == "windows" {
		exe = "go.exe"
	}
	if p := filepath.Join(runtime.GOROOT(), "bin", exe); fileExists(p) {
		return p
	}
	return "go"
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
