package hookio

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

type payloadCase struct {
	Name        string          `json:"name"`
	Stdin       json.RawMessage `json:"stdin"`
	Raw         *string         `json:"raw"`
	Tool        string          `json:"tool"`
	Kind        string          `json:"kind"`
	Command     string          `json:"command"`
	Paths       []string        `json:"paths"`
	Session     string          `json:"session"`
	Cwd         string          `json:"cwd"`
	Error       bool            `json:"error"`
	DecodeError bool            `json:"decodeError"`
}

func TestPayloads(t *testing.T) {
	data, err := os.ReadFile("testdata/payloads.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []payloadCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			in := []byte(tc.Stdin)
			if tc.Raw != nil {
				in = []byte(*tc.Raw)
			}
			p, err := Decode(in)
			if tc.DecodeError {
				if err == nil {
					t.Fatalf("Decode succeeded: %+v", p)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tool, kind := NormaliseTool(p.ToolName)
			if tool != tc.Tool || kind.String() != tc.Kind {
				t.Fatalf("tool = %q/%s, want %q/%s", tool, kind, tc.Tool, tc.Kind)
			}
			args, err := ParseToolInput(tool, kind, p.ToolInput)
			if tc.Error {
				if err == nil {
					t.Fatal("ParseToolInput succeeded")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if args.Command != tc.Command {
				t.Errorf("command = %q, want %q", args.Command, tc.Command)
			}
			if strings.Join(args.Paths, "|") != strings.Join(tc.Paths, "|") {
				t.Errorf("paths = %q, want %q", args.Paths, tc.Paths)
			}
			if p.SessionID != tc.Session || p.Cwd != tc.Cwd {
				t.Errorf("session/cwd = %q/%q, want %q/%q", p.SessionID, p.Cwd, tc.Session, tc.Cwd)
			}
		})
	}
}

func TestAskLineExact(t *testing.T) {
	got := string(AskLine(`[zcode-fence: 危险命令] rm -rf / <&> "q" \ 🎉`))
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"[zcode-fence: 危险命令] rm -rf / <&> \"q\" \\ 🎉"}}` + "\n"
	if got != want {
		t.Fatalf("AskLine =\n%s\nwant\n%s", got, want)
	}
}

// neverCloses delivers data and then blocks forever, like a host that keeps
// stdin open.
type neverCloses struct {
	data []byte
	sent bool
}

func (n *neverCloses) Read(b []byte) (int, error) {
	if !n.sent {
		n.sent = true
		return copy(b, n.data), nil
	}
	select {}
}

func TestReadPayloadDoesNotNeedEOF(t *testing.T) {
	r := &neverCloses{data: []byte(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`)}
	p, _, err := ReadPayload(r, 5*time.Second)
	if err != nil || p.ToolName != "Bash" {
		t.Fatalf("p=%+v err=%v", p, err)
	}
}

func TestReadPayloadTimesOut(t *testing.T) {
	r := &neverCloses{data: []byte(`{"tool_name":"Ba`)}
	_, _, err := ReadPayload(r, 50*time.Millisecond)
	if !errors.Is(err, ErrIncomplete) {
		t.Fatalf("err = %v, want ErrIncomplete", err)
	}
}

// TestReadPayloadCountsOnlyWaiting: a host that trickles a payload in
// pieces, pausing longer in all than the wait, is cut off; decoding time
// is not waiting (a busy machine must not turn a complete payload into a
// timeout).
func TestReadPayloadCountsOnlyWaiting(t *testing.T) {
	r := &trickle{parts: []string{`{"tool_name":`, `"Bash","tool_input":`, `{"command":"ls"}}`}, pause: 40 * time.Millisecond}
	if _, _, err := ReadPayload(r, 100*time.Millisecond); !errors.Is(err, ErrIncomplete) {
		t.Fatalf("trickled past the wait: err = %v, want ErrIncomplete", err)
	}
	r = &trickle{parts: []string{`{"tool_name":`, `"Bash","tool_input":`, `{"command":"ls"}}`}, pause: 10 * time.Millisecond}
	if p, _, err := ReadPayload(r, 5*time.Second); err != nil || p.ToolName != "Bash" {
		t.Fatalf("trickled within the wait: p=%+v err=%v", p, err)
	}
}

// trickle returns one part per Read, each after pause.
type trickle struct {
	parts []string
	pause time.Duration
}

func (r *trickle) Read(b []byte) (int, error) {
	time.Sleep(r.pause)
	if len(r.parts) == 0 {
		select {} // never closes
	}
	n := copy(b, r.parts[0])
	r.parts[0] = r.parts[0][n:]
	if r.parts[0] == "" {
		r.parts = r.parts[1:]
	}
	return n, nil
}

func TestReadPayloadKeepsSnippet(t *testing.T) {
	_, raw, err := ReadPayload(strings.NewReader("not-json{{"), time.Second)
	if err == nil || string(raw) != "not-json{{" {
		t.Fatalf("raw=%q err=%v", raw, err)
	}
}

func TestReadPayloadTooLarge(t *testing.T) {
	big := io.MultiReader(strings.NewReader(`{"tool_name":"Write","tool_input":{"content":"`), infinite{}, strings.NewReader(`"}}`))
	_, _, err := ReadPayload(big, 30*time.Second)
	if err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("oversized input: err = %v, want input larger than MaxInput", err)
	}
}

// infinite is an endless run of 'a'. It copies from a block (one memmove
// per Read) rather than setting bytes one by one, which the race detector
// would instrument 64 MiB times.
type infinite struct{}

var aBlock = bytes.Repeat([]byte("a"), 64<<10)

func (infinite) Read(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		n += copy(b[n:], aBlock)
	}
	return n, nil
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`))
	f.Add([]byte(`{"toolName":"MultiEdit","toolInput":{"edits":[{"file_path":"/x"}]}}`))
	f.Add([]byte(`{"tool_name":"ApplyPatch","tool_input":"*** Add File: x"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Decode(data)
		if err != nil {
			return
		}
		tool, kind := NormaliseTool(p.ToolName)
		args, _ := ParseToolInput(tool, kind, p.ToolInput)
		for _, path := range args.Paths {
			if strings.TrimSpace(path) == "" {
				t.Fatalf("blank path extracted from %q", data)
			}
		}
	})
}
