// Package agenthost is the seam between zcode-fence and the agent hosts
// that run it as a pre-tool hook. Everything that differs from one host to
// another lives behind the Adapter interface: how a payload is recognised,
// the host's tool names and which tool_input fields hold the command or the
// target paths, the environment variables naming the project dir and the
// plugin options, and the answer the host turns into a human confirmation
// (or, for a host that cannot ask, its deny form).
//
// The payload itself is decoded once, host-neutrally (decode.go): a
// streaming walk that reads only exact-case keys, keeps only the fields some
// adapter's tool table reads, skips everything else without holding it, and
// reports fields that are ambiguous (a key twice, or two keys differing only
// in case). The adapter that claims the payload then picks the tool and its
// fields.
//
// A new host is one new file in this package that registers its Adapter
// (its settings and hooks paths included: core/protect protects them),
// plus its tests, plus its CLI's tampering commands in cmdfacts.AgentCLI
// (TestEveryHostHasItsCLI). core/host and cmd/zcode-fence use only this
// interface.
package agenthost

import (
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
)

// MaxInput is the most stdin the hook reads. A bigger payload is not judged:
// the call fails open and is logged as over the cap.
const MaxInput = 64 << 20

// MaxRawInput is the largest raw tool_input kept for layers (Call.Input);
// a larger one (a Write of a big file) is dropped while decoding, since the
// layer protocol omits it anyway.
const MaxRawInput = 256 << 10

// Lookup reads an environment variable.
type Lookup func(string) (string, bool)

// Adapter is one agent host's hook protocol.
type Adapter interface {
	// Name is the host's id: "claude", "zcode", "gemini", ...
	Name() string
	// Claim says how strongly the decoded envelope and the environment show
	// that this host sent the payload (Evidence*); the strongest claim
	// wins, ties go to the adapter registered first.
	Claim(e *Envelope, env Lookup) Evidence
	// Tool maps the host's tool name to what the guard reads; false for a
	// tool the guard does not judge.
	Tool(name string) (Tool, bool)
	// Tools is the whole tool table (the decoder keeps the fields any
	// adapter's tools read, and nothing else).
	Tools() []Tool
	// ToolNames lists the tool names as the host sends them (the hook
	// matcher of its hooks file).
	ToolNames() []string
	// Packaging says how the host loads the plugin's hook.
	Packaging() Packaging
	// ProjectDirEnv lists the variables naming the project dir, in order
	// (the payload cwd is used when none is set).
	ProjectDirEnv() []string
	// OptionEnvPrefixes lists the prefixes the host exports plugin options
	// under (CLAUDE_PLUGIN_OPTION_ + the upper-cased key), if any.
	OptionEnvPrefixes() []string
	// HostPaths lists the host's settings, hooks and plugin files and dirs
	// (user and project): writing them can switch the guard off
	// (core/protect protects them).
	HostPaths() []HostPath
	// Answer renders an ask for this host: the bytes to write to stdout,
	// nil for none.
	Answer(a Ask) []byte
	// Install is where the host keeps its configuration and how the
	// guard is hooked into it (zcode-fence doctor checks it).
	Install() Install
}

// Packaging is how a host finds and runs the plugin's hook.
type Packaging struct {
	// HooksFile is the hooks file this host reads, slash-separated and
	// relative to the repository root, whose bundle/ layout the published
	// tree keeps: bundle/zcode-fence/ is the plugin (Claude's form), bundle/
	// itself the Gemini extension that contains it.
	HooksFile string
	// Event is the hook event the guard runs on.
	Event string
	// Command is the hook command, in the host's variable syntax.
	Command string
	// TimeoutUnit is the unit of the file's timeout field: time.Second or
	// time.Millisecond.
	TimeoutUnit time.Duration
	// RootVar is the variable, in the host's syntax, that Command uses for
	// the installed plugin's (or extension's) root; SepVar, when set, is
	// the host's path separator variable (Gemini CLI's ${/}).
	RootVar, SepVar string
	// PluginFile, for a host that runs a JS plugin instead of a hooks
	// file (HooksFile ""), is that plugin, slash-separated and relative to
	// the repository root; it runs the launcher in ../libexec.
	PluginFile string
}

// HookTimeout is the hook timeout every hooks file declares: the guard
// answers within its 4.5 s budget (core/host.Budget).
const HookTimeout = 5 * time.Second

// Evidence is the strength of an adapter's claim on a payload.
type Evidence int

const (
	// NoEvidence: the payload is not this host's.
	NoEvidence Evidence = iota
	// ShapeEvidence: the payload has a shape this host sends, shared with
	// others (snake_case tool_name, for example).
	ShapeEvidence
	// EnvEvidence: a variable only this host sets is in the environment.
	EnvEvidence
	// KeyEvidence: the payload has a key only this host sends today, but
	// one another host could adopt (Codex's top-level model): it beats an
	// environment inherited from a host the agent runs inside.
	KeyEvidence
	// PayloadEvidence: the payload carries something only this host sends
	// (an event name, a key).
	PayloadEvidence
)

// Ask is what an adapter needs to render an ask.
type Ask struct {
	// Reason is the whole reason line (already joined and capped).
	Reason string
	// Rules are the rule ids that asked, in order.
	Rules []string
	// Lang is "zh" or "en".
	Lang string
	// NoAskFallback is the no_ask_fallback setting ("deny" or "silent"),
	// for hosts that cannot ask.
	NoAskFallback string
	// Env is the hook's environment (headless detection).
	Env Lookup
}

// Tool is what the guard reads from one of a host's tools.
type Tool struct {
	// Name is the guard's spelling (Bash, PowerShell, Write, Edit,
	// MultiEdit, NotebookEdit, ApplyPatch, ...): layers see this name.
	Name string
	Kind core.ToolKind
	// Command is the tool_input field holding the shell command.
	Command string
	// Commands: the Command field is an array of commands, each run in a
	// shell of its own from the same directory (Cline's run_commands);
	// the guard reads them as one script of subshells (CommandList).
	Commands bool
	// Dir lists tool_input fields naming the directory a shell command
	// runs in (Gemini's dir_path); the first one set wins over the cwd.
	Dir []string
	// Paths are where target paths come from, in order.
	Paths []Source
}

// Source is one place a file tool's target paths come from.
type Source struct {
	// Field is the tool_input key.
	Field string
	// Patch: the field holds apply_patch text; its paths are the targets.
	Patch bool
	// Edits: the field is an array of objects, each with a file_path (or
	// filePath, or path: Cline's read_files files) target.
	Edits bool
	// List: the field is an array of strings, each a path or a glob
	// (Gemini's read_many_files paths and include).
	List bool
}

// editPathFields are the keys read inside each element of an Edits array.
var editPathFields = []string{"file_path", "filePath", "path"}

// registry holds the adapters in registration order (init order: file names
// sorted, which the order field below overrides).
var registry []registered

type registered struct {
	order   int
	adapter Adapter
}

// register adds an adapter; order breaks ties between equal claims (lower
// first). Called from each adapter file's init.
func register(order int, a Adapter) {
	registry = append(registry, registered{order, a})
	sort.SliceStable(registry, func(i, j int) bool { return registry[i].order < registry[j].order })
}

// Adapters lists every registered adapter in tie-break order.
func Adapters() []Adapter {
	out := make([]Adapter, len(registry))
	for i, r := range registry {
		out[i] = r.adapter
	}
	return out
}

// ByName returns the adapter called name.
func ByName(name string) (Adapter, bool) {
	for _, r := range registry {
		if r.adapter.Name() == name {
			return r.adapter, true
		}
	}
	return nil, false
}

// Default is the adapter used when nothing claims a payload, and for calls
// made without a host (--eval, explain): the ZCode protocol, whose answer
// is the Claude Code ask line and whose project-dir variables cover both.
func Default() Adapter {
	a, _ := ByName("zcode")
	return a
}

// Detect picks the adapter with the strongest claim on e. It fails safe:
// a claim on the shape alone (or none) does not tell the hosts that send
// that shape apart, and one of them (Codex) runs a call whose hook answers
// "ask" — so such a payload gets an Unsure adapter, whose ask is written in
// the form every host stops on. Its tools are those of the strongest
// claimant that knows the tool name (a Gemini-named tool that came without
// Gemini's markers is still judged as Gemini's).
func Detect(e *Envelope, env Lookup) Adapter {
	var best Adapter
	bestEv := NoEvidence
	for _, r := range registry {
		if ev := r.adapter.Claim(e, env); ev > bestEv {
			best, bestEv = r.adapter, ev
		}
	}
	if bestEv > ShapeEvidence {
		return best
	}
	if best == nil {
		best = Default()
	}
	if name := e.ToolName(); name != "" {
		if _, ok := best.Tool(name); !ok {
			for _, a := range Adapters() {
				if _, ok := a.Tool(name); ok {
					best = a
					break
				}
			}
		}
	}
	return Unsure{best}
}

// Unsure is the adapter of a payload that no host's own markers claim (see
// Detect): the embedded adapter reads the tools, and its asks are answered
// in StopLine's form.
type Unsure struct{ Adapter }

// Answer stops the call on every host (StopLine), unless no_ask_fallback
// is silent: then the embedded adapter's own answer, which a host that
// cannot ask ignores, as that setting wants.
func (u Unsure) Answer(a Ask) []byte {
	if !denies(a) {
		return u.Adapter.Answer(a)
	}
	return StopLine(UnsureReason(a))
}

// OptionEnvPrefixes is every adapter's plugin-option prefix, without
// repeats: the config loader reads them all, because options are loaded
// before the payload says which host is running. The loader lets a later
// prefix win, so the list runs in reverse tie-break order: where two hosts
// set the same option, the one that wins detection ties wins here too
// (ZCODE_PLUGIN_OPTION_ over CLAUDE_PLUGIN_OPTION_).
func OptionEnvPrefixes() []string {
	var out []string
	seen := map[string]bool{}
	all := Adapters()
	for i := len(all) - 1; i >= 0; i-- {
		for _, p := range all[i].OptionEnvPrefixes() {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// inputFields is the union of tool_input keys some adapter's tools read,
// computed once, on first use (after every adapter registered in init); safe
// for concurrent use.
var inputFields = sync.OnceValue(func() map[string]fieldUse {
	m := map[string]fieldUse{}
	for _, a := range Adapters() {
		for _, tool := range a.Tools() {
			if tool.Command != "" {
				m[tool.Command] = fieldUse{list: tool.Commands}
			}
			for _, d := range tool.Dir {
				m[d] = fieldUse{}
			}
			for _, s := range tool.Paths {
				m[s.Field] = fieldUse{edits: s.Edits, list: s.List}
			}
		}
	}
	return m
})

type fieldUse struct{ edits, list bool }

// env reads a variable from a possibly nil lookup; "" and unset are alike.
func lookupEnv(l Lookup, key string) string {
	if l == nil {
		return ""
	}
	v, _ := l(key)
	return strings.TrimSpace(v)
}

// toolEntry is one tool of a host: every spelling the host sends (hook
// matchers are generated from them) and what the guard reads.
type toolEntry struct {
	names []string
	tool  Tool
}

// toolTable is a host's tools; names are matched case-insensitively, as the
// guard always has.
type toolTable []toolEntry

func (t toolTable) lookup(name string) (Tool, bool) {
	name = strings.TrimSpace(name)
	for _, e := range t {
		for _, n := range e.names {
			if strings.EqualFold(n, name) {
				return e.tool, true
			}
		}
	}
	return Tool{}, false
}

func (t toolTable) list() []Tool {
	out := make([]Tool, 0, len(t))
	for _, e := range t {
		out = append(out, e.tool)
	}
	return out
}

// spellings lists every tool name as the host sends it, in table order.
func (t toolTable) spellings() []string {
	var out []string
	for _, e := range t {
		out = append(out, e.names...)
	}
	return out
}

// with returns t plus more entries (a host that adds tools to another's).
func (t toolTable) with(more ...toolEntry) toolTable {
	return append(append(toolTable{}, t...), more...)
}
