package fence

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// verb is what a command does to its target, for the message.
type verb uint8

const (
	verbWrite  verb = iota // writes or creates
	verbRemove             // deletes
	verbMove               // moves away (mv's source)
	verbModify             // changes mode, owner or attributes
	verbLink               // links to (hard or symbolic)
)

var verbText = [...][2]string{
	verbWrite:  {"写入", "writes"},
	verbRemove: {"删除", "deletes"},
	verbMove:   {"移走", "moves away"},
	verbModify: {"修改", "modifies"},
	verbLink:   {"链接到", "links to"},
}

// origin says where a target came from: the rule to report when it is
// outside, and the label and verb of the message.
type origin struct {
	rule  *rules.Rule
	label string
	verb  verb
}

// maxShown caps each path in a message (in characters), so one reason
// stays near 200 characters (Chinese about 100 plus the paths).
const maxShown = 56

// add records the reason for one judged target, once per distinct target.
func (j *judge) add(o origin, r result) {
	if r.kind == inside {
		return
	}
	key := r.shown
	if j.p.OS == "windows" || j.p.OS == "darwin" {
		key = strings.ToLower(key)
	}
	if !j.fresh(string(rune('0'+r.kind)) + key) {
		return
	}
	lang := 0
	if j.en {
		lang = 1
	}
	rule := o.rule
	switch r.kind {
	case escape:
		rule = rules.FenceSymlinkEscape
	case unresolved:
		rule = rules.FenceUnresolved
	case linkOutside:
		rule = rules.FenceHardLinkOutside
	case protectedHit:
		rule = protectedRule(o.verb, r.bulk)
		if r.place {
			rule = rules.ProtectedReplace
		}
	}
	tl := core.Chinese
	if j.en {
		tl = core.English
	}
	msg := rules.Fill(rule.Template(tl), "label", o.label, "verb", verbText[o.verb][lang],
		"target", shorten(r.shown), "real", shorten(r.real), "root", shorten(j.root), "what", r.what)
	j.reasons = append(j.reasons, core.Reason{Layer: Name, Rule: rule.ID, Message: withOrigin(msg, j.origin())})
}

// fresh reports whether a reason keyed key is to be added: not seen
// before, and room left (else counted in more).
func (j *judge) fresh(key string) bool {
	if j.seen == nil {
		j.seen = map[string]bool{}
	}
	if j.seen[key] {
		return false
	}
	j.seen[key] = true
	if len(j.reasons) >= maxReasons {
		j.more++
		return false
	}
	return true
}

// origin is where the command being judged was read from
// (ir.Command.Origin), "" for the command line and for file tools.
func (j *judge) origin() string {
	if j.call.Script == nil || j.cur < 0 || j.cur >= len(j.call.Script.Commands) {
		return ""
	}
	return j.call.Script.Commands[j.cur].Origin
}

// withOrigin puts the origin after the message's "[zcode-fence: ...] "
// prefix.
func withOrigin(msg, origin string) string {
	if origin == "" {
		return msg
	}
	o := rules.Origin(origin)
	if strings.HasPrefix(msg, "[") {
		if i := strings.Index(msg, "] "); i > 0 {
			return msg[:i+2] + o + msg[i+2:]
		}
	}
	return o + msg
}

// IncompleteReason is the reason the fence gives when it could not finish
// judging a call, for cause c, in language l (FN-INCOMPLETE): the layer
// reports it when its step budget runs out or the analysis was cut short,
// the host when the layer failed, panicked or ran out of time
// (core/host.Builtin.Incomplete).
func IncompleteReason(c rules.Cause, l core.Language) core.Reason {
	return core.Reason{Layer: Name, Rule: rules.FenceIncomplete.ID,
		Message: rules.Fill(rules.FenceIncomplete.Template(l), "detail", c.In(l))}
}

// incomplete records that the fence could not judge the whole call, and
// why (FN-INCOMPLETE), once; it is kept whatever the cap on reasons.
func (j *judge) incomplete(c rules.Cause) {
	l := core.Chinese
	if j.en {
		l = core.English
	}
	r := IncompleteReason(c, l)
	if j.seen == nil {
		j.seen = map[string]bool{}
	}
	if j.seen["!"+r.Message] {
		return
	}
	j.seen["!"+r.Message] = true
	j.extra = append(j.extra, r)
}

// verdict is Ask with the reasons found, or Silent.
func (j *judge) verdict() core.Verdict {
	if len(j.reasons)+len(j.extra) == 0 {
		return core.SilentVerdict
	}
	reasons := j.reasons
	if j.more > 0 {
		last := &reasons[len(reasons)-1]
		if j.en {
			last.Message += fmt.Sprintf(" (%d more targets not listed)", j.more)
		} else {
			last.Message += fmt.Sprintf("（另有 %d 个目标未列出）", j.more)
		}
	}
	return core.AskVerdict(append(reasons, j.extra...)...)
}

// shorten cuts s to maxShown characters, keeping its start and its end
// (the file name) around "…".
func shorten(s string) string {
	n := utf8.RuneCountInString(s)
	if n <= maxShown {
		return s
	}
	r := []rune(s)
	head := maxShown * 2 / 3
	tail := maxShown - head - 1
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// fileToolLabel names a file tool.
func (j *judge) fileToolLabel() string {
	if j.call.Tool == "" {
		return "Write"
	}
	return j.call.Tool
}

// redirectLabel names a redirect of a command ("echo 的重定向 >").
func (j *judge) redirectLabel(cmd, op string) string {
	switch {
	case j.en && cmd == "":
		return "the " + op + " redirect"
	case j.en:
		return "the " + op + " redirect of " + cmd
	case cmd == "":
		return "重定向 " + op
	default:
		return cmd + " 的重定向 " + op
	}
}

// scriptLabel names an interpreter one-liner ("python3 内嵌脚本").
func (j *judge) scriptLabel(runner string) string {
	if j.en {
		return "the " + runner + " one-liner"
	}
	return runner + " 内嵌脚本"
}
