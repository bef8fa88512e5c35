package cmdfacts

import (
	"strings"
)

// The configuration settings that turn an everyday git command into an
// irreversible one when given for the call (-c, --config-env,
// GIT_CONFIG_*): clean.requireForce=false makes clean delete without -f,
// a "+" refspec in remote.NAME.push or remote.NAME.mirror=true makes a
// plain push force or mirror, gc.pruneExpire=now makes a plain gc drop
// every unreachable object.

// Setting returns the last value given to the setting name (lower-case,
// "clean.requireforce") for this invocation.
func (g Git) Setting(name string) (GitConfig, bool) {
	for k := len(g.Config) - 1; k >= 0; k-- {
		if g.Config[k].Name == name {
			return g.Config[k], true
		}
	}
	return GitConfig{}, false
}

// GitFalse reports whether v is one of git's spellings of false (false,
// no, off, 0, letters in any case); "" means true (a bare -c NAME).
func GitFalse(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "false", "no", "off", "0":
		return true
	}
	return false
}

// GitTrue reports whether v is one of git's spellings of true (true,
// yes, on, 1, or "" for a bare -c NAME).
func GitTrue(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "true", "yes", "on", "1":
		return true
	}
	return false
}

// ForcedPushSettings returns the settings of g that make a push without
// refspecs on the command line overwrite or delete remote history: a
// remote.NAME.push refspec starting with "+" or remote.NAME.mirror set to
// true, written as "name=value".
func (g Git) ForcedPushSettings() []string {
	var out []string
	for _, c := range g.Config {
		first, rest, ok := strings.Cut(c.Name, ".")
		if !ok || first != "remote" || c.Unknown {
			continue
		}
		switch {
		case strings.HasSuffix(rest, ".push") && strings.HasPrefix(strings.TrimSpace(c.Value), "+"),
			strings.HasSuffix(rest, ".mirror") && GitTrue(c.Value):
			out = append(out, c.Name+"="+c.Value)
		}
	}
	return out
}
