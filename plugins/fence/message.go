package fence

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/zcode-fence/zcode-fence/core"
)

// Rule ids. They are part of the layer's contract (decision logs, tests,
// documentation): never rename one.
const (
	RuleWriteOutside        = "FN-WRITE-OUTSIDE"
	RuleRedirectOutside     = "FN-REDIRECT-OUTSIDE"
	RuleCommandWriteOutside = "FN-COMMAND-WRITE-OUTSIDE"
	RuleScriptWriteOutside  = "FN-SCRIPT-WRITE-OUTSIDE"
	RuleSymlinkEscape       = "FN-SYMLINK-ESCAPE"
	RuleUnresolved          = "FN-UNRESOLVED"
)

// verb is what a command does to its target, for the message.
type verb uint8

const (
	verbWrite  verb = iota // writes or creates
	verbRemove             // deletes
	verbMove               // moves away (mv's source)
	verbModify             // changes mode, owner or attributes
)

var verbText = [...][2]string{
	verbWrite:  {"写入", "writes"},
	verbRemove: {"删除", "deletes"},
	verbMove:   {"移走", "moves away"},
	verbModify: {"修改", "modifies"},
}

// origin says where a target came from: the rule to report when it is
// outside, and the label and verb of the message.
type origin struct {
	rule  string
	label string
	verb  verb
}

// Message templates: label, verb, target, root (escape: label, verb,
// target, real path, root).
const (
	zhOutside    = "[zcode-fence: 越界写入] %s %s %s，不在项目根 %s 及其他可写根内。请改用项目内或临时目录的路径，或请用户确认；不要绕过此检查。"
	zhEscape     = "[zcode-fence: 越界写入] %s %s %s，但符号链接使它实际指向项目外的 %s（项目根 %s）。请改用项目内的真实路径或临时目录，或请用户确认；不要绕过此检查。"
	zhUnresolved = "[zcode-fence: 路径无法解析] %s %s %s，其中的变量、命令替换或所在目录无法确定，无法判定是否在项目根 %s 内。请改用明确的路径，或请用户确认；不要绕过此检查。"
	enOutside    = "[zcode-fence: write outside the project] %s %s %s, outside the project root %s and every writable root. Use a project or temp path, or ask the user; do not work around this check."
	enEscape     = "[zcode-fence: write outside the project] %s %s %s, which a symlink leads to %s, outside the project root %s. Use a real project or temp path, or ask the user; do not work around this check."
	enUnresolved = "[zcode-fence: unresolved path] %s %s %s, holding an unknown variable, substitution or directory: it cannot be checked against the project root %s. Use an explicit path, or ask the user; do not work around this check."
)

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
	key = string(rune('0'+r.kind)) + key
	if j.seen == nil {
		j.seen = map[string]bool{}
	}
	if j.seen[key] {
		return
	}
	j.seen[key] = true
	if len(j.reasons) >= maxReasons {
		j.more++
		return
	}
	lang := 0
	if j.en {
		lang = 1
	}
	v := verbText[o.verb][lang]
	target, root := shorten(r.shown), shorten(j.root)
	rule := o.rule
	var msg string
	switch r.kind {
	case escape:
		rule = RuleSymlinkEscape
		msg = fmt.Sprintf(pick(j.en, zhEscape, enEscape), o.label, v, target, shorten(r.real), root)
	case unresolved:
		rule = RuleUnresolved
		msg = fmt.Sprintf(pick(j.en, zhUnresolved, enUnresolved), o.label, v, target, root)
	default:
		msg = fmt.Sprintf(pick(j.en, zhOutside, enOutside), o.label, v, target, root)
	}
	j.reasons = append(j.reasons, core.Reason{Layer: Name, Rule: rule, Message: msg})
}

// verdict is Ask with the reasons found, or Silent.
func (j *judge) verdict() core.Verdict {
	if len(j.reasons) == 0 {
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
	return core.AskVerdict(reasons...)
}

func pick(en bool, zh, english string) string {
	if en {
		return english
	}
	return zh
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
