package paths

import (
	"os"
	"runtime"
	"strings"
)

// Platform is the set of facts path judgements depend on. The zero value is
// usable: Linux rules, no home, no variables, lexical real paths.
//
// A Platform is a small value; copy it freely. It is safe for concurrent
// use as long as Lookup and EvalSymlinks are.
type Platform struct {
	// OS selects the rules: "windows", "darwin", or anything else for
	// Linux/Unix rules. Windows: backslash is a separator everywhere,
	// /tmp maps to %TEMP%, NUL is the null device, temp roots are TEMP and
	// TMP. Windows and darwin compare paths case-insensitively.
	OS string
	// Home is the user's home directory as a raw path string ("" if
	// unknown: "~" is then Unresolved).
	Home string
	// Lookup returns an environment variable; nil means no variables are
	// defined. On Windows it must be case-insensitive (os.LookupEnv is).
	// $HOME that Lookup does not know falls back to Home.
	Lookup func(name string) (string, bool)
	// TempDir is the process's temp directory (os.TempDir() for Native, ""
	// if unknown). Unix: it is one of the writable roots. Windows: it is
	// only the last fallback for mapping /tmp (after TEMP and TMP).
	TempDir string
	// EvalSymlinks resolves a path that exists to its real path, like
	// filepath.EvalSymlinks. Nil means real paths are lexical only (the
	// right choice when OS is not the host's). It is only ever called with
	// native kinds: Unix paths when OS is not "windows", Drive paths when it
	// is.
	EvalSymlinks func(path string) (string, error)
}

// Native describes the running process: runtime.GOOS; home from
// ZCODE_FENCE_HOME, else HOME, else USERPROFILE, else os.UserHomeDir;
// os.LookupEnv; os.TempDir; CachedEvalSymlinks. Cost: a few getenv calls;
// call it once per tool call, not per path.
func Native() Platform {
	p := Platform{
		OS:           runtime.GOOS,
		Home:         nativeHome(),
		Lookup:       os.LookupEnv,
		TempDir:      os.TempDir(),
		EvalSymlinks: CachedEvalSymlinks,
	}
	if simulate != nil {
		simulate(&p)
	}
	return p
}

// simulate is nil in every release binary. Only a binary built with the
// zcodefence_sim tag (the golden test's, see simulate.go) sets it, so that
// one Linux binary can judge with another OS's path rules and no real
// file system; no environment variable can switch it on in a normal build.
var simulate func(p *Platform)

// ForOS is Native with the rules of goos ("linux", "darwin", "windows";
// "" means the host's). When goos is not the host's OS, real paths are
// lexical (the host's filesystem says nothing about another OS's paths)
// and, for "windows", variable lookup ignores case. Layers use it to honour
// core.Call.Platform.
func ForOS(goos string) Platform {
	p := Native()
	if goos == "" || goos == p.OS {
		return p
	}
	p.OS = goos
	p.EvalSymlinks = nil
	if goos == "windows" && runtime.GOOS != "windows" {
		p.Lookup = foldedLookup(os.LookupEnv, os.Environ)
	}
	return p
}

// Simulated is a Platform for tests and tools: the given OS rules, home and
// variables (looked up case-insensitively when goos is "windows"), no temp
// dir, lexical real paths. The map is read, never modified; do not modify it
// while the Platform is in use.
func Simulated(goos, home string, env map[string]string) Platform {
	return Platform{OS: goos, Home: home, Lookup: mapLookup(env, goos == "windows")}
}

// WithVars returns p whose Lookup sees vars first (case-insensitively on
// Windows), then p's own Lookup. Use it for variables the shell analysis
// knows and the process does not: $PWD of the agent, assignments made
// earlier in the same command.
func (p Platform) WithVars(vars map[string]string) Platform {
	if len(vars) == 0 {
		return p
	}
	inner := p.Lookup
	own := mapLookup(vars, p.windows())
	p.Lookup = func(name string) (string, bool) {
		if v, ok := own(name); ok {
			return v, true
		}
		if inner == nil {
			return "", false
		}
		return inner(name)
	}
	return p
}

func (p Platform) windows() bool { return p.OS == "windows" }

// foldCase reports whether the platform's file systems ignore case.
func (p Platform) foldCase() bool { return p.OS == "windows" || p.OS == "darwin" }

// lookup is Lookup with the HOME fallback.
func (p Platform) lookup(name string) (string, bool) {
	if p.Lookup != nil {
		if v, ok := p.Lookup(name); ok {
			return v, true
		}
	}
	if p.Home != "" && (name == "HOME" || (p.windows() && strings.EqualFold(name, "HOME"))) {
		return p.Home, true
	}
	return "", false
}

func nativeHome() string {
	for _, name := range [...]string{"ZCODE_FENCE_HOME", "HOME", "USERPROFILE"} {
		if v := os.Getenv(name); v != "" {
			return v
		}
	}
	h, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return h
}

func mapLookup(env map[string]string, fold bool) func(string) (string, bool) {
	if !fold {
		return func(name string) (string, bool) {
			v, ok := env[name]
			return v, ok
		}
	}
	upper := make(map[string]string, len(env))
	for k, v := range env {
		upper[strings.ToUpper(k)] = v
	}
	return func(name string) (string, bool) {
		if v, ok := env[name]; ok {
			return v, true
		}
		v, ok := upper[strings.ToUpper(name)]
		return v, ok
	}
}

// foldedLookup gives case-insensitive lookup over a case-sensitive
// environment (simulating Windows on a Unix host).
func foldedLookup(exact func(string) (string, bool), environ func() []string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if v, ok := exact(name); ok {
			return v, true
		}
		for _, kv := range environ() {
			k, v, ok := strings.Cut(kv, "=")
			if ok && strings.EqualFold(k, name) {
				return v, true
			}
		}
		return "", false
	}
}
