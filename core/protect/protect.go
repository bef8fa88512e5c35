// Package protect is the one list of protected places: the guard's own
// state, what decides whether the guard runs at all, and what later
// commands run as code. A place is protected as a whole: a write in any
// form — a file tool, a shell write target, a delete, a mode or owner
// change, a move (source or destination), a hard or symbolic link, an
// archiver that deletes its inputs, an extraction, a copy or a patch that
// creates it — to one of them, or into one, asks, whatever the writable
// roots and the project root are (also when the project root is home).
// Reads stay silent.
//
// Besides the fixed entries, a few places are found on the real file
// system for each call (Discovered anchors): the repository a .git file
// points to (gitdir:, commondir), the active hooks directory
// (core.hooksPath of the project's or the user's git configuration: .husky
// and friends) and the files git configuration includes.
//
// Table holds the list, one entry per line with its reason. Resolve turns
// it into the absolute paths of one call (home, the environment, the
// project root and the data dir decide where they are); Set.Match and
// Set.Below judge a target against them. The project fence
// (plugins/fence) is the layer that asks; the danger gate reads the
// guard's own environment names from core/config.
package protect

import (
	"github.com/zcode-fence/zcode-fence/core/internal/envmemo"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/paths"
)

// Anchor says what an entry's Rel is relative to.
type Anchor uint8

const (
	// Home: below the user's home directory (paths.Platform.Home).
	Home Anchor = iota
	// Project: below the call's project root.
	Project
	// ConfigHome: below $XDG_CONFIG_HOME when it is absolute, else
	// ~/.config (where zcode-fence and git look for their XDG config).
	ConfigHome
	// Env: the path the environment variable Env names (Rel is empty).
	Env
	// DataDir: the call's data dir (core.Call.DataDir).
	DataDir
	// Abs: Rel is an absolute Unix path (system-wide start-up files).
	Abs
	// GitDir: the repositories the project's git files point to: the
	// gitdir of a .git file (a worktree, a submodule) and the commondir
	// of either (found on the real file system; Rel is empty).
	GitDir
	// GitHooks: the active hooks directory, core.hooksPath of the
	// project's or the user's git configuration, relative to the project
	// root (and, when it ends in "_" as husky's .husky/_ does, the
	// directory holding it, whose scripts those hooks run).
	GitHooks
	// GitInclude: the files the project's or the user's git configuration
	// includes (include.path, includeIf.*.path).
	GitInclude
)

// Shape says which paths at the anchor an entry protects. It is
// agenthost's PathShape, so the hosts' paths (agenthost.HostPaths) carry
// over as they are declared.
type Shape = agenthost.PathShape

const (
	// File: exactly this file.
	File = agenthost.PathFile
	// Tree: this directory and everything below it, except the Except
	// subtrees.
	Tree = agenthost.PathTree
	// Settings: every file named settings*.json directly in this directory
	// (settings.json, settings.local.json).
	Settings = agenthost.PathSettings
	// Named: every directory named Rel at any depth below the anchor,
	// with everything in it (a nested repository's .git).
	Named = agenthost.PathNamed
)

// Entry is one protected path.
type Entry struct {
	Anchor Anchor
	// Env names the variable of an Env entry.
	Env string
	// Rel is the path below the anchor, written with "/".
	Rel   string
	Shape Shape
	// Except are subtrees of a Tree entry (relative to it, with "/") that
	// are not protected: the agent's memory dir, a writable root, inside
	// ~/.zcode. An item without "/" holding a glob character is matched
	// against the last name of a path at any depth below the entry
	// (*.lock: git's lock files, which a crashed git leaves behind).
	Except []string
	// NotAtHome: a Project entry left out when the project root is home,
	// where home's own entries for the same place apply (a host's
	// project settings dir is its user dir there).
	NotAtHome bool
	// What names the entry in messages, in English and Chinese.
	What, WhatZh string
}

// The groups of What, shared by several entries.
const (
	whatGuardConfig   = "zcode-fence's configuration"
	whatGuardConfigZh = "zcode-fence 的配置"
	whatGuardData     = "zcode-fence's data dir: decision log, session roots, caches"
	whatGuardDataZh   = "zcode-fence 的数据目录：决策日志、会话根、缓存"
	whatPlugin        = "the installed zcode-fence plugin"
	whatPluginZh      = "已安装的 zcode-fence 插件"
	whatHost          = "agent host settings, hooks or plugins: they decide whether zcode-fence runs"
	whatHostZh        = "代理宿主的设置、钩子或插件，决定 zcode-fence 是否运行"
	whatProjHost      = "the project's agent host dir: its settings, hooks and commands decide what the host runs, zcode-fence included"
	whatProjHostZh    = "项目的代理宿主目录：其中的设置、钩子与命令决定宿主运行什么，包括 zcode-fence"
	whatStartup       = "a shell start-up file: it runs in every new shell"
	whatStartupZh     = "shell 启动文件，每个新 shell 都会执行"
	whatSSH           = "the SSH keys and configuration"
	whatSSHZh         = "SSH 密钥与配置"
	whatGit           = "the user's git configuration: aliases, hooks path, credential helpers"
	whatGitZh         = "用户的 git 配置：别名、hooks 路径、凭据助手"
	whatRepoGit       = "the repository's git dir (hooks, config, what git loads): later git commands run code from it"
	whatRepoGitZh     = "仓库的 git 目录（钩子、配置等 git 加载的内容）：之后的 git 命令会执行其中的代码"
	whatGitHooks      = "the repository's active hooks dir (core.hooksPath): later commits, checkouts and pushes run it"
	whatGitHooksZh    = "仓库当前的钩子目录（core.hooksPath）：之后的提交、检出、推送会执行它"
	whatGitInclude    = "a file git configuration includes: it can set code-running keys"
	whatGitIncludeZh  = "git 配置包含的文件：可设置会运行代码的键"
)

// Table is the list: the guard's own config and data dirs, then the agent
// hosts' (hostEntries), then what runs code in every later shell or
// connection. Keep one entry per protected path, each with the reason it
// is here.
var Table = append(append(guardEntries[:len(guardEntries):len(guardEntries)], hostEntries()...), otherEntries...)

// hostEntries are the agent hosts' data dirs, installed plugin and
// settings, hooks and plugin files, from core/agenthost (their one copy).
func hostEntries() []Entry {
	var out []Entry
	for _, v := range agenthost.PluginDataEnv {
		out = append(out, Entry{Anchor: Env, Env: v, Shape: Tree, What: whatGuardData, WhatZh: whatGuardDataZh})
	}
	for _, v := range agenthost.PluginRootEnv {
		out = append(out, Entry{Anchor: Env, Env: v, Shape: Tree, What: whatPlugin, WhatZh: whatPluginZh})
	}
	for _, p := range agenthost.HostPaths() {
		e := Entry{Anchor: Home, Rel: p.Rel, Shape: p.Shape, Except: p.Except, What: whatHost, WhatZh: whatHostZh}
		if p.Project {
			e.Anchor, e.NotAtHome, e.What, e.WhatZh = Project, true, whatProjHost, whatProjHostZh
		}
		out = append(out, e)
	}
	return out
}

// guardEntries are the guard's own config and data dirs.
var guardEntries = []Entry{
	// The config file ZCODE_FENCE_CONFIG names (it replaces ~/.zcode/cli/config.json).
	{Anchor: Env, Env: "ZCODE_FENCE_CONFIG", Shape: File, What: whatGuardConfig, WhatZh: whatGuardConfigZh},
	// The host-neutral config dir ($XDG_CONFIG_HOME/zcode-fence, ~/.config/zcode-fence).
	{Anchor: ConfigHome, Rel: "zcode-fence", Shape: Tree, What: whatGuardConfig, WhatZh: whatGuardConfigZh},
	// The data dir of this call (log, session-roots.log, model cache, integrity record, verified layer copies).
	{Anchor: DataDir, Shape: Tree, What: whatGuardData, WhatZh: whatGuardDataZh},
	// Every data dir the guard can be pointed at: the override; the hosts' injected data dirs,
	// installed plugin and settings follow (hostEntries).
	{Anchor: Env, Env: "ZCODE_FENCE_DATA_DIR", Shape: Tree, What: whatGuardData, WhatZh: whatGuardDataZh},
}

// otherEntries run code in every later shell, SSH connection or git
// command.
var otherEntries = []Entry{
	// Shell start-up files: code in them runs in every later shell, the guard's own hook command included.
	{Anchor: Home, Rel: ".bashrc", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Home, Rel: ".bash_profile", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Home, Rel: ".bash_login", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Home, Rel: ".bash_logout", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Home, Rel: ".profile", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Home, Rel: ".zshrc", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Home, Rel: ".zshenv", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Home, Rel: ".zprofile", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Home, Rel: ".zlogin", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Home, Rel: ".zlogout", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Home, Rel: ".kshrc", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Home, Rel: ".mkshrc", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Home, Rel: ".cshrc", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Home, Rel: ".tcshrc", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Home, Rel: ".login", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: ConfigHome, Rel: "fish", Shape: Tree, What: whatStartup, WhatZh: whatStartupZh},
	// PowerShell profiles: ~/.config/powershell on Linux and macOS, Documents\PowerShell (7) and
	// Documents\WindowsPowerShell (5.1) on Windows.
	{Anchor: ConfigHome, Rel: "powershell", Shape: Tree, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Home, Rel: "Documents/PowerShell", Shape: Tree, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Home, Rel: "Documents/WindowsPowerShell", Shape: Tree, What: whatStartup, WhatZh: whatStartupZh},
	// System-wide start-up files (they matter when the project root is /).
	{Anchor: Abs, Rel: "/etc/profile", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Abs, Rel: "/etc/profile.d", Shape: Tree, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Abs, Rel: "/etc/bash.bashrc", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Abs, Rel: "/etc/bashrc", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Abs, Rel: "/etc/zshrc", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Abs, Rel: "/etc/zsh", Shape: Tree, What: whatStartup, WhatZh: whatStartupZh},
	{Anchor: Abs, Rel: "/etc/environment", Shape: File, What: whatStartup, WhatZh: whatStartupZh},
	// SSH: keys, authorized_keys, config (ProxyCommand runs code).
	{Anchor: Home, Rel: ".ssh", Shape: Tree, What: whatSSH, WhatZh: whatSSHZh},
	// Git's user configuration (core.hooksPath, core.fsmonitor, aliases run code in every repository).
	{Anchor: Home, Rel: ".gitconfig", Shape: File, What: whatGit, WhatZh: whatGitZh},
	{Anchor: ConfigHome, Rel: "git/config", Shape: File, What: whatGit, WhatZh: whatGitZh},
	// The project repository's git dir as a whole: its hooks (each runs on a later commit,
	// checkout, merge or push), its config (core.fsmonitor, core.pager, aliases run code in every
	// later git command), info/attributes, modules/*/hooks of its submodules, commondir; and .git
	// itself, which a gitdir: file can replace. Not its lock files (rm -f .git/index.lock after a
	// crash), the ignore list and the message files editors write.
	{Anchor: Project, Rel: ".git", Shape: Tree, Except: gitExcept, What: whatRepoGit, WhatZh: whatRepoGitZh},
	// Every nested repository's .git (and a submodule's .git file), at any depth.
	{Anchor: Project, Rel: ".git", Shape: Named, Except: gitExcept, What: whatRepoGit, WhatZh: whatRepoGitZh},
	// The repository a .git file points to, and its common dir.
	{Anchor: GitDir, Shape: Tree, Except: gitExcept, What: whatRepoGit, WhatZh: whatRepoGitZh},
	// The active hooks dir (.husky, .githooks ...) and the files git configuration includes.
	{Anchor: GitHooks, Shape: Tree, What: whatGitHooks, WhatZh: whatGitHooksZh},
	{Anchor: GitInclude, Shape: File, What: whatGitInclude, WhatZh: whatGitIncludeZh},
}

// gitExcept are the parts of a git dir that run no code and that everyday
// work writes or clears: lock files, the local ignore list, commit and
// merge message files, the description, and the state of an operation in
// progress (rm -rf .git/rebase-merge after a rebase that went wrong).
var gitExcept = []string{"*.lock", "info/exclude", "COMMIT_EDITMSG", "MERGE_MSG", "SQUASH_MSG", "TAG_EDITMSG",
	"description", "rebase-merge", "rebase-apply", "sequencer", "MERGE_HEAD", "MERGE_MODE", "CHERRY_PICK_HEAD",
	"REVERT_HEAD", "ORIG_HEAD", "FETCH_HEAD", "AUTO_MERGE", "BISECT_LOG", "gc.log", "gc.pid"}

// Hit is a protected path a target reaches.
type Hit struct {
	Entry *Entry
	// Path is the protected path as resolved for this call (for a
	// Settings entry, its directory).
	Path string
}

// item is one entry resolved for a call.
type item struct {
	e      *Entry
	at     paths.Path
	base   paths.Path // the anchor at is below
	except []paths.Path
	real   paths.Path // at with symlinks resolved (Set.resolveReal)
	realEx []paths.Path
	realB  paths.Path // base with symlinks resolved (Named entries)
	globs  []string   // Except items matched against a last name
	first  string     // the path of the first name below base on the way to at ("" for base itself)
}

// Set is the table resolved for one call. Not safe for concurrent use
// (real paths are filled in on first use).
type Set struct {
	p        paths.Platform
	items    []item
	realDone bool
}

// Resolve places the table for one call: p gives home, the environment
// (Lookup) and the path rules; project is the call's project root and
// dataDir its data dir (either may be ""). An entry whose anchor is
// unknown (no home, no project, an unset or relative variable) is left
// out, and so is a directory named by a variable (or the data dir) that
// is a wide root (paths.IsWideRoot) or holds the project root: protecting
// it would fence the whole project. Cost: about sixty path joins the
// first time; a later call whose inputs are the last placement's (OS,
// home, project, data dir, and every variable the placement looked up,
// looked up again) copies its items (one allocation) instead. The
// discovered places (GitDir, GitHooks, GitInclude: git configuration on
// the real file system) are found again for every call. No other system
// calls until a real path is needed.
func Resolve(p paths.Platform, project, dataDir string) *Set {
	pl := lastPlaced.Load()
	if pl == nil || !pl.sameInputs(p, project, dataDir) {
		pl = place(p, project, dataDir)
		lastPlaced.Store(pl)
	}
	// One item per entry and base (GitDir entries may have two or three):
	// sized for the table, so the slice is not grown and copied (304 B
	// an item).
	s := &Set{p: p, items: make([]item, 0, len(pl.items)+8)}
	var found *repoFacts // found on the real file system, once, when needed
	for i := range Table {
		e := &Table[i]
		switch e.Anchor {
		case GitDir, GitHooks, GitInclude:
			if pl.notAtHome && e.NotAtHome {
				continue
			}
			if found == nil {
				f := discover(p, pl.proj, pl.homeAt, pl.config)
				found = &f
			}
			for _, base := range found.of(e.Anchor) {
				s.add(e, base, pl.proj, true)
			}
		default:
			s.items = append(s.items, pl.items[pl.at[i]:pl.at[i+1]]...)
		}
	}
	return s
}

// placement is the part of Resolve that depends on its inputs only: the
// items of every entry that is not discovered, and the inputs it read.
// Its items are never changed after it is stored (a Set copies them).
type placement struct {
	os, home, project, dataDir string
	noLookup                   bool
	env                        []envmemo.Lookup
	homeAt, proj, config       paths.Path
	notAtHome                  bool // the project root is home
	items                      []item
	at                         []int // Table[i]'s items are items[at[i]:at[i+1]]
}

// lastPlaced is the most recent placement: a hook call resolves once, a
// warm layer server or a benchmark many times with the same inputs.
var lastPlaced atomic.Pointer[placement]

// sameInputs reports whether placing for p, project and dataDir would
// read exactly what pl read.
func (pl *placement) sameInputs(p paths.Platform, project, dataDir string) bool {
	if pl.os != p.OS || pl.home != p.Home || pl.project != project || pl.dataDir != dataDir ||
		pl.noLookup != (p.Lookup == nil) {
		return false
	}
	return p.Lookup == nil || envmemo.Same(pl.env, p.Lookup)
}

// place does Resolve's work for every entry that is not discovered,
// recording the variables it looks up.
func place(p paths.Platform, project, dataDir string) *placement {
	pl := &placement{os: p.OS, home: p.Home, project: project, dataDir: dataDir, noLookup: p.Lookup == nil,
		at: make([]int, len(Table)+1)}
	lookupEnv := func(name string) (string, bool) {
		v, ok := p.Lookup(name)
		pl.env = append(pl.env, envmemo.Lookup{Name: name, Value: v, OK: ok})
		return v, ok
	}
	s := &Set{p: p, items: make([]item, 0, len(Table))}
	home := p.Clean(strings.TrimSpace(p.Home))
	proj := p.Clean(strings.TrimSpace(project))
	config := paths.Path{}
	if p.Lookup != nil {
		if v, ok := lookupEnv("XDG_CONFIG_HOME"); ok {
			if x := p.Clean(strings.TrimSpace(v)); x.IsAbs() {
				config = x
			}
		}
	}
	if !config.IsAbs() && home.IsAbs() {
		config = p.Join(home, p.Clean(".config"))
	}
	pl.homeAt, pl.proj, pl.config = home, proj, config
	pl.notAtHome = home.IsAbs() && proj.IsAbs() && same(p, home, proj)
	for i := range Table {
		pl.at[i] = len(s.items)
		e := &Table[i]
		var base paths.Path
		named := false // a directory the environment or the call names
		switch e.Anchor {
		case Home:
			base = home
		case Project:
			base = proj
		case ConfigHome:
			base = config
		case Abs:
			if p.OS == "windows" {
				continue
			}
			base = p.Clean("/")
		case Env:
			if p.Lookup == nil {
				continue
			}
			v, _ := lookupEnv(e.Env)
			base, named = p.Clean(strings.TrimSpace(v)), true
		case DataDir:
			base, named = p.Clean(strings.TrimSpace(dataDir)), true
		default: // discovered for each call (Resolve)
			continue
		}
		if e.NotAtHome && pl.notAtHome {
			continue
		}
		s.add(e, base, proj, named)
	}
	pl.at[len(Table)] = len(s.items)
	pl.items = s.items
	return pl
}

// add places entry e at base for the call (see Resolve).
func (s *Set) add(e *Entry, base, proj paths.Path, named bool) {
	p := s.p
	if !base.IsAbs() {
		return
	}
	at := base
	if e.Rel != "" {
		at = p.Join(base, p.Clean(strings.TrimPrefix(e.Rel, "/")))
	}
	if !at.IsAbs() {
		return
	}
	if named && e.Shape == Tree {
		if wide, _ := p.IsWideRoot(at); wide || proj.IsAbs() && p.Contains(at, proj) {
			return
		}
	}
	it := item{e: e, at: at, base: base}
	it.first = firstName(p, at, base)
	for _, ex := range e.Except {
		if !strings.Contains(ex, "/") && strings.ContainsAny(ex, "*?[") {
			it.globs = append(it.globs, ex)
			continue
		}
		it.except = append(it.except, p.Join(at, p.Clean(ex)))
	}
	s.items = append(s.items, it)
}

// resolveReal fills in the real path of every item, once. Symlinks are
// looked for where they are common (dotfile managers link ~/.claude or
// ~/.config, macOS links /etc): the anchor itself and the first name below
// it; an entry is walked in full only when that name is a link. So the
// list costs a few RealPath walks and, per anchor, either one Lstat per
// distinct first name or (linkedNames: an anchor with many names, home)
// one read of the anchor directory; not a walk per entry (about 60).
func (s *Set) resolveReal() {
	if s.realDone {
		return
	}
	s.realDone = true
	p := s.p
	bases := map[string]paths.Path{}
	linked := map[string]bool{}
	if p.EvalSymlinks != nil {
		s.listFirstNames(linked)
	}
	for i := range s.items {
		it := &s.items[i]
		if p.EvalSymlinks == nil { // lexical real paths: the same
			it.real, it.realEx, it.realB = it.at, it.except, it.base
			continue
		}
		br, ok := bases[it.base.Norm]
		if !ok {
			br = p.RealPath(it.base)
			bases[it.base.Norm] = br
		}
		it.realB = br
		rel := strings.TrimLeft(it.at.Norm[len(strings.TrimRight(it.base.Norm, `/\`)):], `/\`)
		walk := false
		if fp := it.first; fp != "" {
			l, seen := linked[fp]
			if !seen {
				fi, err := os.Lstat(fp)
				l = err == nil && fi.Mode()&os.ModeSymlink != 0
				linked[fp] = l
			}
			walk = l
		}
		switch {
		case walk:
			it.real = p.RealPath(it.at)
		case br.Norm == it.base.Norm: // no link on the way: the path itself
			it.real, it.realEx = it.at, it.except
			continue
		case rel == "":
			it.real = br
		default:
			it.real = p.Join(br, p.Clean(rel))
		}
		for _, ex := range it.except {
			exRel := strings.TrimLeft(ex.Norm[len(strings.TrimRight(it.at.Norm, `/\`)):], `/\`)
			it.realEx = append(it.realEx, p.Join(it.real, p.Clean(exRel)))
		}
	}
}

// firstName is the path of the first name below base on the way to at
// ("" when at is base). Placed with the item (add), so a reused placement
// does not join it again.
func firstName(p paths.Platform, at, base paths.Path) string {
	rel := strings.TrimLeft(at.Norm[len(strings.TrimRight(base.Norm, `/\`)):], `/\`)
	first, _, _ := strings.Cut(strings.ReplaceAll(rel, `\`, "/"), "/")
	if first == "" {
		return ""
	}
	return p.Join(base, p.Clean(first)).Norm
}

// listFirstNames fills linked (first name's path -> is a symlink) for the
// anchors below which the items have at least listAtLeast distinct first
// names, from one read of the anchor directory (linkedNames); the other
// names are left to resolveReal's Lstat.
func (s *Set) listFirstNames(linked map[string]bool) {
	if runtime.GOOS != "linux" || s.p.OS != "linux" {
		return // names there may match an entry of another case or form
	}
	byBase := map[string][]string{}
	for i := range s.items {
		it := &s.items[i]
		if fp := it.first; fp != "" && !slices.Contains(byBase[it.base.Norm], fp) {
			byBase[it.base.Norm] = append(byBase[it.base.Norm], fp)
		}
	}
	for dir, names := range byBase {
		if len(names) >= listAtLeast {
			linkedNames(dir, names, linked)
		}
	}
}

// listAtLeast is how many names an anchor needs before its directory is
// read instead of Lstat-ing each name (a read is an open, two getdents
// and a close).
const listAtLeast = 6

// listAtMost bounds the directory read: a larger directory is left to
// Lstat (a read would cost more than the names' Lstats).
const listAtMost = 512

// linkedNames records in linked, for each path of names (all directly in
// dir), whether it is a symlink, from one read of dir: a name that is not
// listed does not exist, so it is no link. A name listed only in another
// case (a case-folding directory) is left out, and so is every name when
// dir cannot be read or holds more than listAtMost entries: resolveReal
// Lstats those.
func linkedNames(dir string, names []string, linked map[string]bool) {
	isLink := make(map[string]bool, 64)
	folded := make(map[string]bool, 64)
	ok := listDir(dir, listAtMost, func(name string, link, known bool) {
		if known {
			isLink[name] = link
		}
		folded[strings.ToLower(name)] = true
	})
	if !ok {
		return
	}
	for _, fp := range names {
		name := filepath.Base(fp)
		if l, ok := isLink[name]; ok {
			linked[fp] = l
		} else if !folded[strings.ToLower(name)] {
			linked[fp] = false
		}
	}
}

// Len is the number of protected paths resolved for the call.
func (s *Set) Len() int { return len(s.items) }

// Match reports whether x (an absolute path: pass the lexical and the real
// form of a target, one call each) is a protected path or lies inside a
// protected directory. A glob in x's last segment (~/.ssh/*, ~/.bash*)
// matches when it can name a protected path itself (not one below it:
// that is Below's). Cost: one comparison per
// entry (about sixty), plus the entries' real paths on first use.
func (s *Set) Match(x paths.Path) (Hit, bool) {
	if s == nil || !x.IsAbs() {
		return Hit{}, false
	}
	s.resolveReal()
	dir, pattern := globTail(s.p, x)
	for i := range s.items {
		it := &s.items[i]
		if it.e.Shape == Named {
			for k, base := range [2]paths.Path{it.base, it.realB} {
				if !base.IsAbs() || k == 1 && base.Norm == it.base.Norm {
					continue
				}
				if at, ok := s.named(base, it.e.Rel, x); ok && !s.excepted(it, s.p.Clean(at), x) {
					return Hit{Entry: it.e, Path: at}, true
				}
			}
			continue
		}
		for k, at := range [2]paths.Path{it.at, it.real} {
			if !at.IsAbs() || k == 1 && at.Norm == it.at.Norm {
				continue
			}
			ex := it.except
			if k == 1 {
				ex = it.realEx
			}
			if s.matchOne(it.e, at, ex, x, dir, pattern) && !(it.e.Shape == Tree && s.excepted(it, at, x)) {
				return Hit{Entry: it.e, Path: it.at.Norm}, true
			}
		}
	}
	return Hit{}, false
}

func (s *Set) matchOne(e *Entry, at paths.Path, except []paths.Path, x, dir paths.Path, pattern string) bool {
	p := s.p
	switch e.Shape {
	case File:
		if same(p, at, x) {
			return true
		}
	case Tree:
		if p.Contains(at, x) {
			for _, ex := range except {
				if p.Contains(ex, x) {
					return false
				}
			}
			return true
		}
	case Settings:
		if p.Contains(at, x) { // cheap first: most targets are elsewhere
			if parent, name, ok := split(p, x); ok && same(p, parent, at) && isSettings(name) {
				return true
			}
		}
	}
	if pattern == "" || !dir.IsAbs() {
		return false
	}
	// A glob: the protected path (or a settings file) is one name below dir.
	if e.Shape == Settings {
		return same(p, dir, at) && (globMatch(p, pattern, "settings.json") || globMatch(p, pattern, "settings.local.json"))
	}
	parent, name, ok := split(p, at)
	return ok && same(p, parent, dir) && globMatch(p, pattern, name)
}

// excepted reports whether x, below the place at, is one of it's Except
// items that are not subtrees: the relative path (info/exclude) or, for a
// glob, the last name (*.lock).
func (s *Set) excepted(it *item, at, x paths.Path) bool {
	if same(s.p, at, x) || !s.p.Contains(at, x) {
		return false
	}
	rest := strings.ReplaceAll(strings.TrimLeft(x.Norm[len(strings.TrimRight(at.Norm, `/\`)):], `/\`), `\`, "/")
	for _, g := range it.globs {
		if globMatch(s.p, g, path.Base(rest)) {
			return true
		}
	}
	if it.e.Shape != Named {
		return false // a Tree's subtrees are it.except, judged by matchOne
	}
	for _, ex := range it.e.Except {
		if !strings.ContainsAny(ex, "*?[") && (rest == ex || strings.HasPrefix(rest, ex+"/") ||
			s.p.OS != "linux" && strings.EqualFold(rest, ex)) {
			return true
		}
	}
	return false
}

// named reports whether x lies below base and has a path component named
// name there (a .git at any depth: a/b/.git/hooks/x), and returns the
// directory that component names. A glob component does not match (rm
// -rf dist/.* is no repository's delete; the project's own .git answers
// to globs through its Tree entry, and the danger gate reads .g* deletes).
func (s *Set) named(base paths.Path, name string, x paths.Path) (string, bool) {
	p := s.p
	if !p.Contains(base, x) || same(p, base, x) {
		return "", false
	}
	rest := strings.TrimLeft(x.Norm[len(strings.TrimRight(base.Norm, `/\`)):], `/\`)
	off := len(x.Norm) - len(rest)
	for rest != "" {
		comp, more, _ := strings.Cut(strings.ReplaceAll(rest, `\`, "/"), "/")
		end := off + len(comp)
		if comp == name || p.OS != "linux" && strings.EqualFold(comp, name) {
			return x.Norm[:end], true
		}
		off = end + 1
		rest = more
	}
	return "", false
}

// globHolds reports whether dir/pattern can name a directory that holds
// the protected path at (~/.c* holds ~/.config/fish).
func globHolds(p paths.Platform, dir paths.Path, pattern string, at paths.Path) bool {
	if !p.Contains(dir, at) || same(p, dir, at) {
		return false
	}
	rest := strings.TrimLeft(at.Norm[len(strings.TrimRight(dir.Norm, `/\`)):], `/\`)
	first, more, _ := strings.Cut(strings.ReplaceAll(rest, `\`, "/"), "/")
	return more != "" && globMatch(p, pattern, first)
}

// Below reports whether a protected path lies strictly below x: deleting,
// moving or changing the mode of x recursively reaches it (rm -rf ~/.claude,
// mv ~/.config elsewhere, chmod -R 777 ~; a glob: rm -rf ~/.c*). keep,
// when not nil, picks the entries that count. Cost: as Match.
func (s *Set) Below(x paths.Path, keep func(*Entry) bool) (Hit, bool) {
	if s == nil || !x.IsAbs() {
		return Hit{}, false
	}
	s.resolveReal()
	dir, pattern := globTail(s.p, x)
	for i := range s.items {
		it := &s.items[i]
		if keep != nil && !keep(it.e) {
			continue
		}
		for k, at := range [2]paths.Path{it.at, it.real} {
			if !at.IsAbs() || k == 1 && at.Norm == it.at.Norm {
				continue
			}
			if s.p.Contains(x, at) && !same(s.p, x, at) || pattern != "" && globHolds(s.p, dir, pattern, at) {
				return Hit{Entry: it.e, Path: it.at.Norm}, true
			}
		}
	}
	return Hit{}, false
}

// BelowPrefixed is Below for a write of entries directly into x under
// names that begin with prefix (git checkout-index -a --prefix=x/pre):
// the protected paths at or below x/NAME for a NAME that begins with
// prefix. Cost: as Below.
func (s *Set) BelowPrefixed(x paths.Path, prefix string, keep func(*Entry) bool) (Hit, bool) {
	if s == nil || !x.IsAbs() {
		return Hit{}, false
	}
	s.resolveReal()
	for i := range s.items {
		it := &s.items[i]
		if keep != nil && !keep(it.e) {
			continue
		}
		for k, at := range [2]paths.Path{it.at, it.real} {
			if !at.IsAbs() || k == 1 && at.Norm == it.at.Norm || !s.p.Contains(x, at) || same(s.p, x, at) {
				continue
			}
			rest := strings.TrimLeft(at.Norm[len(strings.TrimRight(x.Norm, `/\`)):], `/\`)
			first, _, _ := strings.Cut(strings.ReplaceAll(rest, `\`, "/"), "/")
			if NameBegins(s.p, first, prefix) {
				return Hit{Entry: it.e, Path: it.at.Norm}, true
			}
		}
	}
	return Hit{}, false
}

// NameBegins reports whether the file name name begins with prefix, as
// the platform compares names (case-insensitively on Windows and macOS).
func NameBegins(p paths.Platform, name, prefix string) bool {
	if p.OS == "windows" || p.OS == "darwin" {
		name, prefix = strings.ToLower(name), strings.ToLower(prefix)
	}
	return strings.HasPrefix(name, prefix)
}

// ExceptsNames reports whether every name pattern is one of the hit
// entry's excepted names (find .git -name '*.lock' -delete removes only
// lock files, which .git's entry leaves out).
func (h Hit) ExceptsNames(patterns []string) bool {
	if h.Entry == nil || len(patterns) == 0 {
		return false
	}
	for _, pat := range patterns {
		ok := false
		for _, ex := range h.Entry.Except {
			if m, err := path.Match(ex, pat); !strings.Contains(ex, "/") && (ex == pat || err == nil && m) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// Place is a protected place strictly below a directory x (Under).
type Place struct {
	Hit
	// Rel is the place's path below x, with "/" (".claude",
	// ".github/hooks"; for a Settings entry, its directory); for a Named
	// entry, the name it may have at any depth (".git").
	Rel string
	// Named: the place is every directory named Rel below x.
	Named bool
}

// Under lists the protected places strictly below the directory x, as
// given (the lexical paths; a place reached through a link is Match's):
// what a copy, a sync, an extraction or a move into x can create or
// replace there. A Named entry (.git at any depth) counts when x lies
// inside its anchor. Cost: one comparison per entry.
func (s *Set) Under(x paths.Path) []Place {
	if s == nil || !x.IsAbs() {
		return nil
	}
	p := s.p
	var out []Place
	for i := range s.items {
		it := &s.items[i]
		if it.e.Shape == Named {
			if p.Contains(it.base, x) {
				out = append(out, Place{Hit: Hit{Entry: it.e, Path: p.Join(x, p.Clean(it.e.Rel)).Norm}, Rel: it.e.Rel, Named: true})
			}
			continue
		}
		if !p.Contains(x, it.at) || same(p, x, it.at) {
			continue
		}
		rel := strings.ReplaceAll(strings.TrimLeft(it.at.Norm[len(strings.TrimRight(x.Norm, `/\`)):], `/\`), `\`, "/")
		out = append(out, Place{Hit: Hit{Entry: it.e, Path: it.at.Norm}, Rel: rel})
	}
	return out
}

// same reports whether a and b are the same path by the platform's rules.
func same(p paths.Platform, a, b paths.Path) bool {
	return p.Contains(a, b) && p.Contains(b, a)
}

// split cuts x into its parent directory and last name.
func split(p paths.Platform, x paths.Path) (paths.Path, string, bool) {
	n := strings.TrimRight(x.Norm, `/\`)
	i := strings.LastIndexAny(n, `/\`)
	if i < 0 || i == len(n)-1 {
		return paths.Path{}, "", false
	}
	parent := n[:i]
	if parent == "" || parent[len(parent)-1] == ':' || parent == `\` {
		parent += n[i : i+1]
	}
	return p.Clean(parent), n[i+1:], true
}

// globTail returns x's parent and its last name when that name holds a
// glob character, else a zero Path and "".
func globTail(p paths.Platform, x paths.Path) (paths.Path, string) {
	if !strings.ContainsAny(x.Norm, "*?[") {
		return paths.Path{}, ""
	}
	parent, name, ok := split(p, x)
	if !ok || !strings.ContainsAny(name, "*?[") || strings.ContainsAny(parent.Norm, "*?[") {
		return paths.Path{}, ""
	}
	return parent, name
}

// globMatch matches one name like the shell does: a leading dot must be
// matched by a leading dot (* does not match .ssh).
func globMatch(p paths.Platform, pattern, name string) bool {
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(pattern, ".") {
		return false
	}
	if p.OS == "windows" || p.OS == "darwin" {
		pattern, name = strings.ToLower(pattern), strings.ToLower(name)
	}
	ok, err := path.Match(pattern, name)
	return ok && err == nil
}

// isSettings: settings.json, settings.local.json, settings.<anything>.json.
func isSettings(name string) bool {
	n := strings.ToLower(name)
	return strings.HasPrefix(n, "settings") && strings.HasSuffix(n, ".json")
}

// Message returns what e protects, in English or (zh) Chinese.
func (e *Entry) Message(zh bool) string {
	if zh {
		return e.WhatZh
	}
	return e.What
}
