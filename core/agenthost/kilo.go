package agenthost

// Kilo CLI (@kilocode/cli, a fork of opencode; measured with 7.7.7 against a
// fake chat-completions API; testdata/hosts/kilo-*.json, e2e
// TestKiloPlugin).
//
// Kilo loads opencode's plugins unchanged, from ~/.config/kilo/plugins/
// (and the project's .kilo/plugins/) or the "plugin" list of kilo.json: the
// bundle's JS plugin runs there as in opencode, with the same tools and the
// same payload. Its process has KILO=1, KILO_PID and KILOCODE_VERSION
// besides opencode's OPENCODE=1: the JS plugin's payload with one of them
// is Kilo's. It cannot ask from a plugin either: the guard answers with
// no_ask_fallback.
type kilo struct{}

func init() { register(60, kilo{}) }

// kiloEnv are variables Kilo sets in its process and opencode does not.
var kiloEnv = []string{"KILO_PID", "KILOCODE_VERSION"}

func (kilo) Name() string { return "kilo" }

func (kilo) Claim(e *Envelope, env Lookup) Evidence {
	if !fromJSPlugin(e) {
		return NoEvidence
	}
	for _, k := range kiloEnv {
		if lookupEnv(env, k) != "" {
			return PayloadEvidence
		}
	}
	return NoEvidence
}

func (kilo) Tool(name string) (Tool, bool) { return opencodeTools.lookup(name) }
func (kilo) Tools() []Tool                 { return opencodeTools.list() }
func (kilo) ToolNames() []string           { return opencodeTools.spellings() }
func (kilo) Packaging() Packaging          { return jsPluginPackaging }
func (kilo) ProjectDirEnv() []string       { return nil }
func (kilo) OptionEnvPrefixes() []string   { return nil }
func (kilo) Answer(a Ask) []byte           { return stoppingAnswer(a) }

// Kilo: its config dir (kilo.json, opencode.json, plugins/), the project's
// .kilo and .kilocode (the project's kilo.json is left out, as opencode's).
var kiloPaths = []HostPath{
	{Rel: ".config/kilo", Shape: PathTree},
	{Rel: ".kilo", Shape: PathTree, Project: true},
	{Rel: ".kilocode", Shape: PathTree, Project: true},
}

func (kilo) HostPaths() []HostPath { return kiloPaths }

// Kilo (measured with 7.7.7): as opencode, below ~/.config/kilo.
var kiloInstall = Install{
	Label: "Kilo CLI", Dir: ".config/kilo", ConfigHomeEnv: "XDG_CONFIG_HOME",
	PluginFile: jsPluginRel, PluginListKey: "plugin",
	JSPlugins:   []string{"plugins/*", "plugin/*"},
	PluginLists: []string{"kilo.json", "kilo.jsonc", "opencode.json", "config.json"},
	Events:      []string{jsPluginEvent}, CannotAsk: true, MarketSegment: -1, Enable: PluginPresent,
	InstallHow: "ln -s <unpacked release>/" + jsPluginFile + " ~/.config/kilo/plugins/ (README: Install)",
}

func (kilo) Install() Install { return kiloInstall }
