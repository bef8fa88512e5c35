package rules

// The project fence's rules (layer "fence"): one reason per distinct
// target. Templates may use {label} (what writes: the tool, the command,
// "the > redirect of echo"), {verb} (writes, deletes, moves away,
// modifies), {target}, {real} (where a symlink leads) and {root} (the
// project root).

// The fence's one family.
var Fence = family(&Family{Layer: "fence", Name: "fence", Title: "Project fence",
	Doc: "Writes, creates, moves, deletes and mode or owner changes outside the writable roots: the project root, the real temp dirs, ~/.zcode/cli/memories and extra_writable_roots. Reads are never fenced."})

// The message a write outside the roots gets, whichever way it writes.
const (
	fenceOutsideZh = "[zcode-fence: 越界写入] {label} {verb} {target}，不在项目根 {root} 及其他可写根内。请改用项目内或临时目录的路径，或请用户确认；不要绕过此检查。"
	fenceOutsideEn = "[zcode-fence: write outside the project] {label} {verb} {target}, outside the project root {root} and every writable root. Use a project or temp path, or ask the user; do not work around this check."
)

// The Fence family.
var (
	FenceWriteOutside = def(&Rule{ID: "FN-WRITE-OUTSIDE", Family: Fence,
		Doc: "A file tool's target (Write, Edit, MultiEdit, NotebookEdit, ApplyPatch) lies outside the writable roots.",
		Zh:  fenceOutsideZh,
		En:  fenceOutsideEn})
	FenceRedirectOutside = def(&Rule{ID: "FN-REDIRECT-OUTSIDE", Family: Fence,
		Doc: "A shell redirect (>, >>, &>, 2>, >|, <>) writes outside.",
		Zh:  fenceOutsideZh,
		En:  fenceOutsideEn})
	FenceCommandWriteOutside = def(&Rule{ID: "FN-COMMAND-WRITE-OUTSIDE", Family: Fence,
		Doc: "A command writes, creates, moves, deletes or changes the mode or owner of something outside (cp/mv/rm/tee/tar -C/curl -o/Set-Content/copy/del ... — the message names the command and the verb).",
		Zh:  fenceOutsideZh,
		En:  fenceOutsideEn})
	FenceScriptWriteOutside = def(&Rule{ID: "FN-SCRIPT-WRITE-OUTSIDE", Family: Fence,
		Doc: "An interpreter one-liner (python -c, node -e, ...) or a PowerShell .NET call ([IO.File]::WriteAllText) writes or deletes a literal path outside.",
		Zh:  fenceOutsideZh,
		En:  fenceOutsideEn})
	FenceSymlinkEscape = def(&Rule{ID: "FN-SYMLINK-ESCAPE", Family: Fence,
		Doc: "The target is inside a root as written, but a symlink on its way leads outside (any of the sources above).",
		Zh:  "[zcode-fence: 越界写入] {label} {verb} {target}，但符号链接使它实际指向项目外的 {real}（项目根 {root}）。请改用项目内的真实路径或临时目录，或请用户确认；不要绕过此检查。",
		En:  "[zcode-fence: write outside the project] {label} {verb} {target}, which a symlink leads to {real}, outside the project root {root}. Use a real project or temp path, or ask the user; do not work around this check."})
	FenceUnresolved = def(&Rule{ID: "FN-UNRESOLVED", Family: Fence,
		Doc: "A write target (or the directory a relative one is resolved against) holds a variable or substitution whose value is unknown ($X, %X%, $(...), cd \"$X\" && touch a), so it cannot be judged.",
		Zh:  "[zcode-fence: 路径无法解析] {label} {verb} {target}，其中的变量、命令替换或所在目录无法确定，无法判定是否在项目根 {root} 内。请改用明确的路径，或请用户确认；不要绕过此检查。",
		En:  "[zcode-fence: unresolved path] {label} {verb} {target}, holding an unknown variable, substitution or directory: it cannot be checked against the project root {root}. Use an explicit path, or ask the user; do not work around this check."})
	FenceIncomplete = def(&Rule{ID: "FN-INCOMPLETE", Family: Fence,
		Doc: "The fence could not finish judging a shell or file call: the analysis of the command was cut short, its step budget ran out (too many or too long targets to inspect fully), or it failed, panicked or ran out of time. The call asks with the targets found before; {detail} is the Cause.",
		Zh:  "[zcode-fence: 未能完整检查] 项目围栏未能完整检查此调用（{detail}），部分写入可能落在可写根之外。请拆分或简化命令，或请用户确认；不要绕过此检查。",
		En:  "[zcode-fence: not fully inspected] The project fence could not inspect this whole call ({detail}): some writes may land outside the writable roots. Split or simplify the command, or ask the user; do not work around this check."})
)
