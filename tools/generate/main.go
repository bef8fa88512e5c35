// Command generate writes the files derived from declarations in code:
//
//	go run ./tools/generate             all three
//	go run ./tools/generate manifests   the plugin manifests' userConfig
//	go run ./tools/generate rules       docs/rules.md
//	go run ./tools/generate hooks       the bundle's hooks files, one per host format
//
// (go generate ./plugins, ./core/rules and ./core/agenthost/setup run it for one
// each.)
//
// manifests: the settings declarations (plugins.Schema) become the
// userConfig object of bundle/zcode-fence/.claude-plugin/plugin.json and
// .zcode-plugin/plugin.json, rewritten in place; every other member is
// kept, in its order, re-indented with two spaces. e2e's
// TestPluginManifests fails when the committed manifests differ, so adding
// a setting is its declaration plus this command.
//
// rules: the rule catalog (core/rules) becomes docs/rules.md; core/rules'
// TestDocIsCurrent fails when the committed file differs.
//
// hooks: the host adapters (core/agenthost) become every hooks file of
// the bundle (core/agenthost/setup.HooksFiles: the Claude form the plugin
// carries, Gemini CLI's in the extension); e2e's TestHooksFilesGenerated fails when a
// committed file differs.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/zcode-fence/zcode-fence/core/agenthost/setup"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/internal/modroot"
	"github.com/zcode-fence/zcode-fence/plugins"
)

// Manifests are the files that carry userConfig, relative to the module root.
var Manifests = []string{
	"bundle/zcode-fence/.claude-plugin/plugin.json",
	"bundle/zcode-fence/.zcode-plugin/plugin.json",
}

// targets are what the command can write, by name.
var targets = map[string]func(root string) error{
	"manifests": func(root string) error {
		for _, m := range Manifests {
			if err := rewriteFile(filepath.Join(root, m), plugins.Schema.UserConfig()); err != nil {
				return fmt.Errorf("%s: %w", m, err)
			}
		}
		return nil
	},
	"rules": func(root string) error {
		return writeIfChanged(filepath.Join(root, rules.DocPath), rules.Markdown())
	},
	"hooks": func(root string) error {
		for _, f := range setup.HooksFiles() {
			path := filepath.Join(root, filepath.FromSlash(f.Path))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			if err := writeIfChanged(path, f.Data); err != nil {
				return fmt.Errorf("%s: %w", f.Path, err)
			}
		}
		return nil
	},
}

func main() {
	names := os.Args[1:]
	if len(names) == 0 {
		names = []string{"manifests", "rules", "hooks"}
	}
	root, err := modroot.FromWorkingDir()
	if err != nil {
		fmt.Fprintln(os.Stderr, "generate:", err)
		os.Exit(1)
	}
	for _, name := range names {
		write, ok := targets[name]
		if !ok {
			fmt.Fprintf(os.Stderr, "generate: unknown target %q (manifests, rules, hooks)\n", name)
			os.Exit(2)
		}
		if err := write(root); err != nil {
			fmt.Fprintf(os.Stderr, "generate %s: %v\n", name, err)
			os.Exit(1)
		}
	}
}

func rewriteFile(path string, userConfig []byte) error {
	doc, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := SetMember(doc, "userConfig", userConfig)
	if err != nil {
		return err
	}
	return writeIfChanged(path, out)
}

// writeIfChanged writes data to path unless the file already holds it.
func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	return os.WriteFile(path, data, 0o644)
}

// SetMember returns the JSON object doc with member key set to value
// (replaced where it is, or appended), indented with two spaces and ending
// in a newline. Strings are kept as written (no HTML escaping is added).
func SetMember(doc []byte, key string, value json.RawMessage) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var compact bytes.Buffer
	compact.WriteByte('{')
	found := false
	writeMember := func(k string, v []byte) error {
		if compact.Len() > 1 {
			compact.WriteByte(',')
		}
		name, _ := json.Marshal(k)
		compact.Write(name)
		compact.WriteByte(':')
		return json.Compact(&compact, v)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if k == key {
			v, found = value, true
		}
		if err := writeMember(k, v); err != nil {
			return nil, fmt.Errorf("member %q: %w", k, err)
		}
	}
	if !found {
		if err := writeMember(key, value); err != nil {
			return nil, fmt.Errorf("member %q: %w", key, err)
		}
	}
	compact.WriteByte('}')
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}
