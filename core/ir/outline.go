package ir

import (
	"strconv"
	"strings"
)

// ArgValues returns the values of the command's arguments, Args[1:].
func (c *Command) ArgValues() []string {
	if len(c.Args) < 2 {
		return nil
	}
	out := make([]string, len(c.Args)-1)
	for i, w := range c.Args[1:] {
		out[i] = w.Value
	}
	return out
}

// HasCommand reports whether the command has a command word. A statement
// made only of assignments or redirects (x=1, > file) has none.
func (c *Command) HasCommand() bool { return len(c.Args) > 0 }

// Feeders returns the indexes of the commands whose output reaches command
// i (FeedsInto == i), in order: the producers of a pipe, the commands of a
// $(...) in its words, the producer of an xargs input.
func (s *Script) Feeders(i int) []int {
	var out []int
	for j := range s.Commands {
		if s.Commands[j].FeedsInto == i {
			out = append(out, j)
		}
	}
	return out
}

// Outline renders the analysis one line per command, for humans
// (zcode-fence explain) and tests:
//
//	#1 d1 ps: [sudo > bash -c] X=1 rm -rf /home/u >log cd=/tmp ^#0 ->#2(pipe) &
//
// that is: index, depth, dialect tag (ps: or cmd:, none for bash), Via,
// assignments and argv, NameIfEmpty when the name is unknown, redirects
// (heredocs with their body size), the cd
// chain, ^ the parent, -> the command the output feeds and how, & for
// background. Words are quoted as a shell would need; unknown words are
// shown as <?text?>; a command without a command word shows "-". Final
// lines starting with "!" report a parse error and truncation.
func (s *Script) Outline() string {
	var sb strings.Builder
	for i := range s.Commands {
		c := &s.Commands[i]
		sb.WriteString("#")
		sb.WriteString(strconv.Itoa(i))
		sb.WriteString(" d")
		sb.WriteString(strconv.Itoa(c.Depth))
		if c.Dialect != Bash {
			sb.WriteString(" " + dialectTag(c.Dialect))
		}
		if len(c.Via) > 0 {
			sb.WriteString(" [")
			sb.WriteString(strings.Join(ViaTexts(c.Via), " > "))
			sb.WriteString("]")
		}
		for _, as := range c.Assigns {
			sb.WriteString(" " + as.Name + "=" + renderWord(as.Value))
		}
		for _, w := range c.Args {
			sb.WriteString(" " + renderWord(w))
		}
		if len(c.Assigns) == 0 && len(c.Args) == 0 {
			sb.WriteString(" -")
		}
		if c.Name == "" && c.NameIfEmpty != "" {
			sb.WriteString(" name-if-empty=" + c.NameIfEmpty)
		}
		for _, r := range c.Redirects {
			sep := ""
			if r.Target.Unknown {
				sep = " " // keep "< <?...?>" readable
			}
			sb.WriteString(" " + r.Fd + r.Op + sep + renderWord(r.Target))
			if r.Body != "" {
				sb.WriteString("[" + strconv.Itoa(len(r.Body)) + "B]")
			}
		}
		if len(c.Cd) > 0 {
			parts := make([]string, len(c.Cd))
			for k, w := range c.Cd {
				parts[k] = renderWord(w)
			}
			sb.WriteString(" cd=" + strings.Join(parts, ","))
		}
		if c.Parent >= 0 {
			sb.WriteString(" ^#" + strconv.Itoa(c.Parent))
		}
		if c.FeedsInto >= 0 {
			sb.WriteString(" ->#" + strconv.Itoa(c.FeedsInto) + "(" + c.Feed.String() + ")")
		}
		if c.Background {
			sb.WriteString(" &")
		}
		sb.WriteByte('\n')
	}
	if s.ParseError != "" {
		sb.WriteString("! parse error: " + s.ParseError + "\n")
	}
	if s.Truncated {
		sb.WriteString("! truncated\n")
	}
	return sb.String()
}

func dialectTag(d Dialect) string {
	switch d {
	case PowerShell:
		return "ps:"
	case Cmd:
		return "cmd:"
	}
	return ""
}

// renderWord shows a word's value, quoted when a shell would need quotes
// (or when it holds glob characters it does not glob), and wrapped in
// <?...?> when unknown.
func renderWord(w Word) string {
	if w.Unknown {
		v := w.Value
		if strings.ContainsFunc(v, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			v = strings.Trim(strconv.Quote(v), `"`)
		}
		return "<?" + v + "?>"
	}
	return quoteValue(w.Value, w.Glob)
}

func quoteValue(v string, glob bool) string {
	if v == "" {
		return "''"
	}
	special := " \t\n'\"\\$`;&|<>()#!{}"
	if !glob {
		special += "*?["
	}
	if !strings.ContainsAny(v, special) && strconv.CanBackquote(v) {
		return v
	}
	if strconv.CanBackquote(strings.ReplaceAll(v, "\n", "")) && !strings.ContainsAny(v, "\r") {
		return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
	}
	return strconv.Quote(v)
}
