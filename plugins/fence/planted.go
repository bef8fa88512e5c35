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
	for k := range c.Redirects {
		if r := c.Redirects[k]; r.IsWrite() && r.Target.Value != "/dev/null" {
			written = &c.Redirects[k].Target
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
