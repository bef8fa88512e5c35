package analysis

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

func (a *analyzer) startProcessCmd(c ctx, st *state, ex exec) {
	switch c.dialect {
	case ir.PowerShell:
		a.psStartProcess(c, st, ex)
	case ir.Cmd:
		a.cmdStart(c, st, ex)
	}
}

func (a *analyzer) psStartProcess(c ctx, st *state, ex exec) {
	args := make([]ir.Word, len(ex.words))
	for i, w := range ex.words {
		args[i] = w.word()
	}
	pc := winshell.ParsePowerShellCommand(args)
	if pc.Cmdlet != "Start-Process" {
		return
	}
	files := pc.Named["filepath"]
	if len(files) != 1 || files[0].Unknown {
		return
	}
	file := a.xFromWord(files[0])
	var list []xword
	for _, w := range pc.Named["argumentlist"] {
		list = append(list, a.xFromWord(w))
	}
	line, _ := a.joinText(list, false)
	var wd *ir.Word
	if d := pc.Named["workingdirectory"]; len(d) == 1 {
		wd = &d[0]
	}
	a.runWindowsProcess(c, st, ex.idx, file, line, wd, !pc.Switches["wait"], "Start-Process")
}

// cmdStart: start ["title"] [/d DIR] [/b /min /wait /high ... /node N
// /affinity MASK] COMMAND [ARGS].
func (a *analyzer) cmdStart(c ctx, st *state, ex exec) {
	ws := ex.words
	i := 1
	var wd *ir.Word
	bg := true
loop:
	for i < len(ws) {
		w := ws[i]
		v, ok := w.lit()
		if !ok {
			break
		}
		lv := strings.ToLower(v)
		switch {
		case i == 1 && strings.HasPrefix(w.raw, `"`):
			i++ // the window title
		case lv == "/d" && i+1 < len(ws):
			d := ws[i+1].word()
			wd = &d
			i += 2
		case strings.HasPrefix(lv, "/d") && len(lv) > 2:
			d := knownWord(v[2:], v[2:]).word()
			wd = &d
			i++
		case (lv == "/node" || lv == "/affinity") && i+1 < len(ws):
			i += 2
		case lv == "/wait":
			bg = false
			i++
		case strings.HasPrefix(lv, "/") && len(lv) > 1 && !strings.ContainsAny(lv[1:], `/\`):
			i++
		default:
			break loop
		}
	}
	if i >= len(ws) {
		return
	}
	line, _ := a.joinText(ws[i+1:], true)
	a.runWindowsProcess(c, st, ex.idx, ws[i], line, wd, bg, "start")
}

// runWindowsProcess runs file with the command line line (holes for the
// unknown parts) in a new Windows process under the command at idx.
func (a *analyzer) runWindowsProcess(c ctx, st *state, idx int, file xword, line string, wd *ir.Word, bg bool, via string) {
	if v, ok := file.lit(); ok && strings.Contains(v, "://") {
		return
	}
	words := []xword{file}
	switch {
	case strings.TrimSpace(line) == "":
	case nameOf(file) == "cmd":
		words = append(words, a.holeWord(line))
	default:
		for _, arg := range winshell.SplitWindowsCommandLine(line) {
			words = append(words, a.holeWord(arg))
		}
	}
	if c.depth+1 > ir.MaxDepth {
		a.out.Truncated = true
		return
	}
	child := st.process()
	if wd != nil {
		child.chdir(*wd, ir.Cmd)
	}
	n := ctx{depth: c.depth + 1, via: appendVia(c.via, via), parent: idx, dialect: ir.Cmd, src: c.src, bg: c.bg || bg, file: c.file, line: c.line}
	a.run(n, child, &simple{words: words})
}

// holeWord turns text with hole tokens into a word with unknown parts.
func (a *analyzer) holeWord(s string) xword {
	var b fieldBuilder
	a.addText(&b, s)
	return b.single(a.fillRaw(s))
}

// SplitWindowsCommandLine splits a Windows command line into arguments the
// way the C runtime and CommandLineToArgvW do: blanks separate arguments
// outside double quotes; a double quote toggles quoting and is removed
// ("" inside quotes is a literal quote); 2n backslashes before a quote
// give n backslashes, 2n+1 give n and a literal quote; other backslashes
// are literal. Cost: linear in line.
