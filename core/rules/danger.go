package rules

// The danger gate's rules (layer "danger"). "Catastrophic" means
// paths.IsCatastrophic after the target was resolved against the command's
// cd chain and the call's cwd: the filesystem, drive and share roots, home
// and its ancestors, a whole user profile (also ~NAME, %USERPROFILE%,
// $env:USERPROFILE), system directories; a glob over one (/etc/*, ~/.*)
// counts as the directory.
//
// Templates may use {cmd} (the command as the message names it), {detail}
// (the option, subcommand or consumer that matters), {subject} (what a
// command without path targets acts on: git's remote and refs, commit,
// branch) and {targets} (the catastrophic targets, labelled).

const dangerLayer = "danger"

// The danger gate's families, in the order docs/rules.md lists them.
var (
	Deletes       = family(&Family{Layer: dangerLayer, Name: "delete", Title: "Deletes"})
	Overwrites    = family(&Family{Layer: dangerLayer, Name: "overwrite", Title: "Overwrites of critical files and disks"})
	DiskAndSystem = family(&Family{Layer: dangerLayer, Name: "disk", Title: "Disk and system"})
	PowerAndBoot  = family(&Family{Layer: dangerLayer, Name: "power", Title: "Power and boot"})
	Git           = family(&Family{Layer: dangerLayer, Name: "git", Title: "Git",
		Doc: "Also inside the project; git -C DIR, -c k=v and -c alias.X=... are followed."})
	RemoteCode  = family(&Family{Layer: dangerLayer, Name: "remote", Title: "Remote code execution"})
	Persistence = family(&Family{Layer: dangerLayer, Name: "persist", Title: "Persistence and protections"})
	Hidden      = family(&Family{Layer: dangerLayer, Name: "hidden", Title: "Hidden commands",
		Doc: "Commands the command text hides: interpreter one-liners, command words unknown until run time, and commands too deep or too long to inspect."})
	CustomRules = family(&Family{Layer: dangerLayer, Name: "custom", Title: "Custom rules",
		Doc: "The user's own rules, from the custom_rules setting."})
)

// The Deletes family.
var (
	RmRecursive = def(&Rule{ID: "DG-RM-RECURSIVE", Family: Deletes, PathAdvice: true,
		Doc: "rm -r/-R/--recursive (or rimraf, also run by npx, pnpm dlx, npm exec) of a catastrophic target, named or listed by a $(...) (rm -rf $(ls /), rm -rf \"$(dirname \"$PWD\")\").",
		Zh:  "{cmd} 将递归删除 {targets}，无法恢复。",
		En:  "{cmd} would recursively delete {targets}; this cannot be undone."})
	ProjectDelete = def(&Rule{ID: "DG-PROJECT-DELETE", Family: Deletes, PathAdvice: true,
		Doc: "A recursive delete (rm -r, rimraf, find -delete or -exec rm -r, Remove-Item -Recurse, rd /s, rsync --delete, an interpreter's rmtree) of the project root itself, or of a directory holding it that no other rule names (rm -rf . at the root, cd .. && rm -rf proj, rm -rf \"$PWD\", a temp dir the project lives in). Every file of the project goes, with its git history if it has one. A find from the root asks only when nothing in its expression picks what goes (find . -delete, find . -mindepth 1 -exec rm -rf {} +; depth limits and actions pick nothing, -maxdepth stops -delete at the non-empty directories); so does fd/fdfind with hidden entries (-H, -u) matching every name and running a recursive rm on each (-x) or all (-X) of them, and globs that cover every entry, dot entries included (* .*, ./* ./.[!.]*, {*,.*}, zsh *(D), * after shopt -s dotglob, setopt globdots or a GLOBIGNORE), and a listing with the dot entries fed to a recursive rm (ls -A | xargs rm -rf, rm -rf $(ls -A)). Silent: anything below the root (rm -rf build node_modules .next), a find or fd whose tests pick what it deletes (-name, -type, -mtime, -empty, -prune, -e, …), fd without -H, and a glob of the root's entries (rm -rf *), which keeps .git.",
		Zh:  "{cmd} 将递归删除项目 {targets} 及其 git 历史，无法恢复。",
		En:  "{cmd} would recursively delete the project at {targets} and its git history; this cannot be undone."})
	RmNoPreserveRoot = def(&Rule{ID: "DG-RM-NO-PRESERVE-ROOT", Family: Deletes, PathAdvice: true,
		Doc: "rm --no-preserve-root with an absolute or unknown target.",
		Zh:  "{cmd} 带 --no-preserve-root，关闭了根目录保护（目标 {targets}）。",
		En:  "{cmd} uses --no-preserve-root, turning off the root safeguard (target {targets})."})
	RmGlob = def(&Rule{ID: "DG-RM-GLOB", Family: Deletes, PathAdvice: true,
		Doc: "rm without -r of a glob over a catastrophic directory (rm /etc/*).",
		Zh:  "{cmd} 将删除 {targets} 下的全部文件。",
		En:  "{cmd} would delete every file in {targets}."})
	Rmdir = def(&Rule{ID: "DG-RMDIR", Family: Deletes, PathAdvice: true,
		Doc: "rmdir of a catastrophic directory.",
		Zh:  "{cmd} 作用于 {targets}。",
		En:  "{cmd} removes {targets}."})
	WinDelete = def(&Rule{ID: "DG-WIN-DELETE", Family: Deletes, PathAdvice: true,
		Doc: "del, erase, rd, rmdir /s (cmd.exe) on a catastrophic target.",
		Zh:  "{cmd} 将删除 {targets} 中的文件，无法恢复。",
		En:  "{cmd} would delete the files in {targets}; this cannot be undone."})
	PSRemove = def(&Rule{ID: "DG-PS-REMOVE", Family: Deletes, PathAdvice: true,
		Doc: "Remove-Item (any alias), or a .NET delete ([System.IO.Directory]::Delete, [IO.File]::Delete, VisualBasic FileSystem), of a catastrophic target; also Get-ChildItem ROOT | Remove-Item.",
		Zh:  "{cmd} 将删除 {targets}，无法恢复。",
		En:  "{cmd} would delete {targets}; this cannot be undone."})
	FindDelete = def(&Rule{ID: "DG-FIND-DELETE", Family: Deletes, PathAdvice: true,
		Doc: "find -delete (or -exec rm/unlink/shred without -r) under a catastrophic start.",
		Zh:  "{cmd} 将删除在 {targets} 下找到的文件。",
		En:  "{cmd} would delete what it finds under {targets}."})
	XargsDelete = def(&Rule{ID: "DG-XARGS-DELETE", Family: Deletes, PathAdvice: true,
		Doc: "an xargs, parallel or fd -x/-X delete of items listed from a catastrophic directory (find /, ls ~, echo /, fd . ~).",
		Zh:  "{cmd} 将删除从 {targets} 列出的条目。",
		En:  "{cmd} would delete the entries listed from {targets}."})
	Shred = def(&Rule{ID: "DG-SHRED", Family: Deletes, PathAdvice: true,
		Doc: "shred of a disk, a critical file or a catastrophic glob.",
		Zh:  "{cmd} 将不可恢复地覆写 {targets}。",
		En:  "{cmd} would irrecoverably overwrite {targets}."})
	MvSource = def(&Rule{ID: "DG-MV-SOURCE", Family: Deletes, PathAdvice: true,
		Doc: "mv/Move-Item/move (or rsync --remove-source-files) of a catastrophic source.",
		Zh:  "{cmd} 将把 {targets} 整体移走，系统或用户数据会随之失效。",
		En:  "{cmd} would move {targets} away, breaking the system or the user's data."})
	RsyncDelete = def(&Rule{ID: "DG-RSYNC-DELETE", Family: Deletes, PathAdvice: true,
		Doc: "rsync --delete* (robocopy /MIR /PURGE) into a catastrophic destination.",
		Zh:  "{cmd} {detail} 同步到 {targets}，会删掉其中源里没有的一切。",
		En:  "{cmd} {detail} into {targets} deletes everything there that the source lacks."})
	UnresolvedTarget = def(&Rule{ID: "DG-UNRESOLVED-TARGET", Family: Deletes, PathAdvice: true,
		Doc: "a recursive delete, find -delete, chmod -R or disk write whose target is only unknown values (\"$D\", \"$1\"), becomes catastrophic with its unknown variables empty or at their defaults ($X/, $X/*, ${X:-/}, $DIR/bin), is a catastrophic directory followed by unknown text (/$X, ~/$X), or is * . .. after a cd to an unknown directory (cd $X && rm -rf *). $TMPDIR/x and ${TMPDIR:-/tmp}/x are not.",
		Zh:  "{cmd} 的目标 {targets} 取决于未知变量，为空或出错时可能删到根目录或主目录。",
		En:  "{cmd} targets {targets}, built from an unknown variable that could make it / or home."})
)

// The Overwrites family.
var (
	CriticalFile = def(&Rule{ID: "DG-CRITICAL-FILE", Family: Overwrites, PathAdvice: true,
		Doc: "deleting, overwriting, editing in place or chmod/chown of /etc/passwd, shadow, gshadow, group, sudoers, fstab, master.passwd or the Windows SAM/SYSTEM/SECURITY/SOFTWARE hives.",
		Zh:  "{cmd} 将修改或删除 {targets}。",
		En:  "{cmd} would change or delete {targets}."})
	DeviceWrite = def(&Rule{ID: "DG-DEVICE-WRITE", Family: Overwrites, PathAdvice: true,
		Doc: "a redirect, tee, cp, install or pv writing onto a disk device.",
		Zh:  "{cmd} 直接写入 {targets}，会破坏分区和数据。",
		En:  "{cmd} writes straight to {targets}, destroying its partitions and data."})
)

// The DiskAndSystem family.
var (
	DdDevice = def(&Rule{ID: "DG-DD-DEVICE", Family: DiskAndSystem, PathAdvice: true,
		Doc: "dd of= a device (not /dev/null, /dev/zero, /dev/stdout, ...).",
		Zh:  "{cmd} 直接写入设备 {targets}，会覆盖其上的数据。",
		En:  "{cmd} writes straight to the device {targets}, overwriting its data."})
	DdTarget = def(&Rule{ID: "DG-DD-TARGET", Family: DiskAndSystem, PathAdvice: true,
		Doc: "dd of= a catastrophic path.",
		Zh:  "{cmd} 的输出会覆盖 {targets}。",
		En:  "{cmd} would write its output over {targets}."})
	Mkfs = def(&Rule{ID: "DG-MKFS", Family: DiskAndSystem, PathAdvice: true,
		Doc: "mkfs*, mke2fs, mkswap, newfs*, mkntfs ... on a device.",
		Zh:  "{cmd} 将格式化 {targets}，其上数据全部丢失。",
		En:  "{cmd} would format {targets}, losing all data on it."})
	Wipefs = def(&Rule{ID: "DG-WIPEFS", Family: DiskAndSystem, PathAdvice: true,
		Doc: "wipefs -a/-o on a device.",
		Zh:  "{cmd} 将清除 {targets} 的文件系统签名。",
		En:  "{cmd} would wipe the filesystem signatures of {targets}."})
	Partition = def(&Rule{ID: "DG-PARTITION", Family: DiskAndSystem, PathAdvice: true,
		Doc: "blkdiscard, sgdisk, parted, sfdisk, fdisk, gdisk, cfdisk, nvme format/sanitize on a device (not their listing modes).",
		Zh:  "{cmd} 将改写 {targets} 的分区表或擦除其数据。",
		En:  "{cmd} would rewrite the partition table of {targets} or discard its data."})
	Diskpart = def(&Rule{ID: "DG-DISKPART", Family: DiskAndSystem,
		Doc: "diskpart, always.",
		Zh:  "{cmd} 是磁盘分区工具，能清除整块磁盘。",
		En:  "{cmd} is the disk partitioning tool and can wipe whole disks."})
	DiskutilWipe = def(&Rule{ID: "DG-DISKUTIL-WIPE", Family: DiskAndSystem,
		Doc: "diskutil eraseDisk/eraseVolume/zeroDisk/partitionDisk/apfs delete...",
		Zh:  "{cmd} {detail} 将抹除磁盘或卷。",
		En:  "{cmd} {detail} would erase a disk or volume."})
	Format = def(&Rule{ID: "DG-FORMAT", Family: DiskAndSystem,
		Doc: "format of a drive letter.",
		Zh:  "{cmd} 将格式化盘符 {targets}。",
		En:  "{cmd} would format the drive {targets}."})
	PSDisk = def(&Rule{ID: "DG-PS-DISK", Family: DiskAndSystem,
		Doc: "Format-Volume, Clear-Disk, Remove-Partition, Initialize-Disk, Reset-PhysicalDisk.",
		Zh:  "{cmd} 会抹除或重建磁盘、分区或卷。",
		En:  "{cmd} erases or re-creates disks, partitions or volumes."})
	VolumeDestroy = def(&Rule{ID: "DG-VOLUME-DESTROY", Family: DiskAndSystem,
		Doc: "A volume manager destroying a pool, dataset, volume or RAID member with its data: zfs destroy, zpool destroy/labelclear, lvremove, vgremove, pvremove, btrfs subvolume delete, mdadm --zero-superblock (not their dry runs).",
		Zh:  "{cmd} {detail} 会销毁存储池、卷或数据集及其中的全部数据。",
		En:  "{cmd} {detail} destroys a storage pool, volume or dataset with all the data in it."})
	RegDelete = def(&Rule{ID: "DG-REG-DELETE", Family: DiskAndSystem,
		Doc: "reg delete (or Remove-Item, Clear-Item, Move-Item, Rename-Item of HKLM:\\..., Registry::..., a key below a Set-Location into the registry, or Get-ChildItem of one piped in) of a hive or a first-level key.",
		Zh:  "{cmd} 将删除注册表根键 {targets}。",
		En:  "{cmd} would delete the registry root key {targets}."})
	RegSystemKey = def(&Rule{ID: "DG-REG-SYSTEM-KEY", Family: DiskAndSystem,
		Doc: "Deleting, emptying or moving a system registry key below the first level (the control set and its Control subtree, the Windows and Windows NT version keys, Winlogon, Defender, Policies, Classes ...), or deleting a value inside the Control, Winlogon or Defender subtrees: reg delete, Remove-Item, Clear-Item, Move-Item, Rename-Item, Remove-ItemProperty, Clear-ItemProperty, also through Registry:: paths, Set-Location into the registry and Get-ChildItem piped in.",
		Zh:  "{cmd} 将删除或改动 Windows 依赖的系统注册表键 {targets}。",
		En:  "{cmd} would delete or change the system registry key {targets}, which Windows needs."})
	Vssadmin = def(&Rule{ID: "DG-VSSADMIN", Family: DiskAndSystem,
		Doc: "vssadmin delete shadows / resize shadowstorage, wmic shadowcopy delete, wbadmin delete catalog/backup/systemstatebackup, Win32_ShadowCopy | Remove-CimInstance.",
		Zh:  "{cmd} {detail} 会删除卷影副本或备份，系统将无法回滚。",
		En:  "{cmd} {detail} deletes shadow copies or backups, so the system cannot be rolled back."})
	CipherW = def(&Rule{ID: "DG-CIPHER-W", Family: DiskAndSystem,
		Doc: "cipher /w.",
		Zh:  "{cmd} /w 会抹掉卷上已删除文件的残留，删除的数据再也无法恢复。",
		En:  "{cmd} /w wipes a volume's free space, so deleted data can never be recovered."})
	ChmodRecursive = def(&Rule{ID: "DG-CHMOD-RECURSIVE", Family: DiskAndSystem, PathAdvice: true,
		Doc: "chmod/chown/chgrp/chattr/setfacl -R, icacls /T, takeown /R on a catastrophic target.",
		Zh:  "{cmd} 将递归修改 {targets} 的权限或属主，系统可能因此无法使用。",
		En:  "{cmd} would recursively change permissions or owners of {targets}, which can break the system."})
	ForkBomb = def(&Rule{ID: "DG-FORK-BOMB", Family: DiskAndSystem,
		Doc: "a function that calls itself in a pipe or in the background (any name, not only ':'); cmd.exe %0|%0.",
		Zh:  "{cmd} 是 fork 炸弹：在管道或后台里不断复制自身，会耗尽系统资源。",
		En:  "{cmd} is a fork bomb: it copies itself through pipes or the background until the machine runs out of resources."})
)

// The PowerAndBoot family.
var (
	Poweroff = def(&Rule{ID: "DG-POWEROFF", Family: PowerAndBoot,
		Doc: "shutdown (not /a -a -c -k, help), reboot, halt, poweroff, Stop-Computer, Restart-Computer, writes to /proc/sysrq-trigger.",
		Zh:  "{cmd} 会关机、重启或注销。",
		En:  "{cmd} shuts down, reboots or logs off the machine."})
	SystemctlPower = def(&Rule{ID: "DG-SYSTEMCTL-POWER", Family: PowerAndBoot,
		Doc: "systemctl/loginctl poweroff, reboot, halt, kexec, soft-reboot, rescue, emergency (and isolate of those targets).",
		Zh:  "{cmd} {detail} 会关机、重启或切到救援模式。",
		En:  "{cmd} {detail} shuts down, reboots or drops the machine to rescue mode."})
	InitRunlevel = def(&Rule{ID: "DG-INIT-RUNLEVEL", Family: PowerAndBoot,
		Doc: "init/telinit 0 or 6.",
		Zh:  "{cmd} {detail} 切换运行级以关机或重启。",
		En:  "{cmd} {detail} switches the runlevel to halt or reboot."})
	KillAll = def(&Rule{ID: "DG-KILL-ALL", Family: PowerAndBoot,
		Doc: "kill of process -1 (every process the user can signal: the session, the agent and, as root, the whole system) or of pid 1, and killall5.",
		Zh:  "{cmd} {detail} 会终止所有进程（会话、代理本身，root 下整个系统）。",
		En:  "{cmd} {detail} kills every process it can reach: the session, the agent itself and, as root, the whole system."})
	BcdeditWrite = def(&Rule{ID: "DG-BCDEDIT-WRITE", Family: PowerAndBoot,
		Doc: "bcdedit /set, /delete, /deletevalue, /import, /create, ...",
		Zh:  "{cmd} {detail} 会改写启动配置，可能导致无法开机。",
		En:  "{cmd} {detail} changes the boot configuration and can leave the machine unbootable."})
)

// The Git family.
var (
	GitForcePush = def(&Rule{ID: "DG-GIT-FORCE-PUSH", Family: Git,
		Doc: "push --force/-f, +refspec, --mirror, --delete/-d, :branch, --prune (--force-with-lease stays silent, see ruleGitPushOpts); options read as git reads them (--forc, -uf, --no-force); a push without refspecs given remote.NAME.push=+REFSPEC or remote.NAME.mirror=true for the call (-c, GIT_CONFIG_*). Also the add-on subcommands that delete the remote ref with the local one: git delete-branch, git delete-tag (git-extras), git unpublish (legit).",
		Zh:  "{cmd} {detail}{subject} 会覆盖或删除远端的提交历史。",
		En:  "{cmd} {detail}{subject} overwrites or deletes history on the remote."})
	GitResetHard = def(&Rule{ID: "DG-GIT-RESET-HARD", Family: Git,
		Doc: "reset --hard, reset --merge. Also git undo --hard (git-extras).",
		Zh:  "{cmd} {detail}{subject} 会永久丢弃未提交的改动。",
		En:  "{cmd} {detail}{subject} throws away uncommitted changes for good."})
	GitClean = def(&Rule{ID: "DG-GIT-CLEAN", Family: Git,
		Doc: "clean with any -f spelling, unless -n/--dry-run; also clean without -f given clean.requireForce=false for the call (-c, GIT_CONFIG_*), which lets it delete. A `git config clean.requireForce false` earlier in the same command line counts; one run in an earlier call is not seen.",
		Zh:  "{cmd} {detail}{subject} 会永久删除未跟踪的文件。",
		En:  "{cmd} {detail}{subject} permanently deletes untracked files."})
	GitBranchD = def(&Rule{ID: "DG-GIT-BRANCH-D", Family: Git,
		Doc: "branch -D, branch --delete --force.",
		Zh:  "{cmd} {detail}{subject} 会强制删除分支，未合并的提交也会丢失。",
		En:  "{cmd} {detail}{subject} force-deletes a branch, unmerged commits included."})
	GitStashDrop = def(&Rule{ID: "DG-GIT-STASH-DROP", Family: Git,
		Doc: "stash drop, stash clear.",
		Zh:  "{cmd} {detail}{subject} 会永久丢弃储藏的改动。",
		En:  "{cmd} {detail}{subject} discards stashed changes for good."})
	GitDiscard = def(&Rule{ID: "DG-GIT-DISCARD", Family: Git,
		Doc: "checkout -- PATH, checkout ., checkout -f, checkout -p/--patch (hunks of the working tree thrown away, with or without paths), checkout --pathspec-from-file, checkout TREE-ISH PATH... (and a single operand that reads as a path: ./x, a/b.go, a glob), restore touching the working tree, switch --discard-changes/-f, rm -f without --cached, worktree remove --force, read-tree --reset -u, checkout-index -f of the index's files (-a, paths or --stdin; not with --prefix or --temp, which write elsewhere), submodule deinit -f, submodule update --force (without --merge/--rebase). Silent: merge/rebase/cherry-pick/revert/am --abort (they return to the state before the operation git started; what goes is that operation's own half-done conflict resolution, and git merge refuses to start over conflicting local changes), branch -f/-M/-C, checkout -B, switch -C (the moved branch's reflog keeps its old tip, as after reset --soft). Options are read as git reads them: abbreviated (--har, --forc), bundled (-qf), negated (--no-force); -h/--help and options given a value they do not take (--force=true) make git exit. Also git reset-file, git clear and git clear-soft (git-extras).",
		Zh:  "{cmd} {detail}{subject} 会丢弃工作区中未提交的改动。",
		En:  "{cmd} {detail}{subject} discards uncommitted changes in the working tree."})
	GitRepoDelete = def(&Rule{ID: "DG-GIT-REPO-DELETE", Family: Git,
		Doc: "A recursive delete (rm -r, rimraf, find -delete or -exec rm -r, Remove-Item -Recurse, rd /s, an interpreter's rmtree) of a repository's .git (also as a glob that matches it: .*, .g*), or of its history stores: objects, refs, logs, packed-refs, .git/* (cmdfacts.GitHistoryPath); also a find from the project root (or a directory holding it) that deletes what it picks by type, age, size or owner alone, never by name or path (find . -type f -delete, find . -mtime +30 -delete, find . -type d -exec rm -rf {} +): .git's files are among them. Every commit, branch, stash and reflog goes with it; only what was pushed survives. Silent: .git/index.lock, .git/rebase-merge, .git/modules/X and other working state; moving .git away (mv .git x keeps it); a glob that skips dot files (rm -rf *).",
		Zh:  "{cmd} 会删除 git 仓库历史 {targets}：提交、分支、储藏和 reflog 全部丢失，只有已推送的能找回。",
		En:  "{cmd} deletes git history {targets}: commits, branches, stashes and reflogs; only what was pushed survives."})
	GitRewrite = def(&Rule{ID: "DG-GIT-REWRITE", Family: Git,
		Doc: "filter-branch, filter-repo (also git-filter-repo): every branch and tag is rewritten; filter-repo then expires the reflogs and prunes the old objects, and filter-branch -f overwrites the refs/original backup. --analyze, --dry-run and --help stay silent. (rebase -i and commit --amend stay silent: the old commits stay in the reflog.) Also git obliterate (git-extras).",
		Zh:  "{cmd} {detail}{subject} 会改写整个仓库的历史，旧的提交可能无法找回。",
		En:  "{cmd} {detail}{subject} rewrites the whole repository's history; the old commits may not be recoverable."})
	GitTagDelete = def(&Rule{ID: "DG-GIT-TAG-DELETE", Family: Git,
		Doc: "tag -d/--delete NAME (also fed by xargs). Tags have no reflog: the name and, for an annotated or signed tag, the tag object with its message and signature are gone once gc runs, unless the tag was pushed. Silent: creating and listing tags, and tag -f, which moves a tag and prints the old id (like branch -f, which the branch's reflog makes recoverable, it stays silent).",
		Zh:  "{cmd} {detail}{subject} 会删除标签；标签没有 reflog，未推送的附注标签及其说明会永久丢失。",
		En:  "{cmd} {detail}{subject} deletes a tag; tags have no reflog, so an annotated tag that was never pushed is lost with its message."})
	GitPrune = def(&Rule{ID: "DG-GIT-PRUNE", Family: Git,
		Doc: "reflog expire/delete, gc --prune=now (or all, or minutes ago), prune, update-ref -d (also a delete line of update-ref --stdin), gc given gc.pruneExpire=now for the call (-c, GIT_CONFIG_*): what git keeps to recover lost commits is dropped. Dry runs stay silent.",
		Zh:  "{cmd} {detail}{subject} 会永久删除 git 用来找回丢失提交的记录（reflog、引用或不可达对象）。",
		En:  "{cmd} {detail}{subject} permanently drops what git keeps to recover lost commits (reflog entries, refs or unreachable objects)."})
)

// The RemoteCode family.
var (
	RCEPipe = def(&Rule{ID: "DG-RCE-PIPE", Family: RemoteCode,
		Doc: "curl, wget, fetch, httpie, nc, Invoke-WebRequest, Invoke-RestMethod, Net.WebClient output run by a shell, an interpreter, eval, source, at or Invoke-Expression — by pipe, $(...), <(...), PowerShell (...) or xargs; or a file downloaded earlier in the same command line and then run (curl -o i.sh URL && sh i.sh, ./tool).",
		Zh:  "{cmd} 下载的内容被直接交给 {detail} 执行，执行前无法审查。",
		En:  "What {cmd} downloads is run directly by {detail}, unseen."})
	RCEDecoded = def(&Rule{ID: "DG-RCE-DECODED", Family: RemoteCode,
		Doc: "base64/base32/basenc -d, xxd -r, uudecode, openssl enc/base64 -d and decompressors (zcat, gzip -d, xz -d ...) whose output a shell or an interpreter runs (piped, $(...), <(...), xargs), whatever it decodes to; an interpreter one-liner running (os.system, exec, eval, child_process ...) text it decodes (b64decode, fromhex, chr(), atob, Buffer.from(..., 'base64'), [::-1] ...).",
		Zh:  "{cmd} 解码出的内容被直接交给 {detail} 执行，真实命令被隐藏。",
		En:  "What {cmd} decodes is run directly by {detail}, hiding the real command."})
	RCETransformed = def(&Rule{ID: "DG-RCE-TRANSFORMED", Family: RemoteCode,
		Doc: "Text rewritten by rev, tac, tr, sed, iconv, recode, printf or echo with character-code escapes, or printed by an interpreter one-liner (awk, perl, python, node ...) and run by a shell or an interpreter, whatever it becomes.",
		Zh:  "{cmd} 改写或生成的文本被直接交给 {detail} 执行，真实命令无法从命令行看出。",
		En:  "Text that {cmd} rewrites or generates is run directly by {detail}; the real command cannot be read from the command line."})
)

// The Persistence family.
var (
	PersistCron = def(&Rule{ID: "DG-PERSIST-CRON", Family: Persistence,
		Doc: "crontab -r, or crontab installing a file or stdin.",
		Zh:  "{cmd} {detail} 会删除或替换当前用户的全部定时任务。",
		En:  "{cmd} {detail} removes or replaces all of the user's cron jobs."})
	PersistAt = def(&Rule{ID: "DG-PERSIST-AT", Family: Persistence,
		Doc: "at or batch scheduling a job (from stdin or -f FILE); listing, removing and printing jobs stay silent. What the job runs is analysed as a command of its own.",
		Zh:  "{cmd} {detail} 会安排一个在本次会话之后运行的任务（系统持久化）。",
		En:  "{cmd} {detail} schedules a job that runs after this session (system persistence)."})
	PersistGitHooks = def(&Rule{ID: "DG-PERSIST-GIT-HOOKS", Family: Persistence,
		Doc: "git config setting core.hooksPath (any scope; /dev/null, which turns hooks off, stays silent) or init.templateDir, and git init/clone --template=DIR: every later git command runs hooks from that directory.",
		Zh:  "{cmd} {detail} 会让之后的 git 提交、检出、推送等操作运行该目录中的钩子（持久化）。",
		En:  "{cmd} {detail} makes every later git commit, checkout or push run hooks from that directory (persistence)."})
	GitCodeConfig = def(&Rule{ID: "DG-GIT-CODE-CONFIG", Family: Persistence,
		Doc: "git configuration whose value git runs or loads (core/cmdfacts gitcode.go, from git-config(1): core.fsmonitor, core.pager, core.editor, sequence.editor, core.sshCommand, core.askPass, core.gitProxy, credential helpers, filter/diff/merge drivers and textconv, difftool/mergetool commands, \"!\" aliases, include.path and includeIf.*.path, gpg programs, pager.*, interactive.diffFilter, uploadpack.packObjectsHook, remote.*.uploadpack/receivepack/vcs, submodule.*.update=!cmd, an ext:: remote or submodule URL, url.ext::….insteadOf, protocol.ext.allow or protocol.allow always …) written by git config at any scope or with --file, git remote add/set-url, git submodule add, or git clone -c; for one invocation (-c, --config-env, GIT_CONFIG_COUNT/KEY/VALUE, GIT_CONFIG_PARAMETERS, also exported earlier in the command line): a hooks directory, an include or an ext transport (a command a value runs is judged as a command of its own); and the environment that points git at other configuration, programs or templates (GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG, GIT_EXEC_PATH, GIT_TEMPLATE_DIR, GIT_ALLOW_PROTOCOL with ext). Silent: everyday keys (user.*, pull.rebase, init.defaultBranch, core.autocrlf, ordinary remote URLs), booleans and empty values, removals, and well-known programs for the key's role (less, delta, vim, code --wait, ssh -i KEY, credential store/cache/osxkeychain, gh auth git-credential, git-lfs filters, gpg, merge driver true).",
		Zh:  "{cmd} {detail}{subject} 让 git 运行此处看不到的代码，之后的 git 命令（包括用户自己的）也会执行。",
		En:  "{cmd} {detail}{subject} makes git run code not shown here, in later git commands too (the user's own)."})
	PersistSystemd = def(&Rule{ID: "DG-PERSIST-SYSTEMD", Family: Persistence,
		Doc: "systemctl enable/reenable.",
		Zh:  "{cmd} {detail} 会让服务开机自启（系统持久化）。",
		En:  "{cmd} {detail} makes a service start at boot (system persistence)."})
	PersistService = def(&Rule{ID: "DG-PERSIST-SERVICE", Family: Persistence,
		Doc: "sc create/config, New-Service, update-rc.d, chkconfig on.",
		Zh:  "{cmd} {detail} 会创建或修改系统服务（系统持久化）。",
		En:  "{cmd} {detail} creates or changes a system service (system persistence)."})
	PersistReg = def(&Rule{ID: "DG-PERSIST-REG", Family: Persistence,
		Doc: "reg add, reg import, Set-/New-ItemProperty on a Run key.",
		Zh:  "{cmd} {detail} 会写入注册表，可用于开机自启（系统持久化）。",
		En:  "{cmd} {detail} writes to the registry, a way to persist at startup."})
	PersistSchtasks = def(&Rule{ID: "DG-PERSIST-SCHTASKS", Family: Persistence,
		Doc: "schtasks /create /change, Register-ScheduledTask.",
		Zh:  "{cmd} {detail} 会创建或修改计划任务（系统持久化）。",
		En:  "{cmd} {detail} creates or changes a scheduled task (system persistence)."})
	PersistLaunchctl = def(&Rule{ID: "DG-PERSIST-LAUNCHCTL", Family: Persistence,
		Doc: "launchctl load, unload, bootstrap, bootout.",
		Zh:  "{cmd} {detail} 会加载或卸载 launchd 服务（系统持久化）。",
		En:  "{cmd} {detail} loads or unloads a launchd service (system persistence)."})
	FirewallOff = def(&Rule{ID: "DG-FIREWALL-OFF", Family: Persistence,
		Doc: "ufw disable, netsh advfirewall ... state off, netsh firewall set opmode disable, Set-NetFirewallProfile -Enabled False, systemctl/service stop/disable/mask of firewalld/ufw/nftables/iptables, iptables -F, nft flush ruleset, pfctl -d, Set-MpPreference -Disable* true, stopping WinDefend/MpsSvc, setenforce 0, spctl --master-disable, csrutil disable.",
		Zh:  "{cmd} {detail} 会关闭防火墙或系统安全防护。",
		En:  "{cmd} {detail} turns off the firewall or a system security protection."})
)

// The Hidden family.
var (
	ScriptDelete = def(&Rule{ID: "DG-SCRIPT-DELETE", Family: Hidden, PathAdvice: true,
		Doc: "an interpreter one-liner (python -c, node -e, perl -e, ruby -e, php -r, awk, osascript, julia -e, emacs --eval, elixir/iex/mix run -e, erl -eval, groovy -e, scala -e, ghc/runghc -e, clojure -e, bb, crystal eval, ...) or a PowerShell .NET call that deletes a catastrophic target or a device.",
		Zh:  "{cmd} 内嵌脚本将删除 {targets}。",
		En:  "The {cmd} one-liner would delete {targets}."})
	ScriptWrite = def(&Rule{ID: "DG-SCRIPT-WRITE", Family: Hidden, PathAdvice: true,
		Doc: "an interpreter one-liner (python -c, node -e, perl -e, ruby -e, php -r, awk, osascript, ...) or a PowerShell .NET call that writes a catastrophic target or a device.",
		Zh:  "{cmd} 内嵌脚本将写入或修改 {targets}。",
		En:  "The {cmd} one-liner would write to or change {targets}."})
	ScriptUninspected = def(&Rule{ID: "DG-SCRIPT-UNINSPECTED", Family: Hidden,
		Doc: "a command runs a file from disk (a script, an interpreter file, a task file, a git hook) that exists but is not a regular file — a FIFO, a device, /proc/self/fd/N — so its text could not be read and judged (docs/scripts-on-disk.md); {detail} names the file.",
		Zh:  "{cmd} 运行的文件无法检查（{detail}）。",
		En:  "{cmd} runs a file that could not be inspected ({detail})."})
	UnknownCommand = def(&Rule{ID: "DG-UNKNOWN-COMMAND", Family: Hidden, PathAdvice: true,
		Doc: "the command word is unknown until run time (a variable, a substitution) and its flagged arguments name a catastrophic target ($RM -rf /).",
		Zh:  "命令名 {cmd} 运行前无法确定，其参数指向 {targets}。",
		En:  "The command word {cmd} is unknown until run time and its arguments point at {targets}."})
	TooDeep = def(&Rule{ID: "DG-TOO-DEEP", Family: Hidden,
		Doc: "the analysis was truncated (nesting beyond shell.MaxDepth, or a size limit), so part of the command could not be inspected.",
		Zh:  "命令嵌套过深或过长，无法完整检查。",
		En:  "The command is nested too deeply or is too long to inspect completely."})
	Incomplete = def(&Rule{ID: "DG-INCOMPLETE", Family: Hidden,
		Doc: "the danger gate could not finish judging a shell call: its step budget ran out (a command too large or too complex to inspect fully), or it failed, panicked or ran out of time. The call asks with the findings made before; {detail} is the Cause (the layer reports its budget, the host the failures).",
		Zh:  "未能完整检查此调用（{detail}），其余部分可能有危险。",
		En:  "The gate could not inspect this whole call ({detail}); the rest may be dangerous."})
)

// The CustomRules family.
var (
	Custom = def(&Rule{ID: "DG-CUSTOM", Family: CustomRules,
		Doc: "a custom_rules regex (Go RE2, case-sensitive, ';'-separated) matches the whole command text or the text of any command in it. A rule that does not compile is skipped and named in the verdict's annotations (\"custom_rules_skipped\"); the others still apply.",
		Zh:  "命令命中自定义规则 #{detail}（{cmd}）。",
		En:  "The command matches custom rule #{detail} ({cmd})."})
)
