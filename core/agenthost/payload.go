package agenthost

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// Payload is one hook call as the guard reads it, whatever host sent it.
type Payload struct {
	// Host is the adapter that claimed the payload; it renders the answer.
	Host Adapter
	// ToolName is the tool's name as the host sent it.
	ToolName string
	// Tool is what the guard reads from it; Judged is false for a tool the
	// guard does not judge (the call is then silent).
	Tool   Tool
	Judged bool
	// Input is the raw tool_input object (for layers), nil when larger
	// than MaxRawInput.
	Input json.RawMessage
	// Command is a shell tool's command; Dir the directory the host says
	// it runs in ("" for the cwd).
	Command, Dir string
	// Paths are a file tool's targets, in input order, without repeats.
	Paths []string

	SessionID, Cwd, HookEventName, PermissionMode string

	// Findings are problems with the fields the guard reads (ambiguous or
	// of the wrong type, or a tool_input that is not an object): each one
	// asks.
	Findings []Finding
}

// Payload interprets the envelope for adapter a.
func (e *Envelope) Payload(a Adapter) Payload {
	p := Payload{Host: a, ToolName: e.ToolName(), SessionID: e.String(sessionKeys...),
		Cwd: e.Cwd(), HookEventName: e.HookEventName(), PermissionMode: e.String(modeKeys...)}
	tool, ok := a.Tool(p.ToolName)
	if !ok {
		return p
	}
	p.Tool, p.Judged = tool, true
	e.topLevelFindings(&p)

	key, v := e.input()
	if v == nil {
		return p
	}
	p.Input = v.raw
	switch {
	case v.kind == '{':
		p.read(v.fields, v.variants, tool, "")
	case v.kind == '"' && hasPatch(tool):
		// A bare string is the patch text of an apply_patch tool (its
		// paths as listed, repeats kept, as the guard always read it).
		p.Paths = PatchPaths(v.str)
	default:
		// A string (also one holding broken JSON), an array, a number or
		// a boolean: the host may still run something the guard cannot
		// read (issue 27), so it asks, as a command of the wrong type does.
		why := typeName(v.kind)
		if v.kind == '"' {
			why = "a string"
		}
		p.Findings = append(p.Findings, Finding{Rule: rules.HostBadInput, Field: key, Why: why, Object: true})
	}
	return p
}

// input is the tool-input value in effect and its key: the first key (in
// preference order) whose last occurrence is not null, else the call
// object's input.
func (e *Envelope) input() (string, *inputValue) {
	for _, k := range toolInputKeys {
		if vs := e.inputs[k]; len(vs) > 0 && vs[len(vs)-1].kind != 'n' {
			return k, vs[len(vs)-1]
		}
	}
	if vs := e.call.inputs; len(vs) > 0 && vs[len(vs)-1].kind != 'n' {
		return callKey + "." + callInputKey, vs[len(vs)-1]
	}
	return "", nil
}

// topLevelFindings: a repeated tool name or tool input key, or one spelled
// a second time in another case, leaves open which call the host runs.
func (e *Envelope) topLevelFindings(p *Payload) {
	for _, group := range [][]string{toolNameKeys, toolInputKeys} {
		for _, k := range group {
			if e.keys[k] > 1 {
				p.Findings = append(p.Findings, Finding{Rule: rules.HostAmbiguousInput, Field: k, Why: whyTwice})
			}
			for _, other := range e.Keys() {
				if other != k && strings.EqualFold(other, k) {
					p.Findings = append(p.Findings, Finding{Rule: rules.HostAmbiguousInput, Field: k, Why: whyCase, Other: other})
				}
			}
		}
	}
}

func hasPatch(t Tool) bool {
	for _, s := range t.Paths {
		if s.Patch {
			return true
		}
	}
	return false
}

// read takes the tool's fields from a tool_input object.
func (p *Payload) read(fields map[string][]fieldValue, variants map[string]bool, tool Tool, prefix string) {
	last := func(key string) (fieldValue, bool) {
		vs := fields[key]
		if len(vs) > 1 {
			p.Findings = append(p.Findings, Finding{Rule: rules.HostAmbiguousInput, Field: prefix + key, Why: whyTwice})
		}
		if variants[key] {
			p.Findings = append(p.Findings, Finding{Rule: rules.HostAmbiguousInput, Field: prefix + key, Why: whyCase})
		}
		if len(vs) == 0 {
			return fieldValue{}, false
		}
		return vs[len(vs)-1], true
	}
	// str reads a string field; null is absent; another type asks.
	str := func(key string) (string, bool) {
		v, ok := last(key)
		if !ok || v.kind == 'n' {
			return "", false
		}
		if v.kind != '"' {
			p.Findings = append(p.Findings, Finding{Rule: rules.HostBadInput, Field: prefix + key, Why: typeName(v.kind)})
			return "", false
		}
		return v.str, true
	}
	switch {
	case tool.Command != "" && tool.Commands:
		if v, ok := last(tool.Command); ok {
			switch v.kind {
			case '[':
				p.Command = CommandList(v.list)
			case '"':
				p.Command = v.str
			case 'n':
			default:
				p.Findings = append(p.Findings, Finding{Rule: rules.HostBadInput, Field: prefix + tool.Command, Why: typeName(v.kind)})
			}
		}
	case tool.Command != "":
		p.Command, _ = str(tool.Command)
	}
	for _, d := range tool.Dir {
		if s, ok := str(d); ok && strings.TrimSpace(s) != "" && p.Dir == "" {
			p.Dir = s
		}
	}
	for _, src := range tool.Paths {
		switch {
		case src.Edits:
			v, ok := last(src.Field)
			if !ok || v.kind == 'n' {
				continue
			}
			if v.kind != '[' {
				p.Findings = append(p.Findings, Finding{Rule: rules.HostBadInput, Field: prefix + src.Field, Why: typeName(v.kind)})
				continue
			}
			for i, ev := range v.edits {
				edit := Tool{}
				for _, f := range editPathFields {
					edit.Paths = append(edit.Paths, Source{Field: f})
				}
				p.read(ev.fields, ev.variants, edit, fmt.Sprintf("%s%s[%d].", prefix, src.Field, i))
			}
		case src.List:
			v, ok := last(src.Field)
			if !ok || v.kind == 'n' {
				continue
			}
			switch v.kind {
			case '[':
				for _, path := range v.list {
					p.addPath(path)
				}
			case '"': // one path given as a string
				p.addPath(v.str)
			default:
				p.Findings = append(p.Findings, Finding{Rule: rules.HostBadInput, Field: prefix + src.Field, Why: typeName(v.kind)})
			}
		case src.Patch:
			if s, ok := str(src.Field); ok {
				for _, path := range PatchPaths(s) {
					p.addPath(path)
				}
			}
		default:
			if s, ok := str(src.Field); ok {
				p.addPath(s)
			}
		}
	}
}

// CommandList is the one script the guard reads for commands that each
// run in a shell of their own from the same directory: every command in a
// subshell of its own, so that a cd (or a variable) in one does not carry
// over to the next, as it does not where they run.
func CommandList(commands []string) string {
	var b strings.Builder
	for i, c := range commands {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("(\n" + c + "\n)")
	}
	return b.String()
}

func (p *Payload) addPath(path string) {
	if strings.TrimSpace(path) == "" {
		return
	}
	for _, have := range p.Paths {
		if have == path {
			return
		}
	}
	p.Paths = append(p.Paths, path)
}

func typeName(kind byte) string {
	switch kind {
	case '[':
		return "an array"
	case '{':
		return "an object"
	default:
		return "a number or boolean"
	}
}

func sortStrings(s []string) { sort.Strings(s) }

// PatchPaths lists the paths an apply_patch text touches, in order
// (cmdfacts.ParsePatch: every "*** Add File:", "*** Update File:",
// "*** Delete File:" and "*** Move to:" line).
func PatchPaths(patch string) []string {
	var out []string
	for _, f := range cmdfacts.ParsePatch(patch) {
		out = append(out, f.Path)
	}
	return out
}
