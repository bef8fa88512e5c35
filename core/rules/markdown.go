package rules

//go:generate go run ../../tools/generate rules

import (
	"bytes"
	"fmt"
	"strings"
)

// DocPath is where Markdown's output is committed, relative to the module
// root.
const DocPath = "docs/rules.md"

// layerDocs introduce each layer's part of docs/rules.md, in order.
var layerDocs = []struct{ name, title, intro string }{
	{"danger", "Danger gate (`danger`, DG-*)", "" +
		"\"Catastrophic\" means a target that, after it was resolved against the command's cd chain " +
		"and the call's cwd, is the filesystem, drive or share root, home or one of its ancestors, a " +
		"whole user profile (also `~NAME`, `%USERPROFILE%`, `$env:USERPROFILE`) or a system " +
		"directory; a glob over one (`/etc/*`, `~/.*`) counts as the directory. Every message ends " +
		"with advice to ask the user (or, for path targets, to use a project or temp path) and not " +
		"to rewrite the command to evade the check."},
	{"fence", "Project fence (`fence`, FN-*)", "" +
		"One reason per distinct target, at most four per call."},
	{"decisionmodel", "Decision model (`decisionmodel`, DM-*)", "" +
		"Only when `enable_decision_model` is on and every deterministic layer was silent."},
	{"host", "Host (`host`, HK-*)", "" +
		"Raised by the host itself (`core/host`, `core/agenthost` while it decodes the hook " +
		"payload, before any layer runs), on every agent host, whatever the layers say; they " +
		"join the layers' reasons."},
}

// Markdown renders the catalog as docs/rules.md: per layer, per family,
// every rule with its doc and its English message template.
func Markdown() []byte {
	var b bytes.Buffer
	b.WriteString("# Rule ids\n\n")
	b.WriteString("<!-- Generated from core/rules by `go generate ./core/rules`; do not edit. -->\n\n")
	b.WriteString("Every ask of a built-in layer, and of the host seam that decodes the payload, names one of these rule ids, in the reason shown to the " +
		"agent and in the decision log (`zcode-fence log --rule ID`). Ids are stable. Each rule is " +
		"declared once, in `core/rules`, with its family, this doc and its message in Chinese and " +
		"English; `{name}` is filled by the layer. Third-party layers name their own ids " +
		"(see [layers.md](layers.md)).\n")
	for _, l := range layerDocs {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", l.title, l.intro)
		for _, f := range families {
			if f.Layer != l.name {
				continue
			}
			fmt.Fprintf(&b, "\n### %s (`%s`)\n\n", f.Title, f.Name)
			if f.Doc != "" {
				b.WriteString(f.Doc + "\n\n")
			}
			b.WriteString("| id | asks about | message (en) |\n| --- | --- | --- |\n")
			for _, r := range f.Rules() {
				doc := mdText(r.Documentation())
				if r.Locked {
					doc += " **Cannot be switched off** (`disabled_rules`)."
				}
				fmt.Fprintf(&b, "| `%s` | %s | `%s` |\n", r.ID, doc, mdCode(r.En))
			}
		}
	}
	b.WriteString("\n## What each rule covers\n\n" +
		"The commands of the rules above that come from a command table of `core/cmdfacts`, per command, " +
		"rendered from the tables the danger gate reads (a row added there appears here). A path lists " +
		"aliases as a/b and the options it needs; the rule's text above says what stays silent.\n")
	for _, r := range All() {
		cs := r.Covers()
		if len(cs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n### %s\n\n| command | asks on |\n| --- | --- |\n", r.ID)
		for _, c := range cs {
			var paths []string
			for _, p := range c.Commands {
				paths = append(paths, "`"+mdCode(p)+"`")
			}
			on := strings.Join(paths, ", ")
			if on == "" {
				on = "every run"
			}
			fmt.Fprintf(&b, "| `%s` | %s |\n", mdCode(c.CLI), on)
		}
	}
	return b.Bytes()
}

// mdText makes prose safe inside a Markdown table cell: what Markdown would
// read as emphasis, escapes, HTML or a cell boundary is escaped.
var mdText = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "<", `\<`, "|", `\|`, "\n", " ").Replace

// mdCode makes text safe inside a code span in a table cell (only the cell
// boundary needs escaping there).
var mdCode = strings.NewReplacer("|", `\|`, "`", "'", "\n", " ").Replace
