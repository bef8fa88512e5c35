package config

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
)

// Kind is the type of a setting's value.
type Kind int

const (
	// String is free text; every value is valid and kept as written.
	String Kind = iota
	// Bool accepts true/false and 1/0 in any case and surrounding space,
	// and stores "true" or "false".
	Bool
	// Enum accepts one of Spec.Choices, compared in lower case after
	// Spec.Canon.
	Enum
	// Int accepts a whole number (also written 1200.0) of at least Spec.Min;
	// a value above Spec.Max is capped to Max with a note.
	Int
)

// Spec declares one setting. The package that reads a setting declares it
// (the host's own in this package, a layer's in the layer's package); a
// Schema joins the declarations, and the loader, the settings manifests,
// explain and the child-process environment scrub are all derived from it.
type Spec struct {
	// Key is the setting's name, exactly as in the plugin manifests'
	// userConfig and in plugins.options; its environment variables are
	// the key in upper case behind each of EnvPrefixes.
	Key  string
	Kind Kind
	// Default is the value used when no source sets the key, and when a
	// source sets it to something invalid. It must be valid for Kind.
	Default string
	// Choices are an Enum's values, in lower case. When every choice is a
	// whole number, the manifests offer the setting as a number from the
	// first choice to the last.
	Choices []string
	// Min and Max bound an Int.
	Min, Max int
	// Canon, when set, maps a lower-cased, trimmed Enum value to the
	// spelling Choices use before they are matched ("zh-cn" -> "zh").
	Canon func(string) string
	// JSONObject lets the config file hold a JSON object for a String
	// setting, stored as its JSON text (the settings UI stores a string, a
	// hand-edited file may hold the object itself; both mean the same).
	JSONObject bool
	// Sensitive settings never appear in explain, notes or logs, and their
	// environment variables never reach a third-party layer's process.
	Sensitive bool
	// Title and Description are the text the hosts' settings UI shows
	// (userConfig title and description, in English).
	Title, Description string
}

// normalise validates v for s and returns the value to store.
func (s Spec) normalise(v string) (string, bool) {
	t := strings.TrimSpace(v)
	switch s.Kind {
	case Bool:
		switch strings.ToLower(t) {
		case "true", "1":
			return "true", true
		case "false", "0":
			return "false", true
		}
		return "", false
	case Enum:
		l := strings.ToLower(t)
		if s.Canon != nil {
			l = s.Canon(l)
		}
		for _, ch := range s.Choices {
			if l == ch {
				return ch, true
			}
		}
		return "", false
	case Int:
		n, err := strconv.Atoi(t)
		if err != nil {
			f, ferr := strconv.ParseFloat(t, 64)
			if ferr != nil || f != float64(int(f)) {
				return "", false
			}
			n = int(f)
		}
		if n < s.Min {
			return "", false
		}
		if n > s.Max {
			n = s.Max
		}
		return strconv.Itoa(n), true
	default:
		return v, true
	}
}

// check reports what is wrong with a declaration, or nil.
func (s Spec) check() error {
	if s.Key == "" || s.Key != strings.ToLower(strings.TrimSpace(s.Key)) || strings.ContainsAny(s.Key, " -.") {
		return fmt.Errorf("config: key %q must be lower_snake_case", s.Key)
	}
	switch s.Kind {
	case String, Bool:
	case Enum:
		if len(s.Choices) == 0 {
			return fmt.Errorf("config: %s is an Enum without Choices", s.Key)
		}
	case Int:
		if s.Min > s.Max {
			return fmt.Errorf("config: %s has Min %d above Max %d", s.Key, s.Min, s.Max)
		}
	default:
		return fmt.Errorf("config: %s has unknown Kind %d", s.Key, s.Kind)
	}
	if norm, ok := s.normalise(s.Default); !ok || norm != s.Default {
		return fmt.Errorf("config: %s default %q is not a valid value of its kind", s.Key, s.Default)
	}
	return nil
}

// OverridePrefix is the prefix of the explicit overrides
// (ZCODE_FENCE_<KEY>), read after every host's plugin-option variables.
const OverridePrefix = "ZCODE_FENCE_"

// EnvPrefixes are the environment variable prefixes that set a key, in the
// order the loader applies them (later wins): the agent hosts'
// plugin-option prefixes, which the host seam owns
// (agenthost.OptionEnvPrefixes: Claude Code's CLAUDE_PLUGIN_OPTION_, then
// ZCode's ZCODE_PLUGIN_OPTION_ should a ZCode build export them), then the
// explicit overrides. Options are loaded before the payload says which host
// runs, so every host's prefix is read.
var EnvPrefixes = append(agenthost.OptionEnvPrefixes(), OverridePrefix)

// EnvNames returns the environment variables that set s, in EnvPrefixes
// order.
func (s Spec) EnvNames() []string {
	up := strings.ToUpper(s.Key)
	out := make([]string, len(EnvPrefixes))
	for i, p := range EnvPrefixes {
		out[i] = p + up
	}
	return out
}

// Schema is every setting the binary reads, in the order the settings UI
// lists them. Build it once with NewSchema; it is read-only afterwards and
// safe for concurrent use.
type Schema struct {
	specs []Spec
	index map[string]int
}

// NewSchema joins groups of declarations, in order, into one schema. A key
// declared twice or a declaration that is not valid (see Spec) panics: the
// declarations are code, the schema is built when the program starts, and
// every test run builds it.
func NewSchema(groups ...[]Spec) *Schema {
	s := &Schema{index: map[string]int{}}
	for _, g := range groups {
		for _, sp := range g {
			if err := sp.check(); err != nil {
				panic(err)
			}
			if _, dup := s.index[sp.Key]; dup {
				panic(fmt.Sprintf("config: key %q declared twice", sp.Key))
			}
			s.index[sp.Key] = len(s.specs)
			s.specs = append(s.specs, sp)
		}
	}
	return s
}

// Specs returns every declaration in schema order (a copy).
func (s *Schema) Specs() []Spec { return append([]Spec(nil), s.specs...) }

// Spec returns the declaration of key.
func (s *Schema) Spec(key string) (Spec, bool) {
	i, ok := s.index[key]
	if !ok {
		return Spec{}, false
	}
	return s.specs[i], true
}

// SensitiveEnv lists every environment variable that can carry a sensitive
// setting's value. The host removes them from the environment of every
// third-party layer process.
func (s *Schema) SensitiveEnv() []string {
	var out []string
	for _, sp := range s.specs {
		if sp.Sensitive {
			out = append(out, sp.EnvNames()...)
		}
	}
	return out
}
