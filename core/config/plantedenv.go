package config

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
)

// Settings a project's env file put in the guard's own environment.
//
// Gemini CLI and Qwen Code load the .env files of a trusted workspace
// into their own process environment at start (each variable not already
// set), searching from the workspace up: DIR/.gemini/.env (Gemini),
// DIR/.qwen/.env (Qwen), DIR/.env. Their hooks inherit that environment,
// so a guard setting in a project's .env reaches the guard as if the user
// had set it (e2e/planted_env_test.go runs both clients). A write of such
// a file asks (Planted), but a file can also come with a clone, or from
// before the guard was installed. So the guard does not take a setting
// from its environment when a project env file assigns that variable
// that same value: the setting came from the project, not from the
// user. A value that differs was set by the user before the host started
// (the hosts never override a set variable) and is kept.

// projectEnvFiles are the env files, relative to each directory searched,
// that the hosts load.
var projectEnvFiles = []string{".gemini/.env", ".qwen/.env", ".env"}

// maxEnvFile bounds the env file read (a .env is a few KiB).
const maxEnvFile = 256 << 10

// maxEnvDepth bounds how many directories up from a start directory are
// searched.
const maxEnvDepth = 32

// WithoutPlanted returns env without the guard settings (GuardSettingsEnv,
// not HOME, USERPROFILE or XDG_CONFIG_HOME) that a project env file
// assigns the same value, and a note for each one hidden. The files are
// searched from each of starts (the working directory, the hosts' project
// dirs) up to, not including, the home directory (whose env files are the
// user's own) or the root. Cost: nothing when env sets no guard setting;
// else a few stats per directory searched and one read per file found.
func WithoutPlanted(env Env, names []string, starts []string) (Env, []string) {
	var set []string
	for _, n := range names {
		if GuardSettingsEnv(n) && !plantedSkip[n] && !ownPrefix(n) {
			if _, ok := env.get(n); ok {
				set = append(set, n)
			}
		}
	}
	if len(set) == 0 || env.Lookup == nil {
		return env, nil
	}
	hidden := map[string]bool{}
	var notes []string
	for _, file := range envFilesFrom(starts, env.Home) {
		assigned := parseEnvFile(file)
		for _, n := range set {
			v, ok := assigned[n]
			if cur, _ := env.get(n); ok && !hidden[n] && cur == v {
				hidden[n] = true
				notes = append(notes, fmt.Sprintf("config: %s=%s is set by %s, which Gemini CLI and Qwen Code load into their hooks' environment: ignored (set it in the config file instead)",
					n, strconv.Quote(v), file))
			}
		}
	}
	if len(hidden) == 0 {
		return env, nil
	}
	base := env.Lookup
	env.Lookup = func(k string) (string, bool) {
		if hidden[k] {
			return "", false
		}
		return base(k)
	}
	env.Home = HomeDir(env.Lookup)
	return env, notes
}

// envFilesFrom lists the project env files that exist in starts and their
// parents, each once, below home.
func envFilesFrom(starts []string, home string) []string {
	home = filepath.Clean(home)
	seen := map[string]bool{}
	var out []string
	for _, s := range starts {
		if s == "" || !filepath.IsAbs(s) {
			continue
		}
		dir := filepath.Clean(s)
		for range maxEnvDepth {
			if dir == home || seen[dir] {
				break
			}
			seen[dir] = true
			for _, rel := range projectEnvFiles {
				p := filepath.Join(dir, filepath.FromSlash(rel))
				if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
					out = append(out, p)
				}
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return out
}

// parseEnvFile reads the NAME=VALUE lines of a dotenv file (export
// prefixes, quotes and trailing comments as dotenv reads them).
func parseEnvFile(path string) map[string]string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(io.LimitReader(f, maxEnvFile))
	sc.Buffer(make([]byte, 0, 4096), maxEnvFile)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		line = strings.TrimSpace(strings.TrimPrefix(line, "export "))
		name, val, ok := strings.Cut(line, "=")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		name = strings.TrimSpace(name)
		val = strings.TrimSpace(val)
		switch {
		case len(val) >= 2 && (val[0] == '"' || val[0] == '\'' || val[0] == '`'):
			if end := strings.IndexByte(val[1:], val[0]); end >= 0 {
				val = val[1 : 1+end]
			}
		default:
			if i := strings.Index(val, " #"); i >= 0 {
				val = strings.TrimSpace(val[:i])
			}
		}
		out[name] = val
	}
	return out
}

// plantedStarts are the directories whose env files WithoutPlanted
// searches for a hook of this process: the working directory and every
// host's project dir variable.
func plantedStarts(lookup func(string) (string, bool)) []string {
	var out []string
	if wd, err := os.Getwd(); err == nil {
		out = append(out, wd)
	}
	for _, k := range agenthost.ProjectDirEnvs() {
		if v, ok := lookup(k); ok && v != "" {
			out = append(out, v)
		}
	}
	return out
}
