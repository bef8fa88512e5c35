package analysis

import (
	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/oneliner"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

// This file connects the POSIX analysis to the Windows splitters
// (core/shell/winshell) and the interpreter one-liner extraction
// (core/cmdfacts.InlineScripts, core/shell/oneliner).

// foreign analyses PowerShell or cmd.exe text with the Windows splitters:
// every segment becomes a Command of that dialect, run through the same
// wrapper and nesting logic as bash commands (so cmd /c inside PowerShell,
// or bash -c inside cmd, is followed).
func (a *analyzer) foreign(c ctx, st *state, text string) {
	segs, truncated := winshell.Split(c.dialect, text, a.winLookup(st))
	if truncated {
		a.out.Truncated = true
	}
	base := len(a.out.Commands)     // the first command made from text
	cmdOf := make([]int, len(segs)) // segment -> command index (or its parent's)
	made := make([]bool, len(segs)) // the segment produced a command
	viaOf := make([][]ir.Via, len(segs))
	for i := range segs {
		seg := &segs[i]
		parent, via := c.parent, c.via
		if seg.Parent >= 0 && seg.Parent < i {
			parent, via = cmdOf[seg.Parent], viaOf[seg.Parent]
		}
		if seg.Via != "" {
			via = appendVia(via, seg.Via)
		}
		cmdOf[i], viaOf[i] = parent, via
		if a.full() {
			break
		}
		// Depth follows the block nesting, kept within one level of the
		// command the block belongs to.
		depth := c.depth + seg.Depth
		if parent >= 0 && parent != c.parent && parent < len(a.out.Commands) {
			pd := a.out.Commands[parent].Depth
			depth = max(pd, min(depth, pd+1))
		} else {
			depth = c.depth
		}
		if depth > ir.MaxDepth {
			a.out.Truncated = true
			continue
		}
		sc := simple{src: text}
		for _, r := range seg.Redirects {
			r.Target = a.fillWord(r.Target)
			sc.redirs = append(sc.redirs, r)
		}
		if seg.Expression {
			// A value, not a command: only a static method call and
			// redirects act.
			if call, ok := winshell.StaticCall(segs, i); ok {
				for _, w := range call {
					sc.words = append(sc.words, a.xFromWord(w))
				}
			} else if len(sc.redirs) == 0 {
				continue
			}
		} else {
			for _, w := range seg.Words {
				sc.words = append(sc.words, a.xFromWord(w))
			}
		}
		n := c
		n.depth, n.parent, n.via = depth, parent, via
		n.bg = c.bg || seg.Sep == "&" && c.dialect == ir.PowerShell
		if idx := a.run(n, st, &sc); idx >= 0 {
			cmdOf[i], made[i] = idx, true
		}
	}
	for i := range segs {
		f := segs[i].FeedsInto
		if f <= i || f >= len(segs) || !made[i] || !made[f] {
			continue
		}
		if cm := &a.out.Commands[cmdOf[i]]; cm.FeedsInto == -1 {
			cm.FeedsInto, cm.Feed = cmdOf[f], ir.FeedPipe
		}
	}
	// What a ( ), $( ), @( ) (or run-in-place { }) block outputs is the
	// value of the word holding it: its last commands feed the command
	// holding the block (iex (irm URL)), as $(...) does in bash.
	for i := range segs {
		seg := &segs[i]
		if !made[i] || seg.Parent < 0 || seg.FeedsInto >= 0 || !winshell.ValueBlock(segs, seg) {
			continue
		}
		holder := cmdOf[seg.Parent]
		if holder < base || holder >= cmdOf[i] {
			continue
		}
		if cm := &a.out.Commands[cmdOf[i]]; cm.FeedsInto == -1 {
			cm.FeedsInto, cm.Feed = holder, ir.FeedSubst
		}
	}
}

// winLookup gives the Windows splitters the environment: $HOME from
// Options.Home, $PWD from the cd chain, others from Options.Lookup; a hole
// name resolves to its own token, turned back into an unknown part later.
func (a *analyzer) winLookup(st *state) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if _, ok := a.holes[name]; ok {
			return "${" + name + "}", true
		}
		switch name {
		case "HOME":
			if h := a.home(); h != "" {
				return h, true
			}
		case "PWD":
			if d, ok := a.resolveChain(st.cd); ok {
				return d, true
			}
			return "", false
		}
		if a.opts.Lookup != nil {
			return a.opts.Lookup(name)
		}
		return "", false
	}
}

// xFromWord converts a splitter's Word, turning hole tokens back into
// unknown parts.
func (a *analyzer) xFromWord(w ir.Word) xword {
	x := wordToX(w)
	x.raw = a.fillRaw(x.raw)
	if len(a.holes) == 0 {
		return x
	}
	var parts []part
	for _, p := range x.parts {
		if p.unknown {
			parts = appendPart(parts, part{text: a.fillRaw(p.text), unknown: true})
			continue
		}
		for _, q := range a.splitHoles(p.text) {
			parts = appendPart(parts, q)
		}
	}
	x.parts = parts
	return x
}

func (a *analyzer) fillWord(w ir.Word) ir.Word {
	if len(a.holes) == 0 {
		return w
	}
	return a.xFromWord(w).word()
}

// inline analyses the shell commands an interpreter one-liner runs
// (python -c "os.system('rm -rf /')", node -e "execSync(...)", awk
// 'BEGIN{system(...)}'): cmdfacts.InlineScripts and oneliner.Effects find
// them; each runs in a child shell one level deeper, Via naming the
// one-liner and the call ("python3 -c os.system"). On Windows dialects the
// child shell is cmd.exe.
func (a *analyzer) inline(c ctx, st *state, ex exec) {
	if cmdfacts.InterpreterLang(ex.name) == "" {
		return
	}
	cmd := a.out.Commands[ex.idx] // a copy: Commands grows below
	d := ir.Bash
	if c.dialect != ir.Bash {
		d = ir.Cmd
	}
	for _, in := range cmdfacts.InlineScripts(&cmd) {
		for _, e := range oneliner.Effects(in.Lang, in.Code) {
			if e.Op == "exec" && e.Command != "" {
				a.nestedText(c, st.child(a, ex.env), e.Command, d, in.Via+" "+e.API, ex.idx)
			}
		}
	}
}
