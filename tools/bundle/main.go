// Command bundle builds zcode-fence's plugin binaries and the installable
// plugin tree. It needs nothing but the Go toolchain.
//
//	go run ./tools/bundle                       all six targets into bundle/zcode-fence/libexec
//	go run ./tools/bundle -targets host         only this machine's
//	go run ./tools/bundle -targets linux/amd64,darwin/arm64 -out /tmp/libexec
//	go run ./tools/bundle -tree DIR             the installable tree (what a release publishes), built here
//	go run ./tools/bundle -tree DIR -dist dist  the same tree from GoReleaser's dist/ (the release workflow)
//	go run ./tools/bundle -check-tag v0.2.0     does the tag name this commit's version? (exit 1 if not)
//	go run ./tools/bundle -publish-ref          the git ref the marketplaces install from
//
// Each binary is a static, stripped, reproducible build of ./cmd/zcode-fence
// (BuildArgs and BuildEnv: the flags of .goreleaser.yaml) stamped with
// -version (default core.Version), named zcode-fence-<os>-<arch>[.exe].
// Builds run in parallel, at most -jobs at once, and report progress on
// stderr as each target starts and ends; each is written to a temporary name
// and renamed into place, so a hook that starts during a rebuild never
// executes a half-written file. Afterwards SHA256SUMS in the output
// directory lists every zcode-fence-* binary there (integrity.FormatSums,
// the format `sha256sum -c` reads and the binary checks itself against).
//
// -tree DIR writes the tree the release branch holds (tree.go) into DIR, a
// new or empty directory: the marketplaces with a relative plugin source,
// the plugin with the version stamped into its manifests, the license, the
// binaries of -targets and their SHA256SUMS. With -dist it takes the
// binaries, the version and the commit from GoReleaser's dist/ instead of
// building, and checks the tree's SHA256SUMS against GoReleaser's.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bundle", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "output directory for the binaries (default: bundle/zcode-fence/libexec in the checkout)")
	targetsFlag := fs.String("targets", "all", "comma-separated os/arch list, \"host\" or \"all\"; supported: "+targetList())
	jobs := fs.Int("jobs", runtime.NumCPU(), "builds to run at once")
	version := fs.String("version", "", "version stamped into the binaries and the tree (default: core.Version, "+core.Version+")")
	tree := fs.String("tree", "", "assemble the installable plugin tree in this new or empty directory")
	dist := fs.String("dist", "", "with -tree: take binaries, version and commit from GoReleaser's dist directory")
	checkTag := fs.String("check-tag", "", "check that this release tag (vX.Y.Z) names core.Version and every manifest's version, then exit")
	publishRef := fs.Bool("publish-ref", false, "print the git ref the marketplaces install the plugin from, then exit")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "bundle: "+format+"\n", a...)
		return 2
	}
	switch {
	case fs.NArg() > 0:
		return usage("unexpected arguments %q", fs.Args())
	case *dist != "" && *tree == "":
		return usage("-dist needs -tree")
	case *tree != "" && *out != "":
		return usage("-tree and -out do not go together (the tree has its own libexec/)")
	case *dist != "" && *version != "":
		return usage("-dist takes the version from GoReleaser; leave out -version")
	}
	targets, err := ParseTargets(*targetsFlag)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if *version == "" {
		*version = core.Version
	}
	if err := CheckVersion(*version); err != nil {
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
	fail := func(err error) int { fmt.Fprintln(stderr, err); return 1 }

	switch {
	case *publishRef:
		src, err := ReadPluginSource(root)
		if err != nil {
			return fail(err)
		}
		fmt.Fprintln(stdout, src.Ref)
		return 0
	case *checkTag != "":
		if err := CheckTag(root, *checkTag, core.Version); err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "tag %s names version %s of core.Version and every manifest\n", *checkTag, core.Version)
		return 0
	case *tree != "":
		return runTree(root, *tree, *dist, *version, targets, *jobs, stdout, stderr)
	}

	outDir := *out
	if outDir == "" {
		outDir = filepath.Join(root, "bundle", "zcode-fence", "libexec")
	}
	if outDir, err = filepath.Abs(outDir); err != nil {
		return fail(fmt.Errorf("bundle: %w", err))
	}
	start := time.Now()
	b := Builder{Root: root, Go: GoCommand(), Version: *version, Jobs: *jobs, Progress: stderr}
	results, err := b.Build(context.Background(), targets, outDir)
	if err != nil {
		return fail(err)
	}
	printResults(stdout, results)
	entries, err := WriteManifest(outDir)
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "%s: %d binaries in %s (%.1fs)\n", ManifestName, len(entries), outDir, time.Since(start).Seconds())
	return 0
}

func printResults(w io.Writer, results []Result) {
	for _, r := range results {
		fmt.Fprintf(w, "%-14s %-32s %9d bytes  sha256 %s  %5.1fs\n",
			r.Target, r.Target.FileName(), r.Size, r.SHA256, r.Elapsed.Seconds())
	}
}

// runTree assembles the tree in dir from a build here or from dist.
func runTree(root, dir, dist, version string, targets []Target, jobs int, stdout, stderr io.Writer) int {
	fail := func(err error) int { fmt.Fprintln(stderr, err); return 1 }
	start := time.Now()
	dir, err := filepath.Abs(dir)
	if err != nil {
		return fail(fmt.Errorf("bundle: %w", err))
	}
	var d Dist
	commit := ""
	if dist != "" {
		if d, err = ReadDist(dist, targets); err != nil {
			return fail(err)
		}
		version, commit = d.Version, d.Commit
	} else {
		commit = gitCommit(root)
	}
	tr, err := NewTree(root, dir, version, commit)
	if err != nil {
		return fail(err)
	}
	if err := tr.WriteFiles(); err != nil {
		return fail(err)
	}
	if dist != "" {
		for _, t := range targets {
			if err := copyFile(d.Binaries[t], filepath.Join(tr.Libexec(), t.FileName())); err != nil {
				return fail(err)
			}
		}
	} else {
		b := Builder{Root: root, Go: GoCommand(), Version: version, Jobs: jobs, Progress: stderr}
		results, err := b.Build(context.Background(), targets, tr.Libexec())
		if err != nil {
			return fail(err)
		}
		printResults(stdout, results)
	}
	entries, err := WriteManifest(tr.Libexec())
	if err != nil {
		return fail(err)
	}
	if d.Sums != nil {
		sums, err := os.ReadFile(filepath.Join(tr.Libexec(), ManifestName))
		if err != nil {
			return fail(fmt.Errorf("bundle: %w", err))
		}
		if err := CheckDistSums(sums, d.Sums, len(targets) == len(AllTargets)); err != nil {
			return fail(err)
		}
	}
	fmt.Fprintf(stdout, "tree: %s, zcode-fence %s from %s, plugin %s (installed from ref %q on the default branch's marketplaces)\n",
		dir, version, commit, tr.Source.Path, tr.Source.Ref)
	for _, e := range entries {
		fmt.Fprintf(stdout, "  %s  %s  %d bytes\n", e.SHA256, e.File, e.Size)
	}
	fmt.Fprintf(stdout, "tree written in %.1fs\n", time.Since(start).Seconds())
	return 0
}
