package agenthost

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
	Name     string            `json:"name"`
	Stdin    json.RawMessage   `json:"stdin"`
	Raw      *string           `json:"raw"`
	Env      map[string]string `json:"env"`
	Host     string            `json:"host"`
	Tool     string            `json:"tool"`
	Kind     string            `json:"kind"`
	Command  string            `json:"command"`
	Dir      string            `json:"dir"`
	Paths    []string          `json:"paths"`
	Session  string            `json:"session"`
	Cwd      string            `json:"cwd"`
	Findings []string          `json:"findings"` // "RULE field"
	// Expect, Rule and TwinOf are what core/rules' catalog test reads: a
	// case with findings asks under Rule; a silent case marked TwinOf is the
	// near miss of that rule (it must have no findings).
	Expect      string `json:"expect"`
	Rule        string `json:"rule"`
	TwinOf      string `json:"twin_of"`
	DecodeError bool   `json:"decodeError"`
}

// TestPayloads decodes every payload of testdata/payloads.json (each with
// the environment its case gives) and checks the host that claims it, the
// tool, the fields read, and the findings.
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
			p, err := Decode(in, mapEnv(tc.Env))
			if tc.DecodeError {
				if err == nil {
					t.Fatalf("Decode succeeded: %+v", p)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.Host != "" && p.Host.Name() != tc.Host {
				t.Errorf("host = %s, want %s", p.Host.Name(), tc.Host)
			}
			tool, kind := p.ToolName, "other"
			if p.Judged {
				tool, kind = p.Tool.Name, p.Tool.Kind.String()
			}
			if tool != tc.Tool || kind != tc.Kind {
				t.Fatalf("tool = %q/%s, want %q/%s", tool, kind, tc.Tool, tc.Kind)
			}
			if p.Command != tc.Command || p.Dir != tc.Dir {
				t.Errorf("command, dir = %q, %q, want %q, %q", p.Command, p.Dir, tc.Command, tc.Dir)
			}
			if strings.Join(p.Paths, "|") != strings.Join(tc.Paths, "|") {
				t.Errorf("paths = %q, want %q", p.Paths, tc.Paths)
			}
			if p.SessionID != tc.Session || p.Cwd != tc.Cwd {
				t.Errorf("session/cwd = %q/%q, want %q/%q", p.SessionID, p.Cwd, tc.Session, tc.Cwd)
			}
			var findings []string
			for _, f := range p.Findings {
				findings = append(findings, f.Rule.ID+" "+f.Field)
			}
			if strings.Join(findings, "|") != strings.Join(tc.Findings, "|") {
				t.Errorf("findings = %q, want %q", findings, tc.Findings)
			}
			switch {
			case len(p.Findings) > 0 && (tc.Expect != "ask" || tc.Rule != p.Findings[0].Rule.ID):
				t.Errorf("the decoder asks (%s): the case needs expect ask and rule %s", findings[0], p.Findings[0].Rule.ID)
			case len(p.Findings) == 0 && tc.Expect == "ask":
				t.Errorf("expect ask, but the decoder raised nothing")
			case tc.TwinOf != "" && tc.Expect != "silent":
				t.Errorf("twin_of %s on a case that does not expect silent", tc.TwinOf)
			}
		})
	}
}

func mapEnv(m map[string]string) Lookup {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
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
	p, _, err := ReadPayload(r, 5*time.Second, nil)
	if err != nil || p.ToolName != "Bash" {
		t.Fatalf("p=%+v err=%v", p, err)
	}
}

// TestReadPayloadTimesOut: a payload cut off by a host that stopped
// writing comes back late, with what had arrived: the tool name and the
// session (complete values), the byte count, the input still open.
func TestReadPayloadTimesOut(t *testing.T) {
	head := `{"session_id":"s-1","tool_name":"Bash","tool_input":{"command":"rm -rf /e`
	r := &neverCloses{data: []byte(head)}
	// The wait leaves the reading goroutine ample time to take the head
	// (the rest never comes, so nothing else depends on it).
	p, raw, err := ReadPayload(r, time.Second, nil)
	var late *LateError
	if !errors.Is(err, ErrIncomplete) || !errors.As(err, &late) {
		t.Fatalf("err = %v, want a *LateError", err)
	}
	if late.Received != int64(len(head)) || late.Ended || late.Wait < time.Second {
		t.Errorf("late = %+v", late)
	}
	if p.ToolName != "Bash" || p.SessionID != "s-1" || !p.Judged || p.Host == nil || p.Command != "" {
		t.Errorf("partial payload %+v: want tool Bash, session s-1, judged, a host, no command (it never arrived whole)", p)
	}
	if string(raw) != head {
		t.Errorf("raw = %q", raw)
	}
	// Nothing at all: late too (the host had not begun writing).
	p, raw, err = ReadPayload(&neverCloses{sent: true}, 20*time.Millisecond, nil)
	if !errors.As(err, &late) || late.Received != 0 || p.ToolName != "" || len(raw) != 0 {
		t.Errorf("nothing sent: p=%+v raw=%q err=%v", p, raw, err)
	}
}

func TestReadPayloadKeepsSnippet(t *testing.T) {
	_, raw, err := ReadPayload(strings.NewReader("not-json{{"), time.Second, nil)
	if err == nil || string(raw) != "not-json{{" {
		t.Fatalf("raw=%q err=%v", raw, err)
	}
}

func TestReadPayloadTooLarge(t *testing.T) {
	big := io.MultiReader(strings.NewReader(`{"tool_name":"Write","tool_input":{"content":"`), infinite{}, strings.NewReader(`"}}`))
	// The wait is a hang guard only: 64 MiB are decoded slowly under -race
	// on a loaded machine, and the cap, not the clock, must end it.
	_, _, err := ReadPayload(big, 10*time.Minute, nil)
	if !errors.Is(err, ErrOverCap) {
		t.Fatalf("err = %v, want ErrOverCap", err)
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

// TestReadPayloadTrickled: a payload that arrives in pieces is read whole
// when its last piece comes within the wait, and is late with what had
// arrived when the host stops sending before the end.
func TestReadPayloadTrickled(t *testing.T) {
	parts := []string{`{"tool_name":`, `"Bash","tool_input":`, `{"command":"ls"}}`}
	r := &trickle{parts: append([]string{}, parts...), pause: 10 * time.Millisecond}
	// The wait is a hang guard: the pieces come in 30 ms unhurried.
	if p, _, err := ReadPayload(r, time.Minute, nil); err != nil || p.ToolName != "Bash" || p.Command != "ls" {
		t.Fatalf("trickled within the wait: p=%+v err=%v", p, err)
	}
	sent := int64(len(parts[0]) + len(parts[1]))
	r = &trickle{parts: append([]string{}, parts[:2]...), pause: time.Millisecond}
	p, _, err := ReadPayload(r, time.Second, nil)
	var late *LateError
	if !errors.As(err, &late) {
		t.Fatalf("stopped before the end: err = %v, want a *LateError", err)
	}
	if late.Received != sent || p.ToolName != "Bash" {
		t.Errorf("stopped before the end: %d bytes, tool %q; want %d, Bash", late.Received, p.ToolName, sent)
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

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`))
	f.Add([]byte(`{"toolName":"MultiEdit","toolInput":{"edits":[{"file_path":"/x"}]}}`))
	f.Add([]byte(`{"tool_name":"ApplyPatch","tool_input":"*** Add File: x"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Decode(data, nil)
		if err != nil {
			return
		}
		for _, path := range p.Paths {
			if strings.TrimSpace(path) == "" {
				t.Fatalf("blank path extracted from %q", data)
			}
		}
		// The streaming decoder reads what encoding/json reads, for the
		// keys it reads, whenever encoding/json can read the payload.
		var w struct {
			ToolName  *string         `json:"tool_name"`
			ToolInput json.RawMessage `json:"tool_input"`
		}
		if json.Unmarshal(data, &w) == nil && w.ToolName != nil && *w.ToolName != "" && !bytes.Contains(bytes.ToLower(data), []byte("toolname")) {
			if p.ToolName != *w.ToolName && !strings.EqualFold(p.ToolName, *w.ToolName) && len(p.Findings) == 0 {
				t.Fatalf("tool name %q, encoding/json reads %q, from %q", p.ToolName, *w.ToolName, data)
			}
		}
	})
}

// TestUnreadFieldsCannotBreakDecoding: an unrelated field nested far deeper
// than encoding/json allows (10,001 levels), or very large, leaves the
// fields the guard reads readable.
func TestUnreadFieldsCannotBreakDecoding(t *testing.T) {
	deep := strings.Repeat(`{"a":[`, 10001) + strings.Repeat(`]}`, 10001)
	big := strings.Repeat("x", 3<<20)
	for name, extra := range map[string]string{
		"nested 10001 deep": `"meta":` + deep,
		"3 MiB string":      `"content":"` + big + `"`,
		"3 MiB of numbers":  `"n":[` + strings.Repeat("1,", 1<<20) + `1]`,
	} {
		t.Run(name, func(t *testing.T) {
			data := `{"tool_name":"Bash","tool_input":{` + extra + `,"command":"ls -la"},"cwd":"/p"}`
			p, err := Decode([]byte(data), nil)
			if err != nil || len(p.Findings) > 0 {
				t.Fatalf("decode: %v / %v", err, p.Findings)
			}
			if p.Command != "ls -la" || p.Cwd != "/p" {
				t.Fatalf("command %q cwd %q", p.Command, p.Cwd)
			}
			if len(p.Input) > MaxRawInput {
				t.Fatalf("raw input of %d bytes kept, cap %d", len(p.Input), MaxRawInput)
			}
		})
	}
}

// TestRawInputKeptWhenSmall: layers get the exact tool_input bytes up to
// MaxRawInput, none past it.
func TestRawInputKeptWhenSmall(t *testing.T) {
	small := `{ "command" : "ls" , "x": [1, {"y": "z"}] }`
	p, err := Decode([]byte(`{"tool_name":"Bash","tool_input":`+small+`}`), nil)
	if err != nil || string(p.Input) != small {
		t.Fatalf("Input = %q, %v; want %q", p.Input, err, small)
	}
	large := `{"command":"ls","content":"` + strings.Repeat("y", MaxRawInput) + `"}`
	p, err = Decode([]byte(`{"tool_name":"Bash","tool_input":`+large+`}`), nil)
	if err != nil || p.Input != nil || p.Command != "ls" {
		t.Fatalf("Input of %d bytes, command %q, %v; want none", len(p.Input), p.Command, err)
	}
}

// TestOverCapIsNamed: a payload past MaxInput is an ErrOverCap, not a
// syntax error, even when it is cut mid-string.
func TestOverCapIsNamed(t *testing.T) {
	data := append([]byte(`{"tool_name":"Write","tool_input":{"content":"`), make([]byte, MaxInput)...)
	for i := 45; i < len(data); i++ {
		data[i] = 'a'
	}
	_, err := Decode(data, nil)
	if !errors.Is(err, ErrOverCap) || !strings.Contains(err.Error(), "over the 64 MiB cap") {
		t.Fatalf("err = %v, want ErrOverCap", err)
	}
}
