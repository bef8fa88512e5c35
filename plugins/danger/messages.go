package danger

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// finding is one thing the gate asks about, before it becomes a message.
type finding struct {
	rule    *rules.Rule
	cmd     string // the command, as the message names it
	detail  string // the option, subcommand or consumer that matters
	subject string // what a command without path targets acts on (git: remote and refs, commit, branch)
	targets []hit
	// fullDetail keeps detail whole (a rules.Cause), not cut to maxCmdLen.
	fullDetail bool
}

const (
	prefixZh = "[zcode-fence: 危险命令] "
	prefixEn = "[zcode-fence: dangerous command] "

	// Advice closing every message: ask the user, do not work around it.
	adviceZhPath = "请先征得用户同意，或改用项目内或临时目录的路径；不要改写命令绕过检查。"
	adviceEnPath = "Ask the user, or use a project or temp path; don't rewrite it to evade this check."
	adviceZh     = "请先征得用户同意；不要改写命令绕过检查。"
	adviceEn     = "Ask the user first; don't rewrite it to evade this check."

	// maxMessage is the length (in runes) a message is kept under, by
	// showing fewer and shorter targets when needed.
	maxMessage = 210
	maxCmdLen  = 32
)

// targetLimits are the (targets shown, runes per target, labels shown)
// tried in turn until the message fits maxMessage.
var targetLimits = [...]struct {
	shown, width int
	labels       bool
}{{2, 40, true}, {1, 40, true}, {1, 40, false}, {1, 16, false}}

// labelsZh translates the target labels.
var labelsZh = map[string]string{
	paths.LabelRoot:         "文件系统根",
	paths.LabelDriveRoot:    "盘符根",
	paths.LabelShareRoot:    "网络共享根",
	paths.LabelHome:         "用户主目录",
	paths.LabelHomeAncestor: "主目录的上级",
	paths.LabelProfile:      "整个用户目录",
	paths.LabelVolume:       "挂载卷",
	paths.LabelSystem:       "系统目录",
	labelCritical:           "关键系统文件",
	labelDisk:               "磁盘设备",
	labelSysrq:              "内核 SysRq 触发器",
	labelLiteralTilde:       "当前目录下名为 ~ 的目录，不是主目录",
}

// IncompleteReason is the reason the danger gate gives when it could not
// finish judging a call, for cause c, in language l (DG-INCOMPLETE): the
// layer reports it when its step budget runs out, the host when the layer
// failed, panicked or ran out of time (core/host.Builtin.Incomplete).
func IncompleteReason(c rules.Cause, l core.Language) core.Reason {
	j := judge{en: l == core.English}
	return core.Reason{Layer: Name, Rule: rules.Incomplete.ID, Message: j.message(incompleteFinding(c, l))}
}

func incompleteFinding(c rules.Cause, l core.Language) finding {
	return finding{rule: rules.Incomplete, detail: c.In(l), fullDetail: true}
}

// add records a finding as a reason, once.
func (j *judge) add(f finding) {
	j.addReason(f.rule, j.message(f))
}

// addReason records a rendered reason, once.
func (j *judge) addReason(r *rules.Rule, msg string) {
	if j.seen == nil {
		j.seen = map[string]bool{}
	}
	if j.seen[msg] {
		return
	}
	j.seen[msg] = true
	j.reasons = append(j.reasons, core.Reason{Layer: Name, Rule: r.ID, Message: msg})
}

// message renders a finding in the call's language.
func (j *judge) message(f finding) string {
	body, prefix, advice := f.rule.Zh, prefixZh, adviceZh
	if j.en {
		body, prefix, advice = f.rule.En, prefixEn, adviceEn
		if f.rule.PathAdvice {
			advice = adviceEnPath
		}
	} else if f.rule.PathAdvice {
		advice = adviceZhPath
	}
	if j.en {
		advice = " " + advice
	}
	detail := clip(f.detail, maxCmdLen)
	if f.fullDetail {
		detail = f.detail
	}
	var msg string
	for _, lim := range targetLimits {
		b := rules.Fill(body, "cmd", clip(f.cmd, maxCmdLen), "detail", detail,
			"subject", j.subject(f.subject, lim.width), "targets", j.targetList(f.targets, lim.shown, lim.width, lim.labels))
		b = strings.Join(strings.Fields(b), " ")
		if !j.en {
			b = strings.ReplaceAll(b, "） ", "）")
		}
		msg = prefix + rules.Origin(j.fromFile) + b + advice
		if utf8.RuneCountInString(msg) <= maxMessage {
			break
		}
	}
	return msg
}

// subject renders a finding's subject in parentheses after what precedes
// it, cut to width runes; "" when there is none.
func (j *judge) subject(s string, width int) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	if j.en {
		return " (" + clip(s, width) + ")"
	}
	return "（" + clip(s, width) + "）"
}

// targetList names up to shown targets, each cut to width runes, with
// their labels when labels is set.
func (j *judge) targetList(hs []hit, shown, width int, labels bool) string {
	var parts []string
	more := ""
	for i, h := range hs {
		if i == shown {
			if j.en {
				more = " and " + strconv.Itoa(len(hs)-i) + " more"
			} else {
				more = "等 " + strconv.Itoa(len(hs)) + " 处"
			}
			break
		}
		s := clip(h.shown, width)
		if h.label != "" && (labels || h.label == labelLiteralTilde) {
			if j.en {
				s += " (" + h.label + ")"
			} else if zh, ok := labelsZh[h.label]; ok {
				s += "（" + zh + "）"
			}
		}
		parts = append(parts, s)
	}
	if j.en {
		return strings.Join(parts, ", ") + more
	}
	return strings.Join(parts, "、") + more
}

// clip cuts s to at most n runes, marking the cut with "…", and keeps it
// on one line.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
