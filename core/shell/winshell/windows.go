package winshell

import (
	"strings"
	"unicode/utf8"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// The files of this package hold the small splitters for the two Windows
// dialects (powershell.go, cmdexe.go) and what a layer needs to classify a
// Windows command (classify.go): PowerShell cmdlet aliases and parameter binding, cmd.exe switches,
// and the payload of powershell.exe / cmd.exe command lines.
//
// The splitters are hand-written scanners, not parsers: they never fail and
// never panic, whatever the input; they do linear work per nesting level and
// stop at maxSource bytes, maxSegments segments and maxNesting
// levels (reporting truncation).

// Limits of the Windows splitters.
const (
	// maxSource is the most source text scanned; the rest is dropped and
	// the split is reported as truncated.
	maxSource = 256 << 10
	// maxSegments bounds the segments one split returns.
	maxSegments = 4096
	// maxNesting bounds block nesting ({ }, ( ), $( )); deeper blocks are
	// skipped as opaque text and the split is reported as truncated.
	maxNesting = 48
)

// Segment is one statement found by a Windows splitter: a command with its
// arguments, or (PowerShell) an expression statement.
//
// Nested code — PowerShell script blocks and subexpressions, cmd.exe
// parenthesised blocks and if/for bodies, the string given to
// Invoke-Expression — is returned as further segments after the segment that
// contains it, with Depth one higher and Parent pointing at it. In the
// containing segment the whole block is one Word whose Value is its source
// text, with Unknown set.
type Segment struct {
	// Words are the arguments, Words[0] being the command word (PowerShell:
	// the & or . call operator is dropped, so `& "C:\x.exe" -y` gives
	// [C:\x.exe -y]). Value has quoting and escapes removed and known
	// variables expanded; Raw is the source text. An unquoted PowerShell
	// comma (array separator) is a word of its own, Value ",".
	Words []ir.Word
	// Redirects are the segment's redirections in source order. PowerShell
	// `*>` and `*>>` are given as "&>" and "&>>"; `2>&1` as Op ">&", Fd "2",
	// Target "1". A PowerShell `> $null` target has Value "".
	Redirects []ir.Redirect
	// Sep is the operator that ended the segment: ";", "\n", "|", "&&",
	// "||", "&" (PowerShell: background job; cmd.exe: sequence), or "" at
	// the end of the text or of a block.
	Sep string
	// Depth is 0 at top level, +1 per enclosing block or Invoke-Expression.
	Depth int
	// Parent is the index (in the returned slice) of the segment holding the
	// block this one is in, or -1 at top level.
	Parent int
	// Via names the block kind that leads here: "{}", "()", "$()", "@()",
	// "@{}", "iex" (PowerShell); "()", "if", "else", "for", "for-in"
	// (cmd.exe, for-in being the command of `for /f ... in ('cmd')`); ""
	// at top level.
	Via string
	// FeedsInto is the index of the segment this one pipes into (Sep "|"),
	// or -1.
	FeedsInto int
	// Expression is set for a PowerShell statement that starts with a
	// value (a quoted string, number, variable, type literal, group, script
	// block, or -operator) instead of a command name: it runs no command of
	// its own and Words[0] is not a command name. Literal values such an
	// expression pipes into an item cmdlet (`'C:\x' | Remove-Item`) are also
	// appended to that cmdlet's Words, where PowerShell binds them (-Path).
	Expression bool
}

// segOutput collects the segments of one split, shared by nested scanners.
type segOutput struct {
	segs      []Segment
	truncated bool
	stop      bool
}

func (o *segOutput) reserve(depth, parent int, via string) int {
	if len(o.segs) >= maxSegments {
		o.truncated = true
		o.stop = true
	}
	o.segs = append(o.segs, Segment{Depth: depth, Parent: parent, Via: via, FeedsInto: -1})
	return len(o.segs) - 1
}

// finish stores the parsed parts of segment idx and links the pipe from
// prev. It drops an empty segment and returns -1 for it.
func (o *segOutput) finish(idx, prev int, words []ir.Word, redirs []ir.Redirect, sep string) int {
	if len(words) == 0 && len(redirs) == 0 && idx == len(o.segs)-1 {
		o.segs = o.segs[:idx]
		return -1
	}
	s := &o.segs[idx]
	s.Words, s.Redirects, s.Sep = words, redirs, sep
	if prev >= 0 && o.segs[prev].Sep == "|" {
		o.segs[prev].FeedsInto = idx
	}
	return idx
}

// splitPowerShell splits PowerShell source into segments, resolving no
// variables except $null, $true and $false. Never fails, never panics.
func splitPowerShell(src string) []Segment {
	segs, _ := Split(ir.PowerShell, src, nil)
	return segs
}

// splitCmd splits cmd.exe source into segments, resolving no %VAR%.
// Never fails, never panics.
func splitCmd(src string) []Segment {
	segs, _ := Split(ir.Cmd, src, nil)
	return segs
}

// Split splits src as PowerShell (d == PowerShell) or cmd.exe (any
// other d). lookup resolves environment variables ($env:NAME, %NAME%,
// !NAME!) and the PowerShell automatic variables $HOME (tried as "HOME",
// then "USERPROFILE") and $PWD ("PWD"); it is called with the name as
// written and, if that fails, upper-cased, since Windows names are
// case-insensitive. A nil lookup knows nothing. Variables that cannot be
// resolved make their word Unknown. PowerShell assignments of a literal
// (`$d = 'C:\'`) made earlier in the same text are also used.
//
// truncated reports that a limit was hit and part of src was not analysed.
// Cost: linear in len(src) per Invoke-Expression level (at most MaxDepth).
func Split(d ir.Dialect, src string, lookup func(string) (string, bool)) (segs []Segment, truncated bool) {
	out := &segOutput{}
	if len(src) > maxSource {
		src = src[:maxSource]
		out.truncated = true
	}
	if d == ir.PowerShell {
		p := &psSplitter{src: src, lookup: lookup, vars: map[string]*string{}, out: out}
		p.block(0, -1, "", 0)
	} else {
		s := &cmdSplitter{src: src, lookup: lookup, out: out}
		s.block(0, -1, "", false)
	}
	return out.segs, out.truncated
}

// wordBuilder accumulates one word's value.
type wordBuilder struct {
	val     strings.Builder
	unknown bool
	prefix  string
	globs   string // wildcard characters seen in the known text
}

func (w *wordBuilder) lit(s string) {
	w.val.WriteString(s)
	for _, g := range "*?[" {
		if strings.ContainsRune(s, g) && !strings.ContainsRune(w.globs, g) {
			w.globs += string(g)
		}
	}
}

// dyn appends text whose value is unknown.
func (w *wordBuilder) dyn(raw string) {
	if !w.unknown {
		w.unknown = true
		w.prefix = w.val.String()
	}
	w.val.WriteString(raw)
}

func (w *wordBuilder) word(raw, globChars string) ir.Word {
	v := w.val.String()
	kp := v
	if w.unknown {
		kp = w.prefix
	}
	return ir.Word{Value: v, Raw: raw, Unknown: w.unknown, KnownPrefix: kp, Glob: strings.ContainsAny(w.globs, globChars)}
}

func groupWord(raw string) ir.Word {
	return ir.Word{Value: raw, Raw: raw, Unknown: true}
}

func literalWord(s string) ir.Word {
	return ir.Word{Value: s, Raw: s, KnownPrefix: s}
}

// lookupEnv tries each name as written, then upper-cased.
func lookupEnv(lookup func(string) (string, bool), names ...string) (string, bool) {
	if lookup == nil {
		return "", false
	}
	for _, n := range names {
		if v, ok := lookup(n); ok {
			return v, true
		}
		if up := strings.ToUpper(n); up != n {
			if v, ok := lookup(up); ok {
				return v, true
			}
		}
	}
	return "", false
}

// runeAt returns the text of the (possibly invalid) UTF-8 character at i.
func runeAt(s string, i int) string {
	_, n := utf8.DecodeRuneInString(s[i:])
	return s[i : i+n]
}
