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

// The hard-link rule of the Fence family.
var FenceHardLinkOutside = def(&Rule{ID: "FN-HARDLINK-OUTSIDE", Family: Fence,
	Doc: "A hard link (ln without -s, cp -l/--link, link) is made to a file outside the writable roots: the link makes that file writable from inside.",
	Zh:  "[zcode-fence: 越界写入] {label} 为 {target} 建立硬链接，该文件不在项目根 {root} 及其他可写根内；硬链接会让项目内的写入改写它。请改用复制（cp），或请用户确认；不要绕过此检查。",
	En:  "[zcode-fence: write outside the project] {label} hard-links {target}, outside the project root {root} and every writable root: through the link, writes from inside would change that file. Copy it instead, or ask the user; do not work around this check."})

// Protected paths (layer "fence"): core/protect lists them. Templates may
// use {label}, {verb}, {target} and {root} like the Fence family, and
// {what} (what the path is, or which protected path the target holds).
var Protected = family(&Family{Layer: "fence", Name: "protect", Title: "Protected places",
	Doc: "Writes in any form to the guard's own state, to what decides whether it runs and to what later commands run as code — its config and data dirs, the installed plugin, the agent hosts' settings, hooks and plugins, shell start-up files, ~/.ssh, the user's git config, and the project's places, each protected as a whole: each host's project settings dir (.claude, .zcode, .gemini, .qwen, .codex, .github/hooks), the repository's .git and everything git loads from it, nested repositories' .git, the git dir a .git file points to, the active hooks dir (core.hooksPath: .husky) and the files git config includes — whatever the writable roots and the project root are, and also with enable_fence off or no project root. Creating, deleting, moving, linking, copying or syncing a tree that holds the place's name, extracting an archive that holds it and applying a diff that names it all count. The list is core/protect.Table. Reads stay silent."})

const (
	protectedZh = "[zcode-fence: 受保护路径] {label} {verb} {target}（{what}）。无论项目根 {root} 与可写根如何，此路径都受保护：请让用户亲自操作或确认；不要绕过此检查。"
	protectedEn = "[zcode-fence: protected path] {label} {verb} {target} ({what}), protected whatever the project root ({root}) and writable roots are. Ask the user to do it or confirm; do not work around this check."
)

// The Protected family.
var (
	ProtectedWrite = def(&Rule{ID: "FN-PROTECTED-WRITE", Family: Protected,
		Doc: "A file tool, a redirect, a command or a one-liner writes, creates or changes the mode or owner of a protected path (or writes into a directory where the copied name lands on one: cp settings.json ~/.claude/).",
		Zh:  protectedZh,
		En:  protectedEn})
	ProtectedDelete = def(&Rule{ID: "FN-PROTECTED-DELETE", Family: Protected,
		Doc: "A delete or a move (source) of a protected path or of a directory that holds one (rm -rf ~/.claude, mv ~/.ssh x), an archiver that deletes its inputs (tar --remove-files, zip -m, 7z a -sdel), or an extraction into a directory holding one (tar -x -C ~).",
		Zh:  protectedZh,
		En:  protectedEn})
	ProtectedReplace = def(&Rule{ID: "FN-PROTECTED-REPLACE", Family: Protected,
		Doc: "A command that writes a directory as a whole can make a protected place exist below it: a copy or sync of a tree holding the place's name (cp -r stage/. ., rsync -a stage/ ./, cp -r stage/.github ., a tree with a .git inside copied into the project), a move or a link of such a tree (mv stage/.github .github, ln -s stage/.github .github, git mv), rsync --delete into a directory holding one, an extraction whose archive holds it (tar -xf x.tar, unzip x.zip, 7z x at the project root; members read from the archive on disk, bounded; unknown ones — in a format it cannot list, packed from local files in the same call, from a local archiver on a pipe — count; an archive downloaded in the same call or piped from a fetcher holds a remote party's members and is judged by its directory and the members named), a patch whose text is unknown (git apply, patch fed from a pipe or from a file made earlier in the same call). What lands there is read from disk; a source that does not exist yet counts when an earlier command of the call makes it. A patch with known text is judged path by path (FN-PROTECTED-WRITE). Git bringing files from history or the index into a place counts too: checkout or switch of a branch, merge, rebase, cherry-pick, revert, reset --keep, read-tree -u, stash apply/pop/push, checkout-index, a pull or fetch from a repository on disk, and a revision an earlier command of the call points HEAD or the index at (git reset --soft X && git stash); what the revision holds at the places is read with git plumbing (no hook, filter or driver runs), a revision git cannot read brings nothing seen. A .env, .envrc or mise.toml that such a landing brings with a guard setting in it is FN-PROTECTED-SETTING.",
		Zh:  protectedZh,
		En:  protectedEn})
	ProtectedLink = def(&Rule{ID: "FN-PROTECTED-LINK", Family: Protected,
		Doc: "A hard or symbolic link to a protected path (ln ~/.zcode/cli/config.json c.json, ln -s ~/.bashrc rc): writes through the link would change it.",
		Zh:  protectedZh,
		En:  protectedEn})
	ProtectedSetting = def(&Rule{ID: "FN-PROTECTED-SETTING", Family: Protected,
		Doc: "A write whose text sets a guard setting or a host's hook switch, wherever it lands (core/config.Planted: ZCODE_FENCE_*, CLAUDE_PLUGIN_OPTION_*/ZCODE_PLUGIN_OPTION_*, the hosts' data, plugin and project dir variables, disableAllHooks, Codex's features.hooks = false), through a file tool (Write, Edit, MultiEdit, NotebookEdit, apply_patch) or a shell write (echo/printf >, >>, with printf's format filled in; tee, sed -i, a heredoc, an interpreter one-liner's write); a write into a file hosts or shells load settings from (.env, .envrc, mise.toml: core/cmdfacts.LoadsSettings) of a file the command copies, moves, links or reads (read, bounded, from disk: a file an earlier silent call planted elsewhere; a file the same call made first from another by a copy, move or link is judged by that one's text, and one it made otherwise counts as unreadable), of text a decoder or rewriter makes (base64 -d, xxd -r, gunzip -c, tr, rev, an interpreter printing what it computes), or of content fetched from the network (curl -o .env URL, curl URL > .envrc, wget -O), which the guard cannot read; and direnv allow, mise trust and the like of a file that sets one (core/cmdfacts.EnvTrusts). Gemini CLI and Qwen Code load the project's .env, direnv and mise load .envrc and mise.toml into the user's shell: the next session, whoever starts it, would run with the guard switched off. Ordinary .env values stay silent.",
		Zh:  "[zcode-fence: 守卫设置] {label} 让 {target} 设置 {what}：启动时加载该文件的宿主或 shell（Gemini CLI、Qwen Code 读取项目 .env；direnv、mise）会据此关闭或改动 zcode-fence。请让用户亲自操作或确认；不要绕过此检查。",
		En:  "[zcode-fence: guard setting] {label} makes {target} set {what}: a host or shell that loads the file at start (Gemini CLI and Qwen Code read the project's .env; direnv, mise) would switch zcode-fence off or change it. Ask the user to do it or confirm; do not work around this check."})
)
