package config

import (
	"sort"
	"strings"
)

// ownEnv are the ZCODE_FENCE_ variables that are not settings: where the
// binary finds its config, data dir and home, the layer log, what the host
// tells its layer processes, and the simulated OS of test builds.
var ownEnv = map[string]bool{
	"ZCODE_FENCE_CONFIG": true, "ZCODE_FENCE_DATA_DIR": true, "ZCODE_FENCE_HOME": true,
	"ZCODE_FENCE_LAYER_LOG": true, "ZCODE_FENCE_LAYER_HOST_PID": true, "ZCODE_FENCE_SIM_OS": true,
}

// ownEnvPrefixes are the prefixes of the test harness's own variables
// (ZCODE_FENCE_E2E_REQUIRE, ZCODE_FENCE_TEST_BINARY, ...): a developer's
// shell may hold them, and they are not settings either.
var ownEnvPrefixes = []string{"ZCODE_FENCE_E2E_", "ZCODE_FENCE_TEST_"}

// UnknownEnv lists, sorted, the variables of environ (KEY=VALUE entries,
// as os.Environ returns) that carry a setting prefix (EnvPrefixes) but
// name no setting of s: a misspelt key (ZCODE_FENCE_ENABLE_FENSE) or one
// this version does not have. Each comes with the closest known variable
// of the same prefix when one is near ("" otherwise). Cost: one pass over
// environ and, per unknown name, a distance to every key.
func (s *Schema) UnknownEnv(environ []string) []UnknownVar {
	var out []UnknownVar
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		prefix := ""
		for _, p := range EnvPrefixes {
			if strings.HasPrefix(name, p) {
				prefix = p
				break
			}
		}
		if prefix == "" || ownEnv[name] {
			continue
		}
		own := false
		for _, p := range ownEnvPrefixes {
			own = own || strings.HasPrefix(name, p)
		}
		key := strings.ToLower(strings.TrimPrefix(name, prefix))
		if _, known := s.index[key]; known || own {
			continue
		}
		out = append(out, UnknownVar{Name: name, Suggest: s.closest(prefix, key)})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// UnknownVar is an environment variable that looks like a setting but is
// none; Suggest is the variable probably meant, or "".
type UnknownVar struct {
	Name, Suggest string
}

// String is the report line: `ZCODE_FENCE_ENABLE_FENSE is not a setting
// (did you mean ZCODE_FENCE_ENABLE_FENCE?)`.
func (u UnknownVar) String() string {
	if u.Suggest == "" {
		return u.Name + " is not a setting (ignored)"
	}
	return u.Name + " is not a setting (ignored; did you mean " + u.Suggest + "?)"
}

// closest returns prefix + the upper-cased key nearest to key, when at
// most a third of its letters (and at least one) differ.
func (s *Schema) closest(prefix, key string) string {
	best, bestD := "", len(key)/3+1
	for _, sp := range s.specs {
		if d := editDistance(key, sp.Key); d < bestD {
			best, bestD = sp.Key, d
		}
	}
	if best == "" {
		return ""
	}
	return prefix + strings.ToUpper(best)
}

// UnknownKeys lists, sorted, the keys of a plugin options object that
// name no setting of s.
func (s *Schema) UnknownKeys(keys []string) []string {
	var out []string
	for _, k := range keys {
		if _, ok := s.index[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// editDistance is the Levenshtein distance of a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
