// Command manifest writes the settings declarations (plugins.Schema) into
// the plugin bundle's manifests, as their userConfig object:
//
//	go generate ./plugins     (or: go run ./tools/manifest)
//
// It rewrites bundle/zcode-fence/.claude-plugin/plugin.json and
// .zcode-plugin/plugin.json in place; every other member of the manifests
// is kept, in its order, re-indented with two spaces. e2e's
// TestPluginManifests fails when the committed manifests differ from what
// this writes, so adding a setting is its declaration plus this command.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/zcode-fence/zcode-fence/plugins"
)

// Manifests are the files that carry userConfig, relative to the module root.
var Manifests = []string{
	"bundle/zcode-fence/.claude-plugin/plugin.json",
	"bundle/zcode-fence/.zcode-plugin/plugin.json",
}

func main() {
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "manifest:", err)
		os.Exit(1)
	}
	for _, m := range Manifests {
		path := filepath.Join(root, m)
		if err := rewriteFile(path, plugins.Schema.UserConfig()); err != nil {
			fmt.Fprintf(os.Stderr, "manifest: %s: %v\n", m, err)
			os.Exit(1)
		}
	}
}

// moduleRoot walks up from the working directory to the one holding go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory; run it inside the checkout")
		}
		dir = parent
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
	if bytes.Equal(out, doc) {
		return nil
	}
	return os.WriteFile(path, out, 0o644)
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
