package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func hostTarget() Target { return Target{runtime.GOOS, runtime.GOARCH} }

func TestParseTargets(t *testing.T) {
	var cases []struct {
		List  string   `json:"list"`
		Want  []string `json:"want"`
		Error string   `json:"error"`
	}
	data, err := os.ReadFile(filepath.Join("testdata", "targets.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	hostSupported := slices.Contains(AllTargets, hostTarget())
	for _, c := range cases {
		t.Run(fmt.Sprintf("%q", c.List), func(t *testing.T) {
			got, err := ParseTargets(c.List)
			wantErr := c.Error
			if slices.Contains(c.Want, "{{HOST}}") && !hostSupported {
				wantErr = "is not supported"
			}
			if wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), wantErr) {
					t.Fatalf("ParseTargets(%q) = %v, %v; want an error containing %q", c.List, got, err, wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseTargets(%q): %v", c.List, err)
			}
			var names []string
			for _, tg := range got {
				names = append(names, tg.String())
			}
			want := slices.Clone(c.Want)
			for i, w := range want {
				if w == "{{HOST}}" {
					want[i] = hostTarget().String()
				}
			}
			if !slices.Equal(names, want) {
				t.Errorf("ParseTargets(%q) = %v, want %v", c.List, names, want)
			}
		})
	}
}

// TestParseTargetsAllIsACopy: changing the result must not change AllTargets.
func TestParseTargetsAllIsACopy(t *testing.T) {
	got, err := ParseTargets("all")
	if err != nil {
		t.Fatal(err)
	}
	got[0] = Target{"plan9", "386"}
	if AllTargets[0] == got[0] {
		t.Fatal("ParseTargets(all) returned AllTargets itself")
	}
}

// TestFileNames pins the names the sh and cmd launchers look for.
func TestFileNames(t *testing.T) {
	want := []string{
		"zcode-fence-linux-amd64", "zcode-fence-linux-arm64",
		"zcode-fence-darwin-amd64", "zcode-fence-darwin-arm64",
		"zcode-fence-windows-amd64.exe", "zcode-fence-windows-arm64.exe",
	}
	var got []string
	for _, tg := range AllTargets {
		got = append(got, tg.FileName())
	}
	if !slices.Equal(got, want) {
		t.Errorf("file names %v, want %v", got, want)
	}
	launcher, err := os.ReadFile(filepath.Join("..", "..", "bundle", "zcode-fence", "libexec", "zcode-fence"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(launcher, []byte("bin=$dir/zcode-fence-$os-$arch")) {
		t.Error("the sh launcher no longer builds zcode-fence-$os-$arch; keep Target.FileName and it in step")
	}
}

func sha(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func TestWriteManifest(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{
		"zcode-fence-windows-arm64.exe": []byte("windows arm64 binary"),
		"zcode-fence-linux-amd64":       []byte("linux amd64 binary"),
		"zcode-fence-darwin-arm64":      {},
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Not binaries of a supported target: left out of the manifest.
	for _, name := range []string{"zcode-fence", "zcode-fence.cmd", "zcode-fence-plan9-386", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := WriteManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []ManifestEntry{
		{File: "zcode-fence-darwin-arm64", SHA256: sha(nil), Size: 0},
		{File: "zcode-fence-linux-amd64", SHA256: sha(files["zcode-fence-linux-amd64"]), Size: int64(len(files["zcode-fence-linux-amd64"]))},
		{File: "zcode-fence-windows-arm64.exe", SHA256: sha(files["zcode-fence-windows-arm64.exe"]), Size: int64(len(files["zcode-fence-windows-arm64.exe"]))},
	}
	if !slices.Equal(entries, want) {
		t.Errorf("entries\n got %+v\nwant %+v", entries, want)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var wantText strings.Builder
	for _, e := range want {
		fmt.Fprintf(&wantText, "%s  %s\n", e.SHA256, e.File)
	}
	if string(manifest) != wantText.String() {
		t.Errorf("%s:\n%s\nwant:\n%s", ManifestName, manifest, wantText.String())
	}
	if st, err := os.Stat(filepath.Join(dir, ManifestName)); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("%s mode %v (%v), want 0644", ManifestName, st.Mode(), err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".manifest-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	// The format is the one sha256sum -c reads.
	if sum, err := exec.LookPath("sha256sum"); err == nil {
		cmd := exec.Command(sum, "-c", "--strict", ManifestName)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("sha256sum -c: %v\n%s", err, out)
		}
	} else {
		t.Log("sha256sum not installed: the manifest was checked against the format only")
	}

	// A rewrite describes the directory as it is now.
	if err := os.Remove(filepath.Join(dir, "zcode-fence-linux-amd64")); err != nil {
		t.Fatal(err)
	}
	entries, err = WriteManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0].File != "zcode-fence-darwin-arm64" || entries[1].File != "zcode-fence-windows-arm64.exe" {
		t.Errorf("after removing a binary: %+v", entries)
	}
}

func TestWriteManifestEmptyDir(t *testing.T) {
	dir := t.TempDir()
	entries, err := WriteManifest(dir)
	if err != nil || len(entries) != 0 {
		t.Fatalf("WriteManifest(empty) = %v, %v", entries, err)
	}
	data, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil || len(data) != 0 {
		t.Errorf("manifest of an empty dir = %q, %v; want an empty file", data, err)
	}
}

func TestFindModuleRoot(t *testing.T) {
	root, err := FindModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.Abs(filepath.Join("..", ".."))
	if root != want {
		t.Errorf("FindModuleRoot(.) = %s, want %s", root, want)
	}
	// A module of another name does not count.
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, err := FindModuleRoot(other); err == nil || !strings.Contains(err.Error(), modulePath) {
		t.Errorf("FindModuleRoot(other module) = %q, %v; want an error naming %s", r, err, modulePath)
	}
	for _, gomod := range []string{"module github.com/zcode-fence/zcode-fence\n", "// x\nmodule \"github.com/zcode-fence/zcode-fence\" // quoted\n"} {
		if !declaresModule(gomod) {
			t.Errorf("declaresModule(%q) = false", gomod)
		}
	}
	if declaresModule("module github.com/zcode-fence/zcode-fence/sub\n") {
		t.Error("a submodule path matched")
	}
}

func TestRunRejectsBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"-targets", "plan9/386"},
		{"-targets", "linux"},
		{"extra"},
		{"-no-such-flag"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("run %q = %d, want 2", args, code)
		}
		if stdout.Len() != 0 || stderr.Len() == 0 {
			t.Errorf("run %q: stdout %q, stderr %q; want only a message on stderr", args, stdout.String(), stderr.String())
		}
	}
}

// TestBuildFailureNamesTheTarget builds a module without ./cmd/zcode-fence.
func TestBuildFailureNamesTheTarget(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module "+modulePath+"\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "libexec")
	b := Builder{Root: root, Go: GoCommand(), Version: "0.0.0", Jobs: 2}
	_, err := b.Build(context.Background(), []Target{{"linux", "arm64"}, {"windows", "amd64"}}, out)
	if err == nil || !strings.HasPrefix(err.Error(), "bundle: go build ") || !strings.Contains(err.Error(), "cmd/zcode-fence") {
		t.Fatalf("Build error %v, want bundle: go build <target>: ... naming cmd/zcode-fence", err)
	}
	left, _ := os.ReadDir(out)
	if len(left) != 0 {
		t.Errorf("a failed build left %v in %s", left, out)
	}
}

// TestBuildHost builds the real command for this machine, as the e2e tests
// and a user's `go run ./tools/bundle -targets host` do, and runs it.
func TestBuildHost(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping a real go build")
	}
	host := hostTarget()
	if !slices.Contains(AllTargets, host) {
		t.Skipf("this machine (%s) is not a bundle target", host)
	}
	root, err := FindModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "lib exec") // a space, as in real plugin roots
	var stdout, stderr bytes.Buffer
	t.Chdir(root) // run finds the module from the working directory
	code := run([]string{"-targets", "host", "-out", out, "-version", "9.8.7-test.1"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("run -targets host: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	t.Logf("%s", strings.TrimSpace(stdout.String()))
	// Progress, as each target starts and ends.
	progress := stderr.String()
	if !strings.Contains(progress, "bundle: [1/1] "+host.String()+": building "+host.FileName()+" 9.8.7-test.1\n") ||
		!regexp.MustCompile(`bundle: \[1/1\] `+host.String()+`: done in \d+\.\ds, \d+\.\d MB\n`).MatchString(progress) {
		t.Errorf("progress on stderr:\n%s", progress)
	}
	bin := filepath.Join(out, host.FileName())
	st, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm()&0o111 == 0 && runtime.GOOS != "windows" {
		t.Errorf("%s is not executable: %v", bin, st.Mode())
	}
	names, _ := os.ReadDir(out)
	var listed []string
	for _, e := range names {
		listed = append(listed, e.Name())
	}
	if !slices.Equal(listed, []string{ManifestName, host.FileName()}) {
		t.Errorf("output dir holds %v, want only the binary and %s", listed, ManifestName)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	manifest, _ := os.ReadFile(filepath.Join(out, ManifestName))
	if want := sha(data) + "  " + host.FileName() + "\n"; string(manifest) != want {
		t.Errorf("%s = %q, want %q", ManifestName, manifest, want)
	}
	version, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(version), "zcode-fence 9.8.7-test.1 ") {
		t.Errorf("%s version: %q, %v; want the -version stamped in", bin, version, err)
	}
	if runtime.GOOS == "linux" {
		f, err := elf.Open(bin)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Error("the binary has an ELF interpreter: it is not static (CGO_ENABLED=0)")
			}
		}
		if f.Section(".symtab") != nil {
			t.Error("the binary has a symbol table: it is not stripped (-s -w)")
		}
	}
}
