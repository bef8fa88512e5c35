package setup

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
)

//go:generate go run ../../../tools/generate hooks

// HooksFile is one hooks file of the bundle, generated from the adapters
// that read it: every tool name they send is in its matcher, its command
// and event are theirs, its timeout is HookTimeout in the file's unit. `go
// generate ./core/agenthost/setup` writes them; e2e/manifest_test.go fails when a
// committed file differs.
type HooksFile struct {
	// Path is slash-separated, relative to the repository root.
	Path string
	// Hosts are the adapters that read it.
	Hosts []string
	Data  []byte
}

type hooksDoc struct {
	Hooks map[string][]hooksGroup `json:"hooks"`
}

type hooksGroup struct {
	Matcher string      `json:"matcher"`
	Hooks   []hooksHook `json:"hooks"`
}

type hooksHook struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int64  `json:"timeout"`
}

// HooksFiles lists every hooks file the adapters need, in adapter order.
func HooksFiles() []HooksFile {
	type acc struct {
		pkg   agenthost.Packaging
		hosts []string
		names []string
	}
	var order []string
	files := map[string]*acc{}
	for _, a := range agenthost.Adapters() {
		p := a.Packaging()
		if p.HooksFile == "" {
			continue // a JS plugin (Packaging.PluginFile), no hooks file
		}
		f := files[p.HooksFile]
		if f == nil {
			f = &acc{pkg: p}
			files[p.HooksFile] = f
			order = append(order, p.HooksFile)
		} else if f.pkg != p {
			// Two hosts reading one file must agree on its form.
			panic("agenthost: " + a.Name() + " reads " + p.HooksFile + " in another form than " + f.hosts[0])
		}
		f.hosts = append(f.hosts, a.Name())
		for _, n := range a.ToolNames() {
			if !contains(f.names, n) {
				f.names = append(f.names, n)
			}
		}
	}
	var out []HooksFile
	for _, path := range order {
		f := files[path]
		doc := hooksDoc{Hooks: map[string][]hooksGroup{f.pkg.Event: {{
			Matcher: strings.Join(f.names, "|"),
			Hooks:   []hooksHook{{Type: "command", Command: f.pkg.Command, Timeout: int64(agenthost.HookTimeout / f.pkg.TimeoutUnit)}},
		}}}}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		_ = enc.Encode(doc) // a struct of strings and numbers
		out = append(out, HooksFile{Path: path, Hosts: f.hosts, Data: buf.Bytes()})
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
