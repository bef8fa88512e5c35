// Package hookio speaks the PreToolUse hook protocol: it reads the payload an
// agent host writes to stdin (Claude Code's snake_case or ZCode's camelCase)
// and writes the one answer zcode-fence ever gives, "ask", as exactly one
// JSON line. Silence is zero bytes.
package hookio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
)

// MaxInput is the most stdin the hook reads. A bigger payload (a huge Write)
// is not judged: the call fails open and is logged.
const MaxInput = 64 << 20

// Payload is the decoded hook input. Missing fields are "".
type Payload struct {
	ToolName       string
	ToolInput      json.RawMessage
	SessionID      string
	Cwd            string
	HookEventName  string
	PermissionMode string
}

// wire lists both spellings; snake_case wins when both are present.
type wire struct {
	ToolName        *string         `json:"tool_name"`
	ToolNameC       *string         `json:"toolName"`
	ToolInput       json.RawMessage `json:"tool_input"`
	ToolInputC      json.RawMessage `json:"toolInput"`
	SessionID       *string         `json:"session_id"`
	SessionIDC      *string         `json:"sessionId"`
	Cwd             *string         `json:"cwd"`
	HookEventName   *string         `json:"hook_event_name"`
	HookEventNameC  *string         `json:"hookEventName"`
	PermissionMode  *string         `json:"permission_mode"`
	PermissionModeC *string         `json:"mode"`
}

// ErrIncomplete means stdin did not deliver a complete JSON value in time.
var ErrIncomplete = errors.New("hookio: stdin incomplete")

// ReadPayload reads one JSON value from r, waiting for input at most wait
// in all. It returns as soon as a complete value has arrived, so a host
// that never closes stdin costs nothing. Only the time spent blocked in
// r.Read counts against wait, not the time spent decoding what arrived:
// a host that stalls (or trickles bytes) is cut off after wait, while a
// big payload that is all there is judged however slow the machine (its
// size is bounded by MaxInput). On timeout it returns ErrIncomplete (the
// reading goroutine is abandoned; the process exits soon after). raw
// holds what was read, for the log.
func ReadPayload(r io.Reader, wait time.Duration) (p Payload, raw []byte, err error) {
	type result struct {
		p   Payload
		raw []byte
		err error
	}
	done := make(chan result, 1)
	rec := &recorder{r: io.LimitReader(r, MaxInput+1)}
	go func() {
		p, err := decode(rec)
		if err != nil && rec.n > MaxInput {
			err = fmt.Errorf("hookio: input larger than %d bytes", MaxInput)
		}
		done <- result{p, rec.snippet(), err}
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case res := <-done:
			return res.p, res.raw, res.err
		case <-timer.C:
			left := wait - rec.blockedFor(time.Now())
			if left <= 0 {
				return Payload{}, nil, fmt.Errorf("%w after waiting %v for input", ErrIncomplete, wait)
			}
			timer.Reset(left)
		}
	}
}

// Decode decodes a complete payload held in memory.
func Decode(data []byte) (Payload, error) {
	return decode(bytes.NewReader(data))
}

func decode(r io.Reader) (Payload, error) {
	dec := json.NewDecoder(r)
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return Payload{}, errors.New("hookio: empty input")
		}
		return Payload{}, fmt.Errorf("hookio: invalid JSON: %w", err)
	}
	if len(v) > MaxInput {
		return Payload{}, fmt.Errorf("hookio: input larger than %d bytes", MaxInput)
	}
	trimmed := bytes.TrimSpace(v)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return Payload{}, fmt.Errorf("hookio: payload is not a JSON object")
	}
	var w wire
	if err := json.Unmarshal(trimmed, &w); err != nil {
		return Payload{}, fmt.Errorf("hookio: payload fields: %w", err)
	}
	p := Payload{
		ToolName:       first(w.ToolName, w.ToolNameC),
		SessionID:      first(w.SessionID, w.SessionIDC),
		Cwd:            first(w.Cwd, nil),
		HookEventName:  first(w.HookEventName, w.HookEventNameC),
		PermissionMode: first(w.PermissionMode, w.PermissionModeC),
	}
	p.ToolInput = w.ToolInput
	if isNull(p.ToolInput) {
		p.ToolInput = w.ToolInputC
	}
	if isNull(p.ToolInput) {
		p.ToolInput = nil
	}
	return p, nil
}

func first(a, b *string) string {
	if a != nil && *a != "" {
		return *a
	}
	if b != nil {
		return *b
	}
	return ""
}

func isNull(m json.RawMessage) bool {
	t := bytes.TrimSpace(m)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// recorder keeps the first bytes read, for the error log, and how long
// its reader has been blocked in Read, in all.
type recorder struct {
	r    io.Reader
	head []byte
	n    int64 // bytes read
	// mu guards blocked and since; head and n are the reading goroutine's
	// alone until it has sent its result.
	mu      sync.Mutex
	blocked time.Duration // Read calls that returned
	since   time.Time     // start of the Read in progress; zero: none
}

const snippetBytes = 1024

func (c *recorder) Read(b []byte) (int, error) {
	c.mu.Lock()
	c.since = time.Now()
	c.mu.Unlock()
	n, err := c.r.Read(b)
	c.mu.Lock()
	c.blocked += time.Since(c.since)
	c.since = time.Time{}
	c.mu.Unlock()
	c.n += int64(n)
	if room := snippetBytes - len(c.head); room > 0 && n > 0 {
		c.head = append(c.head, b[:min(n, room)]...)
	}
	return n, err
}

// blockedFor is the time spent in Read up to now.
func (c *recorder) blockedFor(now time.Time) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.blocked
	if !c.since.IsZero() {
		d += now.Sub(c.since)
	}
	return d
}

func (c *recorder) snippet() []byte { return c.head }

// Tool names the guard judges, keyed by lower-case spelling.
var tools = map[string]struct {
	name string
	kind core.ToolKind
}{
	"bash":         {"Bash", core.KindShell},
	"shell":        {"Shell", core.KindShell},
	"powershell":   {"PowerShell", core.KindShell},
	"write":        {"Write", core.KindFile},
	"edit":         {"Edit", core.KindFile},
	"multiedit":    {"MultiEdit", core.KindFile},
	"notebookedit": {"NotebookEdit", core.KindFile},
	"applypatch":   {"ApplyPatch", core.KindFile},
	"apply_patch":  {"ApplyPatch", core.KindFile},
}

// NormaliseTool maps a host's tool name to the guard's spelling and kind.
// Unknown tools keep their name and are KindOther.
func NormaliseTool(name string) (string, core.ToolKind) {
	if t, ok := tools[strings.ToLower(strings.TrimSpace(name))]; ok {
		return t.name, t.kind
	}
	return name, core.KindOther
}

// ToolArgs is what the guard reads from tool_input.
type ToolArgs struct {
	// Command is the shell command (Bash, Shell, PowerShell).
	Command string
	// Paths are every file path the call writes, in input order, without
	// duplicates.
	Paths []string
}

// inputFields are the tool_input fields read; anything else (content,
// old_string, new_string, ...) is skipped by the decoder.
type inputFields struct {
	Command      *string `json:"command"`
	FilePath     *string `json:"file_path"`
	FilePathC    *string `json:"filePath"`
	Path         *string `json:"path"`
	NotebookPath *string `json:"notebook_path"`
	NotebookC    *string `json:"notebookPath"`
	Edits        []struct {
		FilePath  *string `json:"file_path"`
		FilePathC *string `json:"filePath"`
	} `json:"edits"`
	Patch     *string `json:"patch"`
	Input     *string `json:"input"`
	PatchText *string `json:"patch_text"`
	PatchC    *string `json:"patchText"`
}

// ParseToolInput extracts the command or the target paths of a call. A
// tool_input that is not an object yields nothing, except for ApplyPatch,
// whose input may be the bare patch text.
func ParseToolInput(tool string, kind core.ToolKind, input json.RawMessage) (ToolArgs, error) {
	var args ToolArgs
	if isNull(input) {
		return args, nil
	}
	t := bytes.TrimSpace(input)
	if t[0] == '"' {
		var s string
		if err := json.Unmarshal(t, &s); err != nil {
			return args, fmt.Errorf("hookio: tool_input: %w", err)
		}
		if tool == "ApplyPatch" {
			args.Paths = PatchPaths(s)
		}
		return args, nil
	}
	if t[0] != '{' {
		return args, fmt.Errorf("hookio: tool_input is not an object")
	}
	var f inputFields
	if err := json.Unmarshal(t, &f); err != nil {
		return args, fmt.Errorf("hookio: tool_input: %w", err)
	}
	switch kind {
	case core.KindShell:
		if f.Command != nil {
			args.Command = *f.Command
		}
	case core.KindFile:
		add := func(p *string) {
			if p == nil || strings.TrimSpace(*p) == "" {
				return
			}
			for _, have := range args.Paths {
				if have == *p {
					return
				}
			}
			args.Paths = append(args.Paths, *p)
		}
		add(f.FilePath)
		add(f.FilePathC)
		add(f.NotebookPath)
		add(f.NotebookC)
		for _, e := range f.Edits {
			add(e.FilePath)
			add(e.FilePathC)
		}
		if tool == "ApplyPatch" {
			for _, text := range []*string{f.Patch, f.Input, f.PatchText, f.PatchC} {
				if text != nil {
					for _, p := range PatchPaths(*text) {
						p := p
						add(&p)
					}
				}
			}
		}
		add(f.Path)
	}
	return args, nil
}

// PatchPaths lists the paths an apply_patch text touches: every
// "*** Add File:", "*** Update File:", "*** Delete File:" and "*** Move to:"
// line, in order.
func PatchPaths(patch string) []string {
	var out []string
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimRight(strings.TrimLeft(line, " \t"), "\r")
		for _, marker := range []string{"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"} {
			if rest, ok := strings.CutPrefix(line, marker); ok {
				if p := strings.TrimSpace(rest); p != "" {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// askLine is the exact output shape; field order is part of the contract.
type askLine struct {
	HookSpecificOutput askBody `json:"hookSpecificOutput"`
}

type askBody struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

// AskLine returns the ask answer for reason: one compact JSON object with
// exactly the three keys, HTML characters not escaped, and a newline.
func AskLine(reason string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// Encoding a struct of strings cannot fail.
	_ = enc.Encode(askLine{askBody{"PreToolUse", "ask", reason}})
	return buf.Bytes()
}
