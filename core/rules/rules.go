// Package rules is the catalog of every rule id the built-in layers report:
// each rule is declared once, here, as a *Rule value with its id, its
// family, a one-paragraph doc and its message templates in Chinese and
// English. The layers report the values (danger.report(rules.RmRecursive,
// ...)), never an id string; docs/rules.md is generated from the catalog
// (go generate ./core/rules), and a test fails when a rule has no asking
// case or no silent twin in its layer's testdata.
//
// Identifiers: a DG- rule is its id without the prefix in CamelCase
// (DG-RM-RECURSIVE is RmRecursive), an FN- rule has the prefix Fence
// (FenceWriteOutside), a DM- rule the prefix Model (ModelDataLoss), an HK-
// rule (the host seam's, core/agenthost) the prefix Host
// (HostAmbiguousInput).
//
// Third-party layers keep their own ids (the example's PB-* rules live in
// examples/layers/protect-branch).
package rules

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

// Family groups the rules of one layer by what they guard. Families are
// the unit a user can reason about ("git", "persist"); Name is stable.
type Family struct {
	// Layer is the name of the layer that reports the family's rules.
	Layer string
	// Name is the family's short, stable name, unique in the catalog.
	Name string
	// Title heads the family in docs/rules.md.
	Title string
	// Doc, when set, introduces the family in docs/rules.md.
	Doc string
}

// Rule is one rule id with what belongs to it. Its fields are read-only.
type Rule struct {
	// ID is the stable id in reasons and the decision log. Never rename one.
	ID     string
	Family *Family
	// Doc says in one paragraph what the rule asks about; the commands a
	// table of core/cmdfacts supplies are not repeated in it but listed
	// from the table (Covers), and Doc may name them as {list}.
	Doc string
	// covers, when set, returns the table rows the rule asks about, per
	// command (core/cmdfacts' coverage catalogue), built only when the
	// reference is rendered.
	covers func() []cmdfacts.Covered
	// Zh and En are the message templates: text with {name} placeholders
	// that the layer fills (see Fill); which placeholders a template may use
	// is the layer's contract (its tests check them).
	Zh, En string
	// PathAdvice says the closing advice may offer a project or temp path
	// instead of asking (danger's rules about path targets).
	PathAdvice bool
	// Locked rules cannot be switched off with disabled_rules: the
	// catastrophic core (deleting a root, home, a system directory; wiping
	// a disk) and the answers that keep the guard failing closed (see
	// locked.go).
	Locked bool
}

// Documentation returns Doc with {list} pointing at the rule's commands
// in the reference ("the commands listed under What each rule covers").
func (r *Rule) Documentation() string {
	return strings.Replace(r.Doc, "{list}", "the commands listed for "+r.ID+" under [What each rule covers](#"+strings.ToLower(r.ID)+")", 1)
}

// Covers returns, per command, the table rows the rule asks about (nil
// when no table of core/cmdfacts states its commands). Built on each
// call, from the tables the layers read.
func (r *Rule) Covers() []cmdfacts.Covered {
	if r.covers == nil {
		return nil
	}
	return r.covers()
}

// Template returns r's template in language l (Chinese unless l is
// English).
func (r *Rule) Template(l core.Language) string {
	if l == core.English {
		return r.En
	}
	return r.Zh
}

var (
	families []*Family
	all      []*Rule
	byID     = map[string]*Rule{}
)

// family registers a family, in the order docs/rules.md lists families.
func family(f *Family) *Family {
	families = append(families, f)
	return f
}

// def registers a rule, in the order docs/rules.md lists a family's rules.
// A duplicate id panics when the package initialises (every test run).
func def(r *Rule) *Rule {
	if _, dup := byID[r.ID]; dup {
		panic("rules: " + r.ID + " declared twice")
	}
	byID[r.ID] = r
	all = append(all, r)
	return r
}

// All returns every rule, family by family in catalog order (a copy).
func All() []*Rule {
	out := make([]*Rule, 0, len(all))
	for _, f := range families {
		out = append(out, f.Rules()...)
	}
	return out
}

// Families returns every family in catalog order (a copy).
func Families() []*Family { return append([]*Family(nil), families...) }

// Rules returns f's rules in declaration order.
func (f *Family) Rules() []*Rule {
	var out []*Rule
	for _, r := range all {
		if r.Family == f {
			out = append(out, r)
		}
	}
	return out
}

// Lookup returns the rule with id.
func Lookup(id string) (*Rule, bool) {
	r, ok := byID[id]
	return r, ok
}

// Fill replaces every {name} in template with the value paired with name
// in kv ("name", value, "name", value, ...). Any other text, braces and
// unknown placeholders included, is kept; values are inserted as they are
// (never scanned for placeholders). It allocates the result only.
func Fill(template string, kv ...string) string {
	n := len(template)
	for i := 1; i < len(kv); i += 2 {
		n += len(kv[i])
	}
	var b strings.Builder
	b.Grow(n)
	for {
		i := strings.IndexByte(template, '{')
		if i < 0 {
			b.WriteString(template)
			return b.String()
		}
		b.WriteString(template[:i])
		template = template[i:]
		skip := 0
		for j := 0; j+1 < len(kv); j += 2 {
			name := kv[j]
			if len(template) >= len(name)+2 && template[1:1+len(name)] == name && template[1+len(name)] == '}' {
				b.WriteString(kv[j+1])
				skip = len(name) + 2
				break
			}
		}
		if skip == 0 { // a brace that opens no placeholder is kept
			b.WriteByte('{')
			skip = 1
		}
		template = template[skip:]
	}
}

// Placeholders returns the {name} placeholders template uses, in order of
// first use (names are ASCII letters).
func Placeholders(template string) []string {
	var out []string
	for {
		i := strings.IndexByte(template, '{')
		if i < 0 {
			return out
		}
		template = template[i+1:]
		j := strings.IndexByte(template, '}')
		if j <= 0 || strings.IndexFunc(template[:j], func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') }) >= 0 {
			continue
		}
		name := template[:j]
		seen := false
		for _, o := range out {
			seen = seen || o == name
		}
		if !seen {
			out = append(out, name)
		}
		template = template[j+1:]
	}
}

// Cause is why a built-in layer could not fully inspect a call: the
// {detail} of the *-INCOMPLETE rules (Incomplete, FenceIncomplete), in
// both languages. A built-in that cannot finish judging a shell or file
// call asks (DESIGN §3) and says why with one of these.
type Cause struct{ Zh, En string }

// The causes.
var (
	// CauseTooLarge: the layer's step budget ran out.
	CauseTooLarge = Cause{"命令过大或过于复杂，超出检查的步数预算", "too large to inspect within the step budget"}
	// CauseTruncated: the analysis of the command was cut short.
	CauseTruncated = Cause{"命令嵌套过深或过长，分析被截断", "the analysis was cut short: nested too deeply or too long"}
	// CauseTimeout: the layer did not answer in time.
	CauseTimeout = Cause{"检查超时", "the inspection ran out of time"}
	// CauseFailed: the layer returned an error or panicked.
	CauseFailed = Cause{"检查程序内部出错", "an internal error stopped the inspection"}
)

// In returns c in language l (Chinese unless l is English).
func (c Cause) In(l core.Language) string {
	if l == core.English {
		return c.En
	}
	return c.Zh
}

// maxOrigin is the most runes of an origin a message shows.
const maxOrigin = 48

// Origin renders where a command was read from (ir.Command.Origin: a
// file on disk the call runs, with its line) for the start of a message
// body: "scripts/clean.sh:12: "; "" for none. A long name keeps its end
// (the file's own name and the line).
func Origin(o string) string {
	if o == "" {
		return ""
	}
	if r := []rune(o); len(r) > maxOrigin {
		o = "…" + string(r[len(r)-maxOrigin+1:])
	}
	return o + ": "
}
