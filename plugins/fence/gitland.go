package fence

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/protect"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/steps"
)

// Files git brings from history (cmdfacts.GitLandings): a checkout,
// switch, merge, rebase, pull from a repository on disk, cherry-pick,
// revert, reset --keep, read-tree -u, stash apply/pop/push or
// checkout-index that changes what the project holds at one of its
// protected places (.claude/, .gemini/, .github/hooks, the active hooks
// dir ...) asks, like a copy or an extraction that lands there
// (FN-PROTECTED-REPLACE). An earlier silent call can have put anything in
// a commit: a scratch repository committed next to the project and
// pulled, a tree built with git mktree and commit-tree, an index filled
// by read-tree. What the revision holds is read with git itself — the
// same program that will run, on the same repository — restricted to the
// places' paths: plumbing only (diff-tree, ls-tree, ls-files), which runs
// no hook, filter, diff driver, pager or fsmonitor; a work-tree file is
// hashed here, never by git (whose clean filters the repository
// configures). A revision git cannot read (a typo, a remote's branch not
// fetched yet, an unknown word) brings nothing the guard can see, and
// the command fails or takes content that exists nowhere on disk yet:
// silent, as a download-and-extract is. Cost: nothing for other
// commands; one to three git processes (2–5 ms each here) for these.

// gitLandTimeout bounds one git process; the layer's own deadline bounds
// the call.
const gitLandTimeout = 2 * time.Second

// maxLandHash bounds the bytes of a work-tree file hashed to compare it
// with the index or HEAD; a bigger file counts as different.
const maxLandHash = 1 << 20

// gitLandings judges what git command c (run in base) brings into the
// project's protected places.
func (j *judge) gitLandings(c *ir.Command, base paths.Path) {
	if c.Name != "git" || len(c.Args) < 2 || j.p.EvalSymlinks == nil {
		return
	}
	g := cmdfacts.ParseGit(c.Args[1:], c.Assigns)
	if g.Sub == "" || len(g.GitDir) > 0 || len(g.WorkTree) > 0 {
		return // another repository or work tree: judged as the place it names (gitTargets)
	}
	lands := cmdfacts.GitLandings(g.Sub, g.Args)
	if len(lands) == 0 {
		return
	}
	root := j.p.Clean(j.call.ProjectRoot)
	if !root.IsAbs() {
		return
	}
	dir := base
	for _, d := range g.Dirs {
		dir = j.step(dir, d, c.Dialect)
	}
	top := j.gitTop(dir)
	if !top.IsAbs() || !j.p.Contains(top, root) {
		return // not the project's repository (a nested one, or elsewhere)
	}
	specs, byRel := j.landPlaces(root)
	if len(specs) == 0 {
		return
	}
	// Revisions an earlier command of the call points HEAD, a branch or
	// the index at: what lands may be theirs (git reset --soft X && git
	// stash); one that cannot be read may hold anything.
	for _, w := range j.earlierRefMoves() {
		if w.Unknown {
			what := "brings files from a revision an earlier command sets and the guard cannot read: " + byRel[specs[0]].Entry.Message(false)
			if !j.en {
				what = "带来之前的命令设定、守卫无法读取的修订中的文件：" + byRel[specs[0]].Entry.Message(true)
			}
			j.add(origin{rule: rules.ProtectedReplace, label: "git " + g.Sub, verb: verbWrite},
				result{kind: protectedHit, shown: root.Norm, what: what, place: true})
			return
		}
		lands = append(lands, cmdfacts.GitLanding{Kind: cmdfacts.LandSwitch, To: w})
	}
	settings := cmdfacts.SettingsFiles()
	for _, l := range lands {
		changed, rev, err := j.landed(root, dir, l, append(specs[:len(specs):len(specs)], settings...))
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			j.incomplete(rules.CauseTimeout)
			return
		}
		places, file, setting := j.splitLanded(root, dir, l, changed, byRel)
		if file != "" {
			j.addSetting("git "+g.Sub, j.p.Join(root, j.p.Normalize(file)).Norm, setting)
			return
		}
		if len(places) == 0 {
			continue
		}
		pl, _ := placeOf(byRel, places[0])
		what := fmt.Sprintf("brings %s from %s: %s", places[0], rev, pl.Entry.Message(false))
		if !j.en {
			what = fmt.Sprintf("从 %s 带来 %s：%s", rev, places[0], pl.Entry.Message(true))
		}
		label := "git " + g.Sub
		j.add(origin{rule: rules.ProtectedReplace, label: label, verb: verbWrite},
			result{kind: protectedHit, shown: pl.Path, what: what, place: true})
		return
	}
}

// earlierRefMoves lists the revisions the git commands before the one
// being judged point HEAD, a branch or the index at
// (cmdfacts.GitRefMoves).
func (j *judge) earlierRefMoves() []ir.Word {
	var out []ir.Word
	cmds := j.call.Script.Commands
	for i := 0; i < j.cur && i < len(cmds); i++ {
		c := &cmds[i]
		if c.Name != "git" || len(c.Args) < 2 {
			continue
		}
		if g := cmdfacts.ParseGit(c.Args[1:], c.Assigns); g.Sub != "" {
			out = append(out, cmdfacts.GitRefMoves(g.Sub, g.Args)...)
		}
	}
	return out
}

// landPlaces lists the protected places strictly below the project root
// that git can track (not .git itself, nor a name at any depth), as
// pathspecs relative to the root, and the places by those names.
func (j *judge) landPlaces(root paths.Path) ([]string, map[string]protect.Place) {
	byRel := map[string]protect.Place{}
	var specs []string
	for _, pl := range j.protectedSet().Under(root) {
		first, _, _ := strings.Cut(pl.Rel, "/")
		if pl.Named || pl.Rel == "" || strings.EqualFold(first, ".git") || strings.HasPrefix(pl.Rel, "..") {
			continue
		}
		if _, ok := byRel[pl.Rel]; !ok {
			byRel[pl.Rel] = pl
			specs = append(specs, pl.Rel)
		}
	}
	return specs, byRel
}

// placeOf is the place a changed path (relative to the root) lies in.
func placeOf(byRel map[string]protect.Place, p string) (protect.Place, bool) {
	best := ""
	for rel := range byRel {
		if (p == rel || strings.HasPrefix(p, rel+"/")) && len(rel) > len(best) {
			best = rel
		}
	}
	pl, ok := byRel[best]
	return pl, ok && best != ""
}

// splitLanded splits what a landing changes into the paths at protected
// places and the first settings file (.env, .envrc, mise.toml ... outside
// any place) whose text at the landing's revision sets a guard setting
// (config.Planted), with that setting; settings files that set none are
// ordinary. The text is read with git cat-file (a blob's bytes, no
// filter), bounded, and only until one sets a guard setting.
func (j *judge) splitLanded(root, dir paths.Path, l cmdfacts.GitLanding, changed []string, byRel map[string]protect.Place) (places []string, file, setting string) {
	for _, name := range changed {
		if _, ok := placeOf(byRel, name); ok {
			places = append(places, name)
		} else if file == "" {
			if s, ok := j.landedSetting(root, dir, l, name); ok {
				file, setting = name, s
			}
		}
	}
	return places, file, setting
}

// landedSetting reads the text a landing brings for settings file name
// and reports the guard setting it sets, if any.
func (j *judge) landedSetting(root, dir paths.Path, l cmdfacts.GitLanding, name string) (string, bool) {
	repo := root.Norm
	var objs []string
	to := l.To.Value
	if to == "-" {
		to = "@{-1}"
	}
	switch l.Kind {
	case cmdfacts.LandIndex:
		objs = []string{":" + name}
	case cmdfacts.LandHead:
		objs = []string{"HEAD:" + name}
	case cmdfacts.LandStash:
		objs = []string{to + ":" + name, to + "^3:" + name}
	default:
		if to == "" {
			to = "HEAD"
		}
		objs = []string{to + ":" + name}
		if l.Kind == cmdfacts.LandMerge && !l.Repo.Unknown && l.Repo.Value != "" {
			repo = j.p.Join(dir, j.p.Normalize(cmdfacts.LocalRepoPath(l.Repo))).Norm
		}
	}
	for _, obj := range objs {
		out, err := j.git(repo, "cat-file", "blob", obj)
		if err != nil {
			continue
		}
		j.steps.Spend(len(out) / steps.PathChunk)
		if setting, ok := config.Planted(string(out[:min(len(out), maxTrusted)])); ok {
			return setting, true
		}
	}
	return "", false
}

// landed lists the paths at the places (specs, relative to root) that
// landing l changes, and the revision as shown.
func (j *judge) landed(root, dir paths.Path, l cmdfacts.GitLanding, specs []string) ([]string, string, error) {
	rev := func(w ir.Word, def string) (string, bool) {
		if w.Value == "" && !w.Unknown {
			return def, true
		}
		if w.Unknown || strings.HasPrefix(w.Value, "-") && w.Value != "-" {
			return "", false
		}
		if w.Value == "-" {
			return "@{-1}", true
		}
		return w.Value, true
	}
	to, ok := rev(l.To, "HEAD")
	if !ok {
		return nil, "", nil
	}
	switch l.Kind {
	case cmdfacts.LandSwitch, cmdfacts.LandCommit:
		from, ok := rev(l.From, "")
		if !ok {
			return nil, "", nil
		}
		if from == "" && l.Kind == cmdfacts.LandSwitch {
			from = "HEAD"
		}
		if from == "" {
			out, err := j.git(root.Norm, append([]string{"diff-tree", "-r", "--name-only", "-z", "--no-commit-id", "--root", "--end-of-options", to, "--"}, specs...)...)
			return nulFields(out), to, err
		}
		out, err := j.git(root.Norm, append([]string{"diff-tree", "-r", "--name-only", "-z", "--end-of-options", from, to, "--"}, specs...)...)
		return nulFields(out), to, err
	case cmdfacts.LandMerge:
		if !l.Repo.Unknown && l.Repo.Value != "" {
			return j.landedFrom(root, dir, l, to, specs)
		}
		out, err := j.git(root.Norm, append([]string{"diff-tree", "-r", "--name-only", "-z", "--merge-base", "--end-of-options", "HEAD", to, "--"}, specs...)...)
		return nulFields(out), to, err
	case cmdfacts.LandStash:
		out, err := j.git(root.Norm, append([]string{"diff-tree", "-r", "--name-only", "-z", "--end-of-options", to + "^1", to, "--"}, specs...)...)
		changed := nulFields(out)
		if err == nil && len(changed) == 0 {
			// The untracked files it saved (stash -u): a third parent.
			out, err = j.git(root.Norm, append([]string{"ls-tree", "-r", "--name-only", "-z", "--end-of-options", to + "^3", "--"}, specs...)...)
			changed = nulFields(out)
		}
		return changed, to, err
	case cmdfacts.LandIndex:
		out, err := j.git(root.Norm, append([]string{"ls-files", "-s", "-z", "--"}, specs...)...)
		return j.limitTo(root, dir, l.Paths, j.differFromWorkTree(root, out, true, l.Missing)), "the index", err
	case cmdfacts.LandHead:
		out, err := j.git(root.Norm, append([]string{"ls-tree", "-r", "-z", "--end-of-options", "HEAD", "--"}, specs...)...)
		return j.limitTo(root, dir, l.Paths, j.differFromWorkTree(root, out, false, false)), "HEAD", err
	}
	return nil, "", nil
}

// landedFrom: a pull or fetch from a repository on disk. What its
// revision holds at the places is compared with HEAD's (the merge base is
// in another repository until the fetch): an entry there that HEAD does
// not have, or has with other content, lands.
func (j *judge) landedFrom(root, dir paths.Path, l cmdfacts.GitLanding, to string, specs []string) ([]string, string, error) {
	repo := j.p.Join(dir, j.p.Normalize(cmdfacts.LocalRepoPath(l.Repo)))
	if !repo.IsAbs() || !j.isDir(repo) {
		return nil, "", nil
	}
	theirs, err := j.git(repo.Norm, append([]string{"ls-tree", "-r", "-z", "--end-of-options", to, "--"}, specs...)...)
	if err != nil || len(theirs) == 0 {
		return nil, "", err
	}
	ours, err := j.git(root.Norm, append([]string{"ls-tree", "-r", "-z", "--end-of-options", "HEAD", "--"}, specs...)...)
	if err != nil && !isExit(err) {
		return nil, "", err
	}
	have := map[string]bool{}
	for _, e := range nulFields(ours) {
		have[e] = true
	}
	var changed []string
	for _, e := range nulFields(theirs) {
		if !have[e] {
			if _, name, ok := strings.Cut(e, "\t"); ok {
				changed = append(changed, name)
			}
		}
	}
	return changed, l.Repo.Value + " " + to, nil
}

// limitTo keeps the names (relative to root) that lie at or below one of
// the paths a command is limited to (relative to dir); with no paths, or
// one that is unknown or not a plain path (a pathspec with magic or a
// glob), all of them.
func (j *judge) limitTo(root, dir paths.Path, limits []ir.Word, names []string) []string {
	if len(limits) == 0 || len(names) == 0 {
		return names
	}
	var under []paths.Path
	for _, w := range limits {
		if w.Unknown || strings.ContainsAny(w.Value, "*?[:") {
			return names
		}
		under = append(under, j.p.Join(dir, j.p.Normalize(w.Value)))
	}
	var out []string
	for _, n := range names {
		x := j.p.Join(root, j.p.Normalize(n))
		for _, u := range under {
			if u.IsAbs() && j.p.Contains(u, x) {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// differFromWorkTree lists the entries of an ls-files -s (index) or
// ls-tree -r (HEAD) listing whose file in the work tree is missing or
// holds other content (with missing, only those missing): what
// checkout-index or stash would write there.
func (j *judge) differFromWorkTree(root paths.Path, listing []byte, index, missing bool) []string {
	var out []string
	for _, e := range nulFields(listing) {
		meta, name, ok := strings.Cut(e, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) < 3 {
			continue
		}
		mode, oid := f[0], f[1]
		if !index {
			oid = f[2] // MODE TYPE OID
		}
		if mode == "160000" {
			continue // a submodule's commit
		}
		j.steps.Spend(steps.FS(name))
		p := filepath.Join(root.Norm, filepath.FromSlash(name))
		if missing {
			if _, err := os.Lstat(p); err != nil {
				out = append(out, name)
			}
			continue
		}
		if !sameBlob(p, mode, oid) {
			out = append(out, name)
		}
	}
	return out
}

// sameBlob reports whether the file at p holds the blob oid (git's object
// id of "blob LEN\0" + content: SHA-1 for 40 hex digits, SHA-256 for 64;
// a symbolic link's content is its target). A missing, unreadable or too
// big file does not.
func sameBlob(p, mode, oid string) bool {
	var content []byte
	if mode == "120000" {
		t, err := os.Readlink(p)
		if err != nil {
			return false
		}
		content = []byte(t)
	} else {
		f, err := os.Open(p)
		if err != nil {
			return false
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxLandHash {
			return false
		}
		content, err = io.ReadAll(io.LimitReader(f, maxLandHash+1))
		if err != nil {
			return false
		}
	}
	var h hash.Hash
	switch len(oid) {
	case 40:
		h = sha1.New()
	case 64:
		h = sha256.New()
	default:
		return false
	}
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil)) == oid
}

// git runs one read-only plumbing command in dir the way
// cmdfacts.GitReadArgs and GitReadEnv say (the repository's own
// configuration cannot make it run code) and returns its standard
// output. A non-zero exit (not a repository, no such revision) is an
// *exec.ExitError; running out of time is the context's error.
func (j *judge) git(dir string, args ...string) ([]byte, error) {
	j.steps.Spend(steps.FS(dir) + 64)
	ctx := j.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, gitLandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", cmdfacts.GitReadArgs(dir, args...)...)
	cmd.Env = cmdfacts.GitReadEnv(os.Environ(), os.DevNull)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return stdout.Bytes(), err
}

// isExit reports whether err is git's non-zero exit.
func isExit(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee)
}

// nulFields splits NUL-terminated records.
func nulFields(b []byte) []string {
	var out []string
	for _, f := range bytes.Split(b, []byte{0}) {
		if len(f) > 0 {
			out = append(out, string(f))
		}
	}
	return out
}
