// Command bundle cross-compiles zcode-fence for every platform the plugin
// bundle supports and writes the binaries, with a checksum manifest, into the
// bundle's libexec/ directory, where the launcher finds them:
//
//	go run ./tools/bundle                       all six targets
//	go run ./tools/bundle -targets host         only this machine's
//	go run ./tools/bundle -targets linux/amd64,darwin/arm64 -out /tmp/libexec
//
// Each binary is a static, stripped build of ./cmd/zcode-fence
// (CGO_ENABLED=0, -trimpath, -ldflags="-s -w", -buildvcs=false) named
// zcode-fence-<os>-<arch>[.exe]. Builds run in parallel, at most one per CPU;
// each is written to a temporary name and renamed into place, so a hook that
// starts during a rebuild never executes a half-written file. Afterwards
// SHA256SUMS in the output directory lists every zcode-fence-* binary there,
// in the format `sha256sum -c` reads. It needs nothing but the Go toolchain.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// modulePath is the module this tool builds; it finds the checkout root by it.
const modulePath = "github.com/zcode-fence/zcode-fence"

// mainPackage is the command that goes into the bundle.
const mainPackage = "./cmd/zcode-fence"

// ManifestName is the checksum manifest written next to the binaries.
const ManifestName = "SHA256SUMS"

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
	// Jobs bounds the builds running at once (at least 1).
	Jobs int
}

// Build compiles every target into outDir and returns the results in the
// order of targets. It stops at the first failure, after the builds already
// running have finished; the error names the target and carries go's output.
func (b Builder) Build(ctx context.Context, targets []Target, outDir string) ([]Result, error) {
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
			results[i], errs[i] = b.buildOne(ctx, t, stage, outDir)
			if errs[i] != nil {
				cancel()
			}
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
	cmd := exec.CommandContext(ctx, b.Go, "build", "-trimpath", "-buildvcs=false",
		"-ldflags=-s -w", "-o", tmp, mainPackage)
	cmd.Dir = b.Root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.OS, "GOARCH="+t.Arch)
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
	sum, size, err := hashFile(dst)
	if err != nil {
		return Result{}, fmt.Errorf("bundle: %s: %w", t, err)
	}
	return Result{Target: t, Path: dst, Size: size, SHA256: sum, Elapsed: time.Since(start)}, nil
}

func hashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// ManifestEntry is one line of SHA256SUMS.
type ManifestEntry struct {
	File   string
	SHA256 string
	Size   int64
}

// WriteManifest hashes every supported binary present in dir and writes
// dir/SHA256SUMS ("<hex>  <file>" lines sorted by file name), replacing it
// atomically. It returns the entries written. Binaries of other builds left
// in dir are included, so the manifest always describes the directory.
func WriteManifest(dir string) ([]ManifestEntry, error) {
	var entries []ManifestEntry
	for _, t := range AllTargets {
		path := filepath.Join(dir, t.FileName())
		sum, size, err := hashFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("bundle: manifest: %w", err)
		}
		entries = append(entries, ManifestEntry{File: t.FileName(), SHA256: sum, Size: size})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].File < entries[j].File })
	var sb strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&sb, "%s  %s\n", e.SHA256, e.File)
	}
	tmp, err := os.CreateTemp(dir, ".manifest-")
	if err != nil {
		return nil, fmt.Errorf("bundle: manifest: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(sb.String()); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("bundle: manifest: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("bundle: manifest: %w", err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return nil, fmt.Errorf("bundle: manifest: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, ManifestName)); err != nil {
		return nil, fmt.Errorf("bundle: manifest: %w", err)
	}
	return entries, nil
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

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bundle", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "output directory (default: bundle/zcode-fence/libexec in the checkout)")
	targetsFlag := fs.String("targets", "all", "comma-separated os/arch list, \"host\" or \"all\"; supported: "+targetList())
	jobs := fs.Int("jobs", runtime.NumCPU(), "builds to run at once")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "bundle: unexpected arguments %q\n", fs.Args())
		return 2
	}
	targets, err := ParseTargets(*targetsFlag)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "bundle:", err)
		return 1
	}
	root, err := FindModuleRoot(wd)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	outDir := *out
	if outDir == "" {
		outDir = filepath.Join(root, "bundle", "zcode-fence", "libexec")
	}
	if outDir, err = filepath.Abs(outDir); err != nil {
		fmt.Fprintln(stderr, "bundle:", err)
		return 1
	}

	start := time.Now()
	b := Builder{Root: root, Go: GoCommand(), Jobs: *jobs}
	results, err := b.Build(context.Background(), targets, outDir)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	for _, r := range results {
		fmt.Fprintf(stdout, "%-14s %-32s %9d bytes  sha256 %s  %5.1fs\n",
			r.Target, r.Target.FileName(), r.Size, r.SHA256, r.Elapsed.Seconds())
	}
	entries, err := WriteManifest(outDir)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d binaries in %s (%.1fs)\n", ManifestName, len(entries), outDir, time.Since(start).Seconds())
	return 0
}
