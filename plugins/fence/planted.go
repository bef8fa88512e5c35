package fence

import (
	"encoding/json"
	"io"
	"os"
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/steps"
)

// Settings planted in files hosts and shells load (issue 27 item 3): a
// write whose text sets a guard setting or a host's hook switch
// (config.Planted) asks wherever it lands (FN-PROTECTED-SETTING), and so
// does trusting such a file (direnv allow, mise trust: cmdfacts.EnvTrusts).
// The text is what the call itself holds: a file tool's new text, a shell
// write's words and heredoc, and the words of the commands piping into it
// (echo X=1 | tee -a .env). Cost: linear in that text.

// maxTrusted bounds the bytes read from a file direnv or mise is told to
// trust.
const maxTrusted = 256 << 10

// notWritten are the file tools' input keys whose text is not written:
// paths, the text replaced, options.
var notWritten = map[string]bool{"file_path": true, "path": true, "notebook_path": true, "old_string": true,
	"old_str": true, "cell_id": true, "cell_type": true, "edit_mode": true, "replace_all": true}

// plantedFile judges a file tool's new text.
func (j *judge) plantedFile() {
	var in any
	if len(j.call.Input) == 0 || json.Unmarshal(j.call.Input, &in) != nil {
		return
	}
	var texts []string
	collectText(in, "", &texts, 0)
	shown := ""
	if len(j.call.Paths) > 0 {
		shown = j.call.Paths[0]
		if x := j.p.Join(j.cwd, j.p.Normalize(strings.TrimSpace(shown))); x.IsAbs() {
			shown = x.Norm
		}
	}
	for _, t := range texts {
		j.steps.Spend(len(t) / steps.PathChunk)
		if name, ok := config.Planted(t); ok {
			j.addSetting(j.fileToolLabel(), shown, name)
			return
		}
	}
}

// collectText gathers the string values of a tool input that are
// written (not the keys of notWritten), depth-bounded.
func collectText(v any, key string, out *[]string, depth int) {
	if depth > 8 || notWritten[key] {
		return
	}
	switch x := v.(type) {
	case string:
		*out = append(*out, x)
	case []any:
		for _, e := range x {
			collectText(e, key, out, depth+1)
		}
	case map[string]any:
		for k, e := range x {
			collectText(e, k, out, depth+1)
		}
	}
}

// plantedShell judges command i, which writes the targets ts (and its
// write redirects): the text it writes is its words after the command
// name, its heredoc or here-string, and the same of the commands piping
// into it. It also judges direnv allow and mise trust.
// A command whose reasons (from before on) already say it writes a
// protected path is not judged again (echo ZCODE_FENCE_X=0 >> ~/.bashrc).
func (j *judge) plantedShell(i int, c *ir.Command, ts []target, before int) {
	for _, r := range j.reasons[min(before, len(j.reasons)):] {
		if strings.HasPrefix(r.Rule, "FN-PROTECTED-") {
			return
		}
	}
	if len(c.Args) > 0 {
		if et, ok := cmdfacts.EnvTrusts[c.Name]; ok {
			j.plantedTrust(c, et)
		}
	}
	var written *ir.Word
	var under []ir.Word
	stdout := false // the file gets what c prints
	for k := range c.Redirects {
		if r := c.Redirects[k]; r.IsWrite() && r.Target.Value != "/dev/null" {
			written, stdout = &c.Redirects[k].Target, true
			break
		}
	}
	for k := range ts {
		if written == nil && ts[k].verb == verbWrite {
			written, under = &ts[k].w, ts[k].under
		}
	}
	if written == nil {
		return
	}
	shown := written.Value
	base := j.dirOf(c)
	for _, u := range under {
		base = j.step(base, u, c.Dialect)
	}
	if rs := j.resolve(*written, base, c.Dialect); len(rs) > 0 && rs[0].shown == "" {
		if x := j.p.Join(base, rs[0].p); x.IsAbs() {
			shown = x.Norm
		}
	}
	texts := wordsText(c)
	cmds := j.call.Script.Commands
	for _, f := range j.feeders(i) {
		if f >= 0 && f < len(cmds) && cmds[f].Feed == ir.FeedPipe {
			texts = append(texts, wordsText(&cmds[f])...)
		}
	}
	for _, t := range texts {
		if name, ok := config.Planted(t); ok {
			j.addSetting(commandLabel(c), shown, name)
			return
		}
	}
	if cmdfacts.LoadsSettings(baseName(shown)) {
		j.plantedHidden(i, c, shown, stdout || c.Name == "tee")
	}
}

// maxCopied bounds the bytes read from a file copied into a file hosts or
// shells load settings from.
const maxCopied = 256 << 10

// plantedHidden judges a write into a file a host or shell loads settings
// from (cmdfacts.LoadsSettings: .env, .envrc, mise.toml ...) whose text
// the call itself does not hold. The files the command and the commands
// piping into it read or copy (cmdfacts.FileReads, < redirects: cp
// /tmp/x.env .env, cat a > .env) are read, bounded, from the real file
// system and judged like written text: a file planted earlier by a silent
// call asks when it is copied into place. Text that a decoder or
// rewriter produces (base64 -d, xxd -r, gunzip, tr, an interpreter
// printing what it computes: cmdfacts.TextChangeOf) cannot be judged, so
// it asks; sed's script is among the command's words and already judged.
// printed says whether the file gets what the command prints (a write
// redirect, tee), not what it writes by other means (an interpreter's
// open().write, whose code is among its words).
func (j *judge) plantedHidden(i int, c *ir.Command, shown string, printed bool) {
	cmds := j.call.Script.Commands
	producers := []*ir.Command{c}
	for _, f := range j.feeders(i) {
		if f >= 0 && f < len(cmds) && cmds[f].Feed == ir.FeedPipe {
			producers = append(producers, &cmds[f])
		}
	}
	for _, pc := range producers {
		if cmdfacts.IsFetcher(pc.Name) && (pc == c || printed) {
			// curl -o .env URL, curl URL > .envrc: a remote party's text
			what := "content " + commandLabel(pc) + " fetches from the network, which zcode-fence cannot read"
			if !j.en {
				what = commandLabel(pc) + " 从网络获取的内容（zcode-fence 无法读取）"
			}
			j.addSetting(commandLabel(c), shown, what)
			return
		}
		if printed && cmdfacts.TextChangeOf(pc) != cmdfacts.Unchanged && pc.Name != "sed" {
			what := "text that " + commandLabel(pc) + " decodes or computes at run time, which zcode-fence cannot read"
			if !j.en {
				what = commandLabel(pc) + " 在运行时解码或计算出的内容（zcode-fence 无法读取）"
			}
			j.addSetting(commandLabel(c), shown, what)
			return
		}
		var sources []ir.Word
		for _, fr := range cmdfacts.FileReads(pc) {
			sources = append(sources, fr.Word)
		}
		for _, r := range pc.Redirects {
			if r.Op == "<" {
				sources = append(sources, r.Target)
			}
		}
		base := j.dirOf(pc)
		if linksByText(pc) {
			// a symbolic link's relative target is read from the link's directory
			if at := j.p.Clean(shown); at.IsAbs() {
				base = j.p.Join(at, j.p.Clean(".."))
			}
		}
		for _, w := range sources {
			if j.plantedSource(i, c, shown, w, base) {
				return
			}
		}
	}
}

// maxCopyHops bounds how many copies plantedSource follows back from a
// file that does not exist yet to the file it is copied from.
const maxCopyHops = 4

// plantedSource judges source w (read in base) of command i, which writes
// shown: it asks (and reports true) when w's text sets a guard setting,
// or when w does not exist yet and a command before i writes it with text
// the guard cannot read (a redirect, tee, a write). A file that an
// earlier copy, move or link makes from another (cp a.env out/x; cp out/x
// .env) is judged by that file's text, up to maxCopyHops copies back.
func (j *judge) plantedSource(i int, c *ir.Command, shown string, w ir.Word, base paths.Path) bool {
	for hop := 0; ; hop++ {
		name, ok, missing := j.plantedIn(w, base)
		if ok {
			j.addSetting(commandLabel(c), shown, name)
			return true
		}
		if !missing {
			return false
		}
		k, from, fromBase, written := j.writerBefore(i, w, base)
		if !written {
			return false
		}
		if from == nil || hop == maxCopyHops {
			// echo B64 | base64 -d > /tmp/x; cp /tmp/x .env: the source
			// does not exist yet, and the call makes it first
			what := "text of " + w.Value + ", a file this call writes first, which zcode-fence cannot read"
			if !j.en {
				what = w.Value + " 的内容（本次调用先写入该文件，zcode-fence 无法读取）"
			}
			j.addSetting(commandLabel(c), shown, what)
			return true
		}
		i, w, base = k, *from, fromBase
	}
}

// writerBefore finds the last command before command i that writes the
// file w names (read in base): a write redirect, a write effect (tee,
// touch) or a file its options or operands write (curl -o) gives from
// nil; a copy, move or link onto it (cp SRC w, cp SRC
// DIR/ with w in DIR) gives the source it is made from, read in that
// command's directory (a symbolic link's text in the link's).
func (j *judge) writerBefore(i int, w ir.Word, base paths.Path) (k int, from *ir.Word, fromBase paths.Path, written bool) {
	x, ok := j.sourcePath(w, base)
	if !ok {
		return 0, nil, paths.Path{}, false
	}
	same := func(o ir.Word, dir paths.Path) bool {
		y, ok := j.sourcePath(o, dir)
		return ok && y.Norm == x.Norm
	}
	cmds := j.call.Script.Commands
	for k = min(i, len(cmds)) - 1; k >= 0; k-- {
		ck := &cmds[k]
		dir := j.dirOf(ck)
		for _, r := range ck.Redirects {
			if r.IsWrite() && same(r.Target, dir) {
				return k, nil, paths.Path{}, true
			}
		}
		for _, e := range ck.Effects {
			switch e.Op {
			case ir.EffectWrite:
				for _, t := range e.Targets {
					if same(t, dir) {
						return k, nil, paths.Path{}, true
					}
				}
			case ir.EffectCopy, ir.EffectMove, ir.EffectLink:
				if src, ok := copiedOnto(e, dir, same); ok {
					if e.Op == ir.EffectLink && e.Symbolic && !e.Relative {
						dir = j.p.Join(x, j.p.Clean("..")) // the link's text is read where it lies
					}
					return k, src, dir, true
				}
			}
		}
		if len(ck.Args) > 0 && ck.Name != "" {
			// the files its options and operands write (curl -o, wget -O)
			for _, t := range commandTargets(ck) {
				if t.verb == verbWrite && len(t.under) == 0 && same(t.w, dir) {
					return k, nil, paths.Path{}, true
				}
			}
		}
	}
	return 0, nil, paths.Path{}, false
}

// copiedOnto reports whether copy effect e (in directory dir) makes the
// file same matches, and from which source: the one target when there is
// one source, or a target directory the sources land in under their own
// names (Into, several sources, or a name ending in /).
func copiedOnto(e ir.Effect, dir paths.Path, same func(ir.Word, paths.Path) bool) (*ir.Word, bool) {
	for _, t := range e.Targets {
		into := e.Into || len(e.Sources) > 1 || strings.HasSuffix(t.Value, "/")
		if !into && len(e.Sources) == 1 && same(t, dir) {
			return &e.Sources[0], true
		}
		if t.Unknown {
			continue
		}
		for k := range e.Sources {
			src := &e.Sources[k]
			if src.Unknown {
				continue
			}
			inDir := cmdfacts.Literal(strings.TrimRight(t.Value, `/\`) + "/" + baseName(src.Value))
			if same(inDir, dir) {
				return src, true
			}
		}
	}
	return nil, false
}

// plantedIn reads the regular file w names (bounded) and reports the
// guard setting its text sets, if any; missing: the file does not exist.
func (j *judge) plantedIn(w ir.Word, base paths.Path) (name string, ok, missing bool) {
	if j.p.EvalSymlinks == nil {
		return "", false, false // no real file system: nothing to read
	}
	x, ok := j.sourcePath(w, base)
	if !ok {
		return "", false, false
	}
	j.steps.Spend(steps.FS(x.Norm))
	fi, err := os.Stat(x.Norm)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false, os.IsNotExist(err)
	}
	fh, err := os.Open(x.Norm)
	if err != nil {
		return "", false, false
	}
	defer fh.Close()
	b, _ := io.ReadAll(io.LimitReader(fh, maxCopied))
	j.steps.Spend(len(b) / steps.PathChunk)
	name, ok = config.Planted(string(b))
	return name, ok, false
}

// wordsText is what command c can write: its words after the name, one
// by one and joined by spaces (echo ZCODE_FENCE_X = 1 prints them
// joined), and its stdin text.
func wordsText(c *ir.Command) []string {
	var out []string
	var all []string
	for k, w := range c.Args {
		if k == 0 || w.Unknown && w.Value == "" {
			continue
		}
		out = append(out, w.Value)
		all = append(all, w.Value)
		if (c.Name == "printf" || c.Name == "echo") && strings.Contains(w.Value, `\n`) {
			out = append(out, strings.ReplaceAll(w.Value, `\n`, "\n")) // the escape they print as a newline
		}
	}
	if len(all) > 1 {
		out = append(out, strings.Join(all, " "))
	}
	if c.Stdin != "" {
		out = append(out, c.Stdin)
	}
	if c.Output != "" {
		out = append(out, c.Output) // printf '%s=%s\n' NAME v: the formatted text
	}
	return out
}

// plantedTrust judges direnv allow / mise trust: the file trusted (the
// operand, or the tool's file in the operand's directory or the
// command's own) is read, bounded, from the real file system.
func (j *judge) plantedTrust(c *ir.Command, et cmdfacts.EnvTrust) {
	p := cmdfacts.ParseArgs(c.Args[1:], syntax("direnv"))
	if len(p.Operands) == 0 {
		return
	}
	sub := p.Operands[0].Value
	if sub != et.Sub && !contains(et.Aliases, sub) {
		return
	}
	if j.p.EvalSymlinks == nil {
		return // no real file system: nothing to read
	}
	base := j.dirOf(c)
	at := base
	if len(p.Operands) > 1 {
		x, ok := j.sourcePath(p.Operands[1], base)
		if !ok {
			return
		}
		at = x
	}
	var files []paths.Path
	if j.isDir(at) {
		for _, f := range et.Files {
			files = append(files, j.p.Join(at, j.p.Clean(f)))
		}
	} else {
		files = []paths.Path{at}
	}
	for _, f := range files {
		j.steps.Spend(steps.FS(f.Norm))
		fh, err := os.Open(f.Norm)
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(io.LimitReader(fh, maxTrusted))
		fh.Close()
		if name, ok := config.Planted(string(b)); ok {
			j.addSetting(commandLabel(c)+" "+sub, f.Norm, name)
			return
		}
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// addSetting records FN-PROTECTED-SETTING for label writing (or
// trusting) the file shown, which sets name.
func (j *judge) addSetting(label, shown, name string) {
	if !j.fresh("setting\x00" + shown + "\x00" + name) {
		return
	}
	tl := core.Chinese
	if j.en {
		tl = core.English
	}
	if shown == "" {
		shown = "?"
	}
	msg := rules.Fill(rules.ProtectedSetting.Template(tl), "label", label, "target", shorten(shown), "what", name)
	j.reasons = append(j.reasons, core.Reason{Layer: Name, Rule: rules.ProtectedSetting.ID, Message: withOrigin(msg, j.origin())})
}

// linksByText reports whether c makes a symbolic link whose text is its
// source as written (ln -s, cp -s; not ln -r), which is then read from
// the link's directory.
func linksByText(c *ir.Command) bool {
	for _, e := range c.Effects {
		if e.Op == ir.EffectLink && e.Symbolic && !e.Relative {
			return true
		}
	}
	return false
}
