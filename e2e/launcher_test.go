package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/e2e/internal/kit"
)

type launcherPlatform struct {
	UnameS   string `json:"uname_s"`
	UnameM   string `json:"uname_m"`
	Binary   string `json:"binary"`   // the file the launcher must run
	Platform string `json:"platform"` // when no binary fits: the name in the ask line
}

// fakeUname answers -s and -m from the environment, like a host would.
const fakeUname = `#!/bin/sh
case "$1" in
-s) printf '%s\n' "$FAKE_UNAME_S" ;;
-m) printf '%s\n' "$FAKE_UNAME_M" ;;
*) printf '%s\n' "$FAKE_UNAME_S" ;;
esac
`

// fakeBinary reports how it was started, echoes stdin, and exits 3 so the
// test can see the launcher exec'd it (the status comes through unchanged).
const fakeBinary = `#!/bin/sh
printf 'BINARY %s\n' "${0##*/}"
printf 'ARGC %d\n' "$#"
for a in "$@"; do printf 'ARG [%s]\n' "$a"; done
printf 'STDIN\n'
cat
exit 3
`

var launcherArgs = []string{"--eval", "two words", "", `quo"te`, "$HOME", "*", "new\nline", "-x"}

func launcherStdin() []byte {
	var b bytes.Buffer
	b.WriteString(`{"tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}` + "\n")
	for i := 0; b.Len() < 256<<10; i++ {
		b.WriteByte(byte(i * 7))
	}
	b.WriteString("no newline at the end")
	return b.Bytes()
}

func wantFakeOutput(binary string, args []string, stdin []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "BINARY %s\nARGC %d\n", binary, len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "ARG [%s]\n", a)
	}
	b.WriteString("STDIN\n")
	b.Write(stdin)
	return b.Bytes()
}

// launcherWorld is a plugin root (with a space in its path) holding a copy
// of the sh launcher, and a directory with the fake uname.
type launcherWorld struct {
	root, libexec, fakeBin string
}

func newLauncherWorld(t *testing.T) launcherWorld {
	t.Helper()
	dir := t.TempDir()
	w := launcherWorld{
		root:    filepath.Join(dir, "plugin root"),
		fakeBin: filepath.Join(dir, "fake bin"),
	}
	w.libexec = filepath.Join(w.root, "libexec")
	kit.CopyFile(t, filepath.Join(bundleDir(t), "libexec", "zcode-fence"), filepath.Join(w.libexec, "zcode-fence"))
	writeExec(t, filepath.Join(w.fakeBin, "uname"), fakeUname)
	return w
}

func writeExec(t *testing.T, path, content string) {
	t.Helper()
	writeFile(t, path, content)
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

// run starts the launcher through argv (shell then script, or the script
// alone when argv is empty) with the fake uname first on PATH.
func (w launcherWorld) run(t *testing.T, argv []string, p launcherPlatform, args []string, stdin []byte) (stdout, stderr []byte, code int) {
	t.Helper()
	launcher := filepath.Join(w.libexec, "zcode-fence")
	full := append(append(append([]string{}, argv...), launcher), args...)
	cmd := exec.Command(full[0], full[1:]...)
	cmd.Env = append(os.Environ(),
		"PATH="+w.fakeBin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"FAKE_UNAME_S="+p.UnameS, "FAKE_UNAME_M="+p.UnameM)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("run %q: %v", full, err)
	}
	return out.Bytes(), errb.Bytes(), code
}

// shells are the ways the launcher gets started: by its #! line, and by
// every POSIX shell installed here.
func shells(t *testing.T) [][]string {
	ways := [][]string{nil}
	for _, sh := range []string{"sh", "dash", "bash", "mksh", "ksh", "zsh", "busybox"} {
		p, err := exec.LookPath(sh)
		if err != nil {
			continue
		}
		if sh == "busybox" {
			ways = append(ways, []string{p, "sh"})
		} else {
			ways = append(ways, []string{p})
		}
	}
	return ways
}

func loadPlatforms(t *testing.T) []launcherPlatform {
	var ps []launcherPlatform
	kit.ReadJSON(t, filepath.Join("testdata", "launcher-platforms.json"), &ps)
	if len(ps) == 0 {
		t.Fatal("no platforms in testdata")
	}
	return ps
}

func notInstalledLine(t *testing.T, platform string) []byte {
	golden, err := os.ReadFile(filepath.Join("testdata", "launcher-not-installed.golden"))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.ReplaceAll(golden, []byte("PLATFORM"), []byte(platform))
}

func needSh(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skipf("no sh on this machine (%s): the sh launcher cannot run here", runtime.GOOS)
	}
}

// TestShLauncherExecsTheMatchingBinary puts a fake binary for every target
// in libexec/ and checks that each platform starts exactly its own, with
// arguments, stdin and exit status intact.
func TestShLauncherExecsTheMatchingBinary(t *testing.T) {
	needSh(t)
	w := newLauncherWorld(t)
	for _, name := range []string{"linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64.exe", "windows-arm64.exe"} {
		writeExec(t, filepath.Join(w.libexec, "zcode-fence-"+name), fakeBinary)
	}
	stdin := launcherStdin()
	for _, p := range loadPlatforms(t) {
		if p.Binary == "" {
			continue
		}
		for _, argv := range shells(t) {
			t.Run(fmt.Sprintf("%s_%s_via_%v", p.UnameS, p.UnameM, argv), func(t *testing.T) {
				stdout, stderr, code := w.run(t, argv, p, launcherArgs, stdin)
				if code != 3 {
					t.Errorf("exit %d, want the binary's 3 (stderr %q)", code, stderr)
				}
				if want := wantFakeOutput(p.Binary, launcherArgs, stdin); !bytes.Equal(stdout, want) {
					t.Errorf("stdout differs from what %s should print: got %d bytes, first line %q", p.Binary, len(stdout), firstLine(stdout))
				}
				if len(stderr) != 0 {
					t.Errorf("stderr %q", stderr)
				}
			})
		}
	}
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return s
}

// TestShLauncherWithoutBinaryAsks checks every platform with no usable
// binary (none there, or one without the execute bit) answers the exact ask
// line and exits 0, without reading or echoing stdin.
func TestShLauncherWithoutBinaryAsks(t *testing.T) {
	needSh(t)
	for _, p := range loadPlatforms(t) {
		platform := p.Platform
		if p.Binary != "" {
			platform = strings.TrimSuffix(strings.TrimPrefix(p.Binary, "zcode-fence-"), ".exe")
		}
		for _, variant := range []string{"missing", "not-executable"} {
			if variant == "not-executable" && p.Binary == "" {
				continue
			}
			t.Run(fmt.Sprintf("%s_%s_%s", p.UnameS, p.UnameM, variant), func(t *testing.T) {
				w := newLauncherWorld(t)
				// Another platform's binary is there; it must not be used.
				other := "zcode-fence-linux-amd64"
				if p.Binary == other {
					other = "zcode-fence-darwin-arm64"
				}
				writeExec(t, filepath.Join(w.libexec, other), fakeBinary)
				if variant == "not-executable" {
					writeFile(t, filepath.Join(w.libexec, p.Binary), fakeBinary)
					if err := os.Chmod(filepath.Join(w.libexec, p.Binary), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want := notInstalledLine(t, platform)
				for _, argv := range shells(t) {
					stdout, stderr, code := w.run(t, argv, p, []string{}, launcherStdin())
					if code != 0 || !bytes.Equal(stdout, want) || len(stderr) != 0 {
						t.Errorf("via %v: exit %d, stdout %q, stderr %q; want exit 0 and %q", argv, code, stdout, stderr, want)
						continue
					}
					reason := checkAskLine(t, stdout)
					if !strings.HasPrefix(reason, "[zcode-fence: not installed]") || !strings.Contains(reason, platform) || !strings.Contains(reason, "go run ./tools/bundle") {
						t.Errorf("reason %q", reason)
					}
				}
			})
		}
	}
}

// TestHookCommandRunsTheLauncher runs hooks.json's command string the way
// the hosts do (variables substituted, then a shell) from a root whose path
// has a space, with a real zcode-fence binary.
func TestHookCommandRunsTheLauncher(t *testing.T) {
	needSh(t)
	var doc struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string } `json:"hooks"`
		} `json:"hooks"`
	}
	kit.ReadJSON(t, filepath.Join(bundleDir(t), "hooks", "hooks.json"), &doc)
	command := doc.Hooks["PreToolUse"][0].Hooks[0].Command
	w := newLauncherWorld(t)
	kit.CopyFile(t, hostBinary(t), filepath.Join(w.libexec, kit.HostBinaryName()))
	line := strings.ReplaceAll(command, "${CLAUDE_PLUGIN_ROOT}", w.root)
	cmd := exec.Command("sh", "-c", line+" version")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s version: %v: %s", line, err, out)
	}
	if want := fmt.Sprintf("zcode-fence %s (%s/%s", kit.CoreVersion(t), runtime.GOOS, runtime.GOARCH); !strings.HasPrefix(string(out), want) {
		t.Errorf("version output %q, want prefix %q", out, want)
	}
}

// TestCmdLauncher checks the cmd.exe launcher: on Windows it is run for
// real; elsewhere its fallback line is checked to be the same ask shape.
func TestCmdLauncher(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(bundleDir(t), "libexec", "zcode-fence.cmd"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	for _, must := range []string{
		`set "ZF_BIN=%~dp0zcode-fence-windows-%ZF_ARCH%.exe"`,
		`"%ZF_BIN%" %*`,
		`if /i "%PROCESSOR_ARCHITECTURE%"=="AMD64" set "ZF_ARCH=amd64"`,
		`if /i "%PROCESSOR_ARCHITECTURE%"=="ARM64" set "ZF_ARCH=arm64"`,
	} {
		if !strings.Contains(text, must) {
			t.Errorf("zcode-fence.cmd lacks %q", must)
		}
	}
	var echo string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "echo {") {
			echo = strings.TrimPrefix(l, "echo ")
		}
	}
	if echo == "" {
		t.Fatal("zcode-fence.cmd has no echo of the ask line")
	}
	if strings.ContainsAny(echo, "&|<>^") {
		t.Errorf("the ask line has characters cmd.exe would interpret: %s", echo)
	}
	for _, arch := range []string{"amd64", "arm64", "unknown"} {
		line := strings.ReplaceAll(echo, "%ZF_ARCH%", arch) + "\n"
		reason := checkAskLine(t, []byte(line))
		if !strings.HasPrefix(reason, "[zcode-fence: not installed]") || !strings.Contains(reason, "windows-"+arch) {
			t.Errorf("reason %q", reason)
		}
	}
	if runtime.GOOS != "windows" {
		return
	}
	// On Windows: run it for real, without a binary next to it.
	dir := t.TempDir()
	kit.CopyFile(t, filepath.Join(bundleDir(t), "libexec", "zcode-fence.cmd"), filepath.Join(dir, "zcode-fence.cmd"))
	out, err := exec.Command("cmd.exe", "/c", filepath.Join(dir, "zcode-fence.cmd")).Output()
	if err != nil {
		t.Fatalf("zcode-fence.cmd: %v", err)
	}
	checkAskLine(t, bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n")))
	var v map[string]any
	if json.Unmarshal(out, &v) != nil {
		t.Errorf("not JSON: %q", out)
	}
}
