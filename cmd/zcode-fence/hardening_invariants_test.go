package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// invariantCorpora are the test data files, relative to this package,
// that hold commands or file-tool paths. Every command in them is run
// through the binary by TestInvariantsEveryCorpus. A glob that matches
// nothing is reported (the files may move), never silently passed.
// testdata/bypass-corpus.json is not listed: TestBypassCorpus checks the
// same invariants on every one of its cases, in both isolation modes.
var invariantCorpora = []string{
	"testdata/seed-cases.json",
	"../../plugins/danger/testdata/*.json",
	"../../plugins/danger/testdata/*.txt",
	"../../plugins/fence/testdata/*.json",
	"../../e2e/testdata/*.json",
	"../../core/shell/testdata/*.json",
	"../../core/shell/testdata/cases.txt",
	"../../examples/layers/*/testdata/*.json",
}

// corpusCall is one call found in a corpus file.
type corpusCall struct {
	tool, text string // text: the command, or the path of a file tool
	file       bool
}

// TestInvariantsEveryCorpus runs every distinct command and file-tool path
// of every corpus in the repository through the built binary and checks
// the hook protocol only (verdicts are each corpus's own test): exit code
// 0, nothing on stderr, and stdout either zero bytes or exactly the
// three-key ask line with a [zcode-fence: ...] reason. It also checks that
// every decision-log line written meanwhile is one valid JSON record.
func TestInvariantsEveryCorpus(t *testing.T) {
	s := newScratch(t)
	if err := s.addFenceFixtures(); err != nil {
		t.Fatal(err)
	}
	var calls []corpusCall
	seen := map[corpusCall]bool{}
	perFile := map[string]int{}
	for _, pattern := range invariantCorpora {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Logf("no corpus file matches %s", pattern)
		}
		for _, f := range files {
			found, err := corpusCalls(f)
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			for _, c := range found {
				c.text = s.renderCorpus(c.text)
				if !seen[c] {
					seen[c] = true
					calls = append(calls, c)
					perFile[f]++
				}
			}
		}
	}
	for _, f := range sortedKeys(perFile) {
		t.Logf("%5d distinct calls from %s", perFile[f], f)
	}
	if len(calls) < 500 {
		t.Errorf("only %d distinct calls found in the corpora: a corpus moved or its format changed", len(calls))
	}
	payloads := make([][]byte, len(calls))
	for i, c := range calls {
		payloads[i] = hookPayload(c.tool, c.text, s.project, "invariants", c.file)
	}
	env := s.env("default", false, "ZCODE_FENCE_LAYER_ISOLATION=inprocess", "TMPDIR=/tmp")
	results, errs := runHooks(env, s.project, payloads)
	asks, broken := 0, 0
	for i, c := range calls {
		if errs[i] != nil {
			broken++
			t.Errorf("[%s] %s: %v", c.tool, oneLine(c.text), errs[i])
			continue
		}
		got, detail := checkAnswer(results[i])
		switch got {
		case "":
			broken++
			t.Errorf("[%s] %s: %s", c.tool, oneLine(c.text), detail)
		case "ask":
			asks++
		}
	}
	recs := logRecords(t, s.data) // fails on any bad line
	t.Logf("%d distinct calls: %d asked, %d silent, %d broke the protocol; %d log records", len(calls), asks, len(calls)-asks-broken, broken, len(recs))
}

// renderCorpus fills the placeholders the corpora use.
func (s *scratch) renderCorpus(v string) string {
	return strings.NewReplacer("{ROOT}", s.root, "{{HOME}}", s.home, "{{PROJECT}}", s.project, "{HOME}", s.home).Replace(s.render(v))
}

// corpusCalls extracts the calls of one corpus file: JSON files are walked
// for command fields ("cmd", "command", "src", "in", with a sibling "tool"
// or "dialect") and file-tool paths ("paths", "file_path" with a file
// tool); everyday.txt holds one command a line (\n for a line break);
// core/shell's cases.txt holds "=== name [options]" blocks whose input
// ends at "---".
func corpusCalls(path string) ([]corpusCall, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	switch {
	case strings.HasSuffix(path, ".json"):
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, err
		}
		var out []corpusCall
		walkJSON(v, &out)
		return out, nil
	case filepath.Base(path) == "cases.txt":
		return shellCases(data), nil
	default:
		var out []corpusCall
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
				continue
			}
			out = append(out, corpusCall{tool: "Bash", text: strings.ReplaceAll(line, `\n`, "\n")})
		}
		return out, sc.Err()
	}
}

// walkJSON collects calls from any JSON shape.
func walkJSON(v any, out *[]corpusCall) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			walkJSON(e, out)
		}
	case map[string]any:
		tool, _ := x["tool"].(string)
		if d, _ := x["dialect"].(string); strings.EqualFold(d, "powershell") && tool == "" {
			tool = "PowerShell"
		}
		file := isFileToolName(tool)
		shellTool := tool
		if file || shellTool == "" {
			shellTool = "Bash"
		}
		for _, k := range []string{"cmd", "command", "src", "in"} {
			if s, ok := x[k].(string); ok && s != "" && !file {
				*out = append(*out, corpusCall{tool: shellTool, text: s})
			}
		}
		if file {
			for _, k := range []string{"paths", "file_path", "path"} {
				switch p := x[k].(type) {
				case string:
					*out = append(*out, corpusCall{tool: tool, text: p, file: true})
				case []any:
					for _, e := range p {
						if s, ok := e.(string); ok && s != "" {
							*out = append(*out, corpusCall{tool: tool, text: s, file: true})
						}
					}
				}
			}
		}
		// A step {"tool" or "name": TOOL, "input": {...}} passes its tool
		// down to the tool input it holds.
		if in, ok := x["input"].(map[string]any); ok && in["tool"] == nil {
			named := tool
			if n, _ := x["name"].(string); named == "" && (isFileToolName(n) || n == "Bash" || n == "PowerShell") {
				named = n
			}
			if named != "" {
				withTool := map[string]any{"tool": named}
				for k, v := range in {
					withTool[k] = v
				}
				x = mapWithout(x, "input")
				walkJSON(withTool, out)
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			walkJSON(x[k], out)
		}
	}
}

// mapWithout is m without key (m itself is not changed).
func mapWithout(m map[string]any, key string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

func isFileToolName(tool string) bool {
	switch tool {
	case "Write", "Edit", "MultiEdit", "NotebookEdit", "ApplyPatch":
		return true
	}
	return false
}

// shellCases reads core/shell's cases.txt format.
func shellCases(data []byte) []corpusCall {
	var out []corpusCall
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		head, ok := strings.CutPrefix(lines[i], "=== ")
		if !ok {
			continue
		}
		tool := "Bash"
		if strings.Contains(head, "dialect=powershell") {
			tool = "PowerShell"
		}
		var input []string
		for i++; i < len(lines) && lines[i] != "---"; i++ {
			input = append(input, lines[i])
		}
		if src := strings.Join(input, "\n"); strings.TrimSpace(src) != "" {
			out = append(out, corpusCall{tool: tool, text: src})
		}
	}
	return out
}
