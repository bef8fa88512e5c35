package danger

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// AnnotationCustomSkipped is the verdict annotation naming the custom
// rules that did not compile (--eval and doctor report it).
const AnnotationCustomSkipped = "custom_rules_skipped"

// customSet is a compiled custom_rules value.
type customSet struct {
	rules []customRule
	bad   []string // "#2 ([): error parsing regexp: ..."
}

// size is the number of rules (0 for a nil set).
func (cs *customSet) size() int {
	if cs == nil {
		return 0
	}
	return len(cs.rules)
}

// customRule is one compiled rule with its 1-based position in the list
// (rules that failed to compile keep their position).
type customRule struct {
	index int
	src   string
	re    *regexp.Regexp
}

var (
	noCustom = &customSet{}
	// customCache maps a custom_rules string to its compiled set: the
	// value is the same on every call of a session, and compiling is the
	// costly part.
	customCache   sync.Map
	customEntries int
	customMu      sync.Mutex
)

// maxCustomCache bounds how many distinct custom_rules strings are kept.
const maxCustomCache = 64

// Bounds on custom_rules, so a pasted blob cannot stall every tool call:
// compiling one 10 MB expression took about 3 s and 1.5 GB. A rule longer
// than maxRuleBytes is skipped (and named); rules past maxRules are
// ignored (and counted).
const (
	maxRuleBytes = 4 << 10
	maxRules     = 256
)

// compileCustom compiles a ';'-separated list of Go (RE2) regular
// expressions, case-sensitive. Blank items are ignored; an item that does
// not compile is skipped and recorded in bad. Cost: a map lookup after the
// first call with the same string.
func compileCustom(spec string) *customSet {
	if strings.TrimSpace(spec) == "" {
		return noCustom
	}
	if cs, ok := customCache.Load(spec); ok {
		return cs.(*customSet)
	}
	cs := &customSet{}
	index := 0
	for _, item := range strings.Split(spec, ";") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		index++
		if index > maxRules {
			cs.bad = append(cs.bad, "#"+strconv.Itoa(index)+" and later: more than "+strconv.Itoa(maxRules)+" rules")
			break
		}
		if len(item) > maxRuleBytes {
			cs.bad = append(cs.bad, "#"+strconv.Itoa(index)+" "+clip(item, 60)+": longer than "+strconv.Itoa(maxRuleBytes)+" bytes")
			continue
		}
		re, err := regexp.Compile(item)
		if err != nil {
			cs.bad = append(cs.bad, "#"+strconv.Itoa(index)+" "+clip(item, 60)+": "+clip(err.Error(), 120))
			continue
		}
		cs.rules = append(cs.rules, customRule{index: index, src: item, re: re})
	}
	customMu.Lock()
	if customEntries >= maxCustomCache {
		customCache.Range(func(k, _ any) bool { customCache.Delete(k); return true })
		customEntries = 0
	}
	if _, loaded := customCache.LoadOrStore(spec, cs); !loaded {
		customEntries++
	}
	customMu.Unlock()
	return cs
}

// skippedNote lists the rules that did not compile, for the annotation.
func (cs *customSet) skippedNote() string {
	return "danger: custom rules skipped (not valid Go regular expressions): " + strings.Join(cs.bad, "; ")
}

// judgeCustomText matches every custom rule against text (DG-CUSTOM).
func (j *judge) judgeCustomText(text string) {
	if j.custom == nil || len(j.custom.rules) == 0 || text == "" {
		return
	}
	for _, r := range j.custom.rules {
		if r.re.MatchString(text) {
			j.add(finding{rule: rules.Custom, cmd: r.src, detail: strconv.Itoa(r.index)})
		}
	}
}

// judgeCustomCommand matches the custom rules against one command's text:
// its assignments and arguments as the shell resolved them (so ^rule
// matches behind sudo, quotes and bash -c too).
func (j *judge) judgeCustomCommand(c *ir.Command) {
	if j.custom == nil || len(j.custom.rules) == 0 || len(c.Args) == 0 {
		return
	}
	var sb strings.Builder
	for _, a := range c.Assigns {
		sb.WriteString(a.Name)
		sb.WriteByte('=')
		sb.WriteString(a.Value.Value)
		sb.WriteByte(' ')
	}
	for i, a := range c.Args {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(a.Value)
	}
	j.judgeCustomText(sb.String())
}
