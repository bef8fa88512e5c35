package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docCommand is the expected outcome of one documented command line.
// Doc is the line as the documentation writes it (README: without its
// comment; --help: the usage form before its description). Args are the
// arguments to run; for a README line they may be left out (the line's
// own words are run); a --help line with placeholders names them.
// Stderr, when set, must appear on stderr.
type docCommand struct {
	Doc    string   `json:"doc"`
	Args   []string `json:"args"`
	Exit   int      `json:"exit"`
	Stderr string   `json:"stderr"`
}

// TestDocumentedCommands runs every zcode-fence command line that README.md
// and --help show through the built binary and checks its exit code
// (testdata/doc-commands.json): a documented command that is not in the
// table, or a table entry no document shows any more, fails, so the docs
// and the table move together. The README's quick start (a payload piped
// into the hook) is run too, with its payload on stdin.
func TestDocumentedCommands(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "doc-commands.json"))
	if err != nil {
		t.Fatal(err)
	}
	var table []docCommand
	if err := json.Unmarshal(data, &table); err != nil {
		t.Fatalf("testdata/doc-commands.json: %v", err)
	}
	byDoc := map[string]docCommand{}
	for _, c := range table {
		byDoc[c.Doc] = c
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines, quickStart := readmeCommands(string(readme))
	lines = append(lines, usageCommands(fmt.Sprintf(usage, "v"))...)
	if len(quickStart) == 0 {
		t.Error("README.md shows no payload piped into go run ./cmd/zcode-fence")
	}

	s := newScratch(t)
	// An empty home: doctor's answer must not depend on this machine's
	// installs.
	home := filepath.Join(s.root, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(s.data, 0o700); err != nil { // as the hook creates it
		t.Fatal(err)
	}
	env := s.env("default", false, "ZCODE_FENCE_LANGUAGE=en", "HOME="+home)
	documented := map[string]bool{}
	var runs []docCommand
	for _, line := range lines {
		if documented[line] {
			continue
		}
		documented[line] = true
		c, ok := byDoc[line]
		if !ok {
			t.Errorf("documented command %q is not in testdata/doc-commands.json: add it with its exit code", line)
			continue
		}
		if c.Args == nil {
			words, err := shellWords(strings.TrimPrefix(line, "zcode-fence"))
			if err != nil {
				t.Errorf("%q: %v", line, err)
				continue
			}
			c.Args = words
		}
		runs = append(runs, c)
	}
	for _, c := range table {
		if !documented[c.Doc] {
			t.Errorf("testdata/doc-commands.json has %q, which no document shows any more", c.Doc)
		}
	}
	results := make([]runResult, len(runs))
	parallelDo(len(runs), func(i int) { results[i] = runExe(t, binary, env, s.project, nil, runs[i].Args...) })
	for i, c := range runs {
		r := results[i]
		if r.code != c.Exit {
			t.Errorf("%q (run as %q): exit %d, want %d\nstderr: %s", c.Doc, c.Args, r.code, c.Exit, firstLines(r.stderr, 3))
		}
		if c.Stderr != "" && !strings.Contains(string(r.stderr), c.Stderr) {
			t.Errorf("%q: stderr lacks %q: %s", c.Doc, c.Stderr, firstLines(r.stderr, 3))
		}
	}
	for _, payload := range quickStart {
		r := runExe(t, binary, env, s.project, []byte(payload))
		if got, detail := checkAnswer(r); got != "ask" {
			t.Errorf("README quick start %s: got %q (%s), want the ask line", payload, got, detail)
		}
	}
	t.Logf("%d documented command lines run, %d quick-start payloads", len(runs), len(quickStart))
}

// readmeCommands returns the zcode-fence command lines of the README's sh
// blocks (comments cut) and the payloads its quick start pipes into
// `go run ./cmd/zcode-fence`.
func readmeCommands(readme string) (lines, payloads []string) {
	pipe := regexp.MustCompile(`^echo '(.*)' \| go run \./cmd/zcode-fence$`)
	inBlock := false
	for _, line := range strings.Split(readme, "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			inBlock = true
			continue
		case strings.HasPrefix(line, "```"):
			inBlock = false
			continue
		case !inBlock:
			continue
		}
		line = strings.TrimSpace(cutComment(line))
		if m := pipe.FindStringSubmatch(line); m != nil {
			payloads = append(payloads, m[1])
		}
		if line == "zcode-fence" || strings.HasPrefix(line, "zcode-fence ") {
			lines = append(lines, line)
		}
	}
	return lines, payloads
}

// usageCommands returns the command forms of the --help text: each line
// of the Usage section that starts with "zcode-fence", up to the two or
// more spaces before its description.
func usageCommands(text string) []string {
	_, body, _ := strings.Cut(text, "\nUsage:\n")
	body, _, _ = strings.Cut(body, "\n\n")
	gap := regexp.MustCompile(`\s{2,}`)
	var out []string
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "zcode-fence") {
			continue
		}
		out = append(out, gap.Split(line, 2)[0])
	}
	return out
}

// cutComment drops a shell comment: a # at the start or after a blank,
// outside quotes.
func cutComment(line string) string {
	var quote rune
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return line[:i]
		}
	}
	return line
}

// shellWords splits a documented command line into arguments: blanks
// separate words, single quotes keep everything, double quotes keep all
// but a backslash before " or \. No expansion of any kind: the words are
// passed to the binary as they are.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur bytes.Buffer
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words, inWord = append(words, cur.String()), false
				cur.Reset()
			}
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("unclosed ' in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unclosed \" in %q", s)
			}
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
