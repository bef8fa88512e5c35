package danger

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/paths"
)

// finding is one thing the gate asks about, before it becomes a message.
type finding struct {
	rule    string
	cmd     string // the command, as the message names it
	detail  string // the option, subcommand or consumer that matters
	subject string // what a command without path targets acts on (git: remote and refs, commit, branch)
	targets []hit
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

// template is one rule's message body in both languages, with {cmd},
// {detail} and {targets} placeholders; path says which advice closes it.
type template struct {
	zh, en string
	path   bool
}

var templates = map[string]template{
	"DG-RM-RECURSIVE":        {"{cmd} 将递归删除 {targets}，无法恢复。", "{cmd} would recursively delete {targets}; this cannot be undone.", true},
	"DG-RM-NO-PRESERVE-ROOT": {"{cmd} 带 --no-preserve-root，关闭了根目录保护（目标 {targets}）。", "{cmd} uses --no-preserve-root, turning off the root safeguard (target {targets}).", true},
	"DG-RM-GLOB":             {"{cmd} 将删除 {targets} 下的全部文件。", "{cmd} would delete every file in {targets}.", true},
	"DG-RMDIR":               {"{cmd} 作用于 {targets}。", "{cmd} removes {targets}.", true},
	"DG-WIN-DELETE":          {"{cmd} 将删除 {targets} 中的文件，无法恢复。", "{cmd} would delete the files in {targets}; this cannot be undone.", true},
	"DG-PS-REMOVE":           {"{cmd} 将删除 {targets}，无法恢复。", "{cmd} would delete {targets}; this cannot be undone.", true},
	"DG-FIND-DELETE":         {"{cmd} 将删除在 {targets} 下找到的文件。", "{cmd} would delete what it finds under {targets}.", true},
	"DG-XARGS-DELETE":        {"{cmd} 将删除从 {targets} 列出的条目。", "{cmd} would delete the entries listed from {targets}.", true},
	"DG-SHRED":               {"{cmd} 将不可恢复地覆写 {targets}。", "{cmd} would irrecoverably overwrite {targets}.", true},
	"DG-MV-SOURCE":           {"{cmd} 将把 {targets} 整体移走，系统或用户数据会随之失效。", "{cmd} would move {targets} away, breaking the system or the user's data.", true},
	"DG-RSYNC-DELETE":        {"{cmd} {detail} 同步到 {targets}，会删掉其中源里没有的一切。", "{cmd} {detail} into {targets} deletes everything there that the source lacks.", true},
	"DG-UNRESOLVED-TARGET":   {"{cmd} 的目标 {targets} 取决于未知变量，为空或出错时可能删到根目录或主目录。", "{cmd} targets {targets}, built from an unknown variable that could make it / or home.", true},
	"DG-UNKNOWN-COMMAND":     {"命令名 {cmd} 运行前无法确定，其参数指向 {targets}。", "The command word {cmd} is unknown until run time and its arguments point at {targets}.", true},
	"DG-CRITICAL-FILE":       {"{cmd} 将修改或删除 {targets}。", "{cmd} would change or delete {targets}.", true},
	"DG-DD-DEVICE":           {"{cmd} 直接写入设备 {targets}，会覆盖其上的数据。", "{cmd} writes straight to the device {targets}, overwriting its data.", true},
	"DG-DD-TARGET":           {"{cmd} 的输出会覆盖 {targets}。", "{cmd} would write its output over {targets}.", true},
	"DG-DEVICE-WRITE":        {"{cmd} 直接写入 {targets}，会破坏分区和数据。", "{cmd} writes straight to {targets}, destroying its partitions and data.", true},
	"DG-MKFS":                {"{cmd} 将格式化 {targets}，其上数据全部丢失。", "{cmd} would format {targets}, losing all data on it.", true},
	"DG-WIPEFS":              {"{cmd} 将清除 {targets} 的文件系统签名。", "{cmd} would wipe the filesystem signatures of {targets}.", true},
	"DG-PARTITION":           {"{cmd} 将改写 {targets} 的分区表或擦除其数据。", "{cmd} would rewrite the partition table of {targets} or discard its data.", true},
	"DG-DISKPART":            {"{cmd} 是磁盘分区工具，能清除整块磁盘。", "{cmd} is the disk partitioning tool and can wipe whole disks.", false},
	"DG-DISKUTIL-WIPE":       {"{cmd} {detail} 将抹除磁盘或卷。", "{cmd} {detail} would erase a disk or volume.", false},
	"DG-FORMAT":              {"{cmd} 将格式化盘符 {targets}。", "{cmd} would format the drive {targets}.", false},
	"DG-PS-DISK":             {"{cmd} 会抹除或重建磁盘、分区或卷。", "{cmd} erases or re-creates disks, partitions or volumes.", false},
	"DG-REG-DELETE":          {"{cmd} 将删除注册表根键 {targets}。", "{cmd} would delete the registry root key {targets}.", false},
	"DG-VSSADMIN":            {"{cmd} {detail} 会删除卷影副本或备份，系统将无法回滚。", "{cmd} {detail} deletes shadow copies or backups, so the system cannot be rolled back.", false},
	"DG-CIPHER-W":            {"{cmd} /w 会抹掉卷上已删除文件的残留，删除的数据再也无法恢复。", "{cmd} /w wipes a volume's free space, so deleted data can never be recovered.", false},
	"DG-CHMOD-RECURSIVE":     {"{cmd} 将递归修改 {targets} 的权限或属主，系统可能因此无法使用。", "{cmd} would recursively change permissions or owners of {targets}, which can break the system.", true},
	"DG-POWEROFF":            {"{cmd} 会关机、重启或注销。", "{cmd} shuts down, reboots or logs off the machine.", false},
	"DG-SYSTEMCTL-POWER":     {"{cmd} {detail} 会关机、重启或切到救援模式。", "{cmd} {detail} shuts down, reboots or drops the machine to rescue mode.", false},
	"DG-INIT-RUNLEVEL":       {"{cmd} {detail} 切换运行级以关机或重启。", "{cmd} {detail} switches the runlevel to halt or reboot.", false},
	"DG-BCDEDIT-WRITE":       {"{cmd} {detail} 会改写启动配置，可能导致无法开机。", "{cmd} {detail} changes the boot configuration and can leave the machine unbootable.", false},
	"DG-GIT-FORCE-PUSH":      {"{cmd} {detail}{subject} 会覆盖或删除远端的提交历史。", "{cmd} {detail}{subject} overwrites or deletes history on the remote.", false},
	"DG-GIT-RESET-HARD":      {"{cmd} {detail}{subject} 会永久丢弃未提交的改动。", "{cmd} {detail}{subject} throws away uncommitted changes for good.", false},
	"DG-GIT-CLEAN":           {"{cmd} {detail}{subject} 会永久删除未跟踪的文件。", "{cmd} {detail}{subject} permanently deletes untracked files.", false},
	"DG-GIT-BRANCH-D":        {"{cmd} {detail}{subject} 会强制删除分支，未合并的提交也会丢失。", "{cmd} {detail}{subject} force-deletes a branch, unmerged commits included.", false},
	"DG-GIT-STASH-DROP":      {"{cmd} {detail}{subject} 会永久丢弃储藏的改动。", "{cmd} {detail}{subject} discards stashed changes for good.", false},
	"DG-GIT-DISCARD":         {"{cmd} {detail}{subject} 会丢弃工作区中未提交的改动。", "{cmd} {detail}{subject} discards uncommitted changes in the working tree.", false},
	"DG-RCE-PIPE":            {"{cmd} 下载的内容被直接交给 {detail} 执行，执行前无法审查。", "What {cmd} downloads is run directly by {detail}, unseen.", false},
	"DG-RCE-DECODED":         {"{cmd} 解码出的内容被直接交给 {detail} 执行，真实命令被隐藏。", "What {cmd} decodes is run directly by {detail}, hiding the real command.", false},
	"DG-PERSIST-CRON":        {"{cmd} {detail} 会删除或替换当前用户的全部定时任务。", "{cmd} {detail} removes or replaces all of the user's cron jobs.", false},
	"DG-PERSIST-SYSTEMD":     {"{cmd} {detail} 会让服务开机自启（系统持久化）。", "{cmd} {detail} makes a service start at boot (system persistence).", false},
	"DG-PERSIST-SERVICE":     {"{cmd} {detail} 会创建或修改系统服务（系统持久化）。", "{cmd} {detail} creates or changes a system service (system persistence).", false},
	"DG-PERSIST-REG":         {"{cmd} {detail} 会写入注册表，可用于开机自启（系统持久化）。", "{cmd} {detail} writes to the registry, a way to persist at startup.", false},
	"DG-PERSIST-SCHTASKS":    {"{cmd} {detail} 会创建或修改计划任务（系统持久化）。", "{cmd} {detail} creates or changes a scheduled task (system persistence).", false},
	"DG-PERSIST-LAUNCHCTL":   {"{cmd} {detail} 会加载或卸载 launchd 服务（系统持久化）。", "{cmd} {detail} loads or unloads a launchd service (system persistence).", false},
	"DG-FIREWALL-OFF":        {"{cmd} {detail} 会关闭防火墙或系统安全防护。", "{cmd} {detail} turns off the firewall or a system security protection.", false},
	"DG-SCRIPT-DELETE":       {"{cmd} 内嵌脚本将删除 {targets}。", "The {cmd} one-liner would delete {targets}.", true},
	"DG-SCRIPT-WRITE":        {"{cmd} 内嵌脚本将写入或修改 {targets}。", "The {cmd} one-liner would write to or change {targets}.", true},
	"DG-FORK-BOMB":           {"{cmd} 是 fork 炸弹：在管道或后台里不断复制自身，会耗尽系统资源。", "{cmd} is a fork bomb: it copies itself through pipes or the background until the machine runs out of resources.", false},
	"DG-CUSTOM":              {"命令命中自定义规则 #{detail}（{cmd}）。", "The command matches custom rule #{detail} ({cmd}).", false},
	"DG-TOO-DEEP":            {"命令嵌套过深或过长，无法完整检查。", "The command is nested too deeply or is too long to inspect completely.", false},
}

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
}

// add records a finding as a reason, once.
func (j *judge) add(f finding) {
	msg := j.message(f)
	if j.seen == nil {
		j.seen = map[string]bool{}
	}
	if j.seen[msg] {
		return
	}
	j.seen[msg] = true
	j.reasons = append(j.reasons, core.Reason{Layer: Name, Rule: f.rule, Message: msg})
}

// message renders a finding in the call's language.
func (j *judge) message(f finding) string {
	t, ok := templates[f.rule]
	if !ok {
		t = template{zh: "{cmd} {detail}", en: "{cmd} {detail}"}
	}
	body, prefix, advice := t.zh, prefixZh, adviceZh
	if j.en {
		body, prefix, advice = t.en, prefixEn, adviceEn
		if t.path {
			advice = adviceEnPath
		}
	} else if t.path {
		advice = adviceZhPath
	}
	if j.en {
		advice = " " + advice
	}
	var msg string
	for _, lim := range targetLimits {
		b := fill(body, clip(f.cmd, maxCmdLen), clip(f.detail, maxCmdLen),
			j.subject(f.subject, lim.width), j.targetList(f.targets, lim.shown, lim.width, lim.labels))
		b = strings.Join(strings.Fields(b), " ")
		if !j.en {
			b = strings.ReplaceAll(b, "） ", "）")
		}
		msg = prefix + b + advice
		if utf8.RuneCountInString(msg) <= maxMessage {
			break
		}
	}
	return msg
}

// fill replaces the placeholders {cmd}, {detail}, {subject} and
// {targets} of a template body; other text, braces included, is kept.
// (A strings.Replacer built per message was 7% of the gate's allocations.)
func fill(body, cmd, detail, subject, targets string) string {
	values := [...][2]string{{"{cmd}", cmd}, {"{detail}", detail}, {"{subject}", subject}, {"{targets}", targets}}
	var b strings.Builder
	b.Grow(len(body) + len(cmd) + len(detail) + len(subject) + len(targets))
	for {
		i := strings.IndexByte(body, '{')
		if i < 0 {
			b.WriteString(body)
			return b.String()
		}
		b.WriteString(body[:i])
		body = body[i:]
		n := 1 // a brace that opens no placeholder is kept
		for _, kv := range values {
			if strings.HasPrefix(body, kv[0]) {
				b.WriteString(kv[1])
				n = len(kv[0])
				break
			}
		}
		if n == 1 {
			b.WriteByte('{')
		}
		body = body[n:]
	}
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
		if h.label != "" && labels {
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
