package main

import (
	"fmt"
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/sdk"
)

// Rule ids. They are stable: users count them in `zcode-fence log`.
const (
	rulePushProtected      = "PB-PUSH-PROTECTED"       // push updates a protected branch
	ruleForcePushProtected = "PB-FORCE-PUSH-PROTECTED" // forced push (--force, -f, +ref, --force-with-lease) to one
	rulePushDelete         = "PB-PUSH-DELETE"          // push --delete / :branch removes one from the remote
	rulePushPattern        = "PB-PUSH-PATTERN"         // a refspec pattern (refs/heads/*) that may cover one
	rulePushMirror         = "PB-PUSH-MIRROR"          // push --mirror overwrites and deletes every remote ref
	rulePushAll            = "PB-PUSH-ALL"             // push --all / --branches pushes protected ones too
	rulePushPrune          = "PB-PUSH-PRUNE"           // push --prune may delete protected ones remotely
	rulePushForceUnnamed   = "PB-PUSH-FORCE-UNNAMED"   // forced push of an unnamed (current) branch
	rulePushAny            = "PB-PUSH-ANY"             // any push, with ask_on_any_push
	ruleResetHard          = "PB-RESET-HARD"           // reset --hard moves the (maybe protected) current branch
	ruleBranchDelete       = "PB-BRANCH-DELETE"        // branch -d/-D of a protected branch
	ruleBranchForce        = "PB-BRANCH-FORCE"         // branch -f / -M / -C onto a protected branch
	ruleBranchRename       = "PB-BRANCH-RENAME"        // branch -m of a protected branch
	ruleUpdateRef          = "PB-UPDATE-REF"           // update-ref moves a protected branch (or HEAD)
	ruleUpdateRefDelete    = "PB-UPDATE-REF-DELETE"    // update-ref -d of a protected branch
	ruleCheckoutReset      = "PB-CHECKOUT-RESET"       // checkout -B / switch -C resets a protected branch
)

// texts holds each rule's English and Chinese wording, completed by
// fmt with %[1]s the command, %[2]s the branch and %[3]s the protected
// list.
var texts = map[string][2]string{
	rulePushProtected:      {"pushes to the protected branch %[2]s", "会推送到受保护分支 %[2]s"},
	ruleForcePushProtected: {"force-pushes the protected branch %[2]s, rewriting its history on the remote", "会强制推送受保护分支 %[2]s，改写远程历史"},
	rulePushDelete:         {"deletes the protected branch %[2]s on the remote", "会删除远程的受保护分支 %[2]s"},
	rulePushPattern:        {"pushes the refspec pattern %[2]s, which may cover protected branches (%[3]s)", "推送的引用模式 %[2]s 可能包含受保护分支（%[3]s）"},
	rulePushMirror:         {"mirrors every ref to the remote, overwriting or deleting protected branches (%[3]s)", "会把所有引用镜像到远程，可能覆盖或删除受保护分支（%[3]s）"},
	rulePushAll:            {"pushes every local branch, protected ones (%[3]s) included", "会推送所有本地分支，包括受保护分支（%[3]s）"},
	rulePushPrune:          {"with --prune, may delete protected branches (%[3]s) on the remote", "带 --prune，可能删除远程的受保护分支（%[3]s）"},
	rulePushForceUnnamed:   {"force-pushes without naming the branch; the current branch may be protected (%[3]s), and zcode-fence cannot see which branch is checked out", "强制推送但未写明分支；当前分支可能是受保护分支（%[3]s），zcode-fence 无法得知当前所在分支"},
	rulePushAny:            {"pushes to a remote (ask_on_any_push is on)", "会推送到远程（已开启 ask_on_any_push）"},
	ruleResetHard:          {"resets the current branch, which may be protected (%[3]s), and throws away uncommitted changes", "会重置当前分支（可能是受保护分支：%[3]s）并丢弃未提交的修改"},
	ruleBranchDelete:       {"deletes the protected branch %[2]s", "会删除受保护分支 %[2]s"},
	ruleBranchForce:        {"overwrites the protected branch %[2]s with another commit", "会用其他提交覆盖受保护分支 %[2]s"},
	ruleBranchRename:       {"renames the protected branch %[2]s", "会重命名受保护分支 %[2]s"},
	ruleUpdateRef:          {"moves the protected branch %[2]s", "会移动受保护分支 %[2]s"},
	ruleUpdateRefDelete:    {"deletes the protected branch %[2]s", "会删除受保护分支 %[2]s"},
	ruleCheckoutReset:      {"resets the protected branch %[2]s to another commit", "会把受保护分支 %[2]s 重置到其他提交"},
}

// headText is PB-UPDATE-REF's wording when the ref is HEAD.
var headText = [2]string{
	"moves the current branch (HEAD), which may be protected (%[3]s)",
	"会移动当前分支（HEAD），它可能是受保护分支（%[3]s）",
}

// message is the complete ask message: marker, command, what is at risk,
// and what the agent should do, in the call's language.
func (f finding) message(call *core.Call, command string, s settings) string {
	t := texts[f.rule]
	if f.rule == ruleUpdateRef && f.branch == "" {
		t = headText
	}
	list := strings.Join(s.patterns, ", ")
	en := fmt.Sprintf("`%[1]s` "+t[0]+". Ask the user to confirm before running it; do not work around this check.", command, f.branch, list)
	zh := fmt.Sprintf("`%[1]s` "+t[1]+"。请先向用户说明并征得确认，不要绕过此检查。", command, f.branch, list)
	return sdk.Message(call, layerName, en, zh)
}
