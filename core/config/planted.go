package config

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
)

// Settings planted in files (issue 27 item 3): Gemini CLI and Qwen Code
// load the project's .env into their own environment at start, direnv and
// mise load .envrc and mise.toml into the user's shell, editors load
// their terminal env: a file that sets a guard setting switches the guard
// off, or moves its state, for the next session, whoever starts it. So a
// write whose text sets one asks wherever it lands.

// plantedSkip are names that change where the guard keeps its state but
// that everyday files set for everything (Dockerfiles, CI scripts, test
// fixtures set HOME): a write of them alone is not about the guard.
var plantedSkip = map[string]bool{"HOME": true, "USERPROFILE": true, "XDG_CONFIG_HOME": true}

// Planted reports the first guard setting or host hook switch that text
// sets, and whether there is one: an assignment of a variable
// GuardSettingsEnv names (ZCODE_FENCE_*, CLAUDE_PLUGIN_OPTION_*,
// ZCODE_PLUGIN_OPTION_*, the hosts' data, plugin and project dirs; not
// HOME, USERPROFILE, XDG_CONFIG_HOME, nor the guard's own test prefixes) in
// any file syntax — NAME=v, export NAME=v, NAME: v, "NAME": v, NAME = "v",
// $env:NAME = v, set NAME=v, setenv NAME v, set -gx NAME v — or a host's
// hooks-off key set to its off value (agenthost Install.HooksOff:
// "disableAllHooks": true, features.hooks = false, or hooks = false under
// [features]). A name only mentioned (in prose, a lookup: os.Getenv) is no
// assignment. Cost: linear in text.
func Planted(text string) (string, bool) {
	if name, ok := plantedEnv(text); ok {
		return name, true
	}
	for _, a := range agenthost.Adapters() {
		in := a.Install()
		if in.HooksOff != "" && setsKey(text, in.HooksOff, in.HooksOffValue) {
			return in.HooksOff, true
		}
	}
	return "", false
}

// plantedEnv finds an assignment of a guard setting variable in text.
func plantedEnv(text string) (string, bool) {
	cands := append(append([]string(nil), EnvPrefixes...), sortedNames()...)
	for _, c := range cands {
		for from := 0; ; {
			i := strings.Index(text[from:], c)
			if i < 0 {
				break
			}
			i += from
			from = i + len(c)
			if i > 0 && isNameByte(text[i-1]) {
				continue
			}
			end := i
			for end < len(text) && isNameByte(text[end]) {
				end++
			}
			name := text[i:end]
			if !GuardSettingsEnv(name) || plantedSkip[name] || ownPrefix(name) {
				continue
			}
			if assigned(text, i, end) {
				return name, true
			}
		}
	}
	return "", false
}

// sortedNames are the guard setting names without a prefix (the hosts'
// dirs), for plantedEnv.
func sortedNames() []string {
	out := make([]string, 0, len(guardEnvNames))
	for n := range guardEnvNames {
		if !plantedSkip[n] {
			out = append(out, n)
		}
	}
	return out
}

func ownPrefix(name string) bool {
	for _, p := range ownEnvPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func isNameByte(b byte) bool {
	return b == '_' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9'
}

// assigned reports whether the name at text[i:end] is assigned: followed
// (after closing quotes and blanks) by = or : (not ==), or preceded on its
// line by setenv or fish's set -x/-gx/-Ux.
func assigned(text string, i, end int) bool {
	k := end
	for k < len(text) && (text[k] == '"' || text[k] == '\'' || text[k] == ' ' || text[k] == '\t') {
		k++
	}
	if k < len(text) && (text[k] == '=' || text[k] == ':') {
		return !(k+1 < len(text) && text[k+1] == '=') && !(text[k] == ':' && k+1 < len(text) && text[k+1] == ':')
	}
	line := text[strings.LastIndexByte(text[:i], '\n')+1 : i]
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "setenv":
		return len(f) == 1
	case "set":
		for _, o := range f[1:] {
			if !strings.HasPrefix(o, "-") || !strings.ContainsAny(o, "xU") {
				return false
			}
		}
		return len(f) > 1
	}
	return false
}

// setsKey reports whether text sets the dotted key (a.b.c) to value: the
// key written whole (JSON's "disableAllHooks": true, TOML's features.hooks
// = false), or its last part under a [a.b] table header.
func setsKey(text, key, value string) bool {
	table, last := "", key
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		table, last = key[:i], key[i+1:]
	}
	cur := ""
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") && !strings.HasPrefix(l, "[[") {
			cur = strings.TrimSpace(strings.Trim(l, "[]"))
			continue
		}
		if valueAfter(l, key, value) || table != "" && cur == table && valueAfter(l, last, value) {
			return true
		}
	}
	// JSON written on one line or split differently: the key anywhere.
	return table == "" && valueAfter(text, key, value)
}

// valueAfter reports whether s holds key (as a whole name, quoted or not)
// followed by = or : and value (quoted or not, any case).
func valueAfter(s, key, value string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], key)
		if i < 0 {
			return false
		}
		i += from
		from = i + len(key)
		if i > 0 && isNameByte(s[i-1]) || from < len(s) && isNameByte(s[from]) {
			continue
		}
		rest := strings.TrimLeft(s[from:], "\"' \t")
		if rest == "" || rest[0] != '=' && rest[0] != ':' {
			continue
		}
		rest = strings.TrimLeft(rest[1:], "\"' \t")
		if len(rest) >= len(value) && strings.EqualFold(rest[:len(value)], value) &&
			(len(rest) == len(value) || !isNameByte(rest[len(value)])) {
			return true
		}
	}
}
