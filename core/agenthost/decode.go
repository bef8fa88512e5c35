package agenthost

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// The top-level keys read, by meaning, in preference order (snake_case
// first: DESIGN §4). Keys are matched exactly; a key the host does not send
// in this spelling is not read.
var (
	toolNameKeys  = []string{"tool_name", "toolName"}
	toolInputKeys = []string{"tool_input", "toolInput", "toolArgs"}
	sessionKeys   = []string{"session_id", "sessionId"}
	cwdKeys       = []string{"cwd"}
	eventKeys     = []string{"hook_event_name", "hookEventName", "hookName"}
	modeKeys      = []string{"permission_mode", "mode"}
	// transcriptKeys are read for detection only: where the host keeps
	// the session's transcript (~/.codex/sessions/..., ~/.claude/projects/...).
	transcriptKeys = []string{"transcript_path"}
	// callKey is the object a host sends the call in instead of top-level
	// tool_name and tool_input (Cline's "tool_call": {"id", "name",
	// "input"}): its callNameKey is the tool name, its callInputKey the
	// tool input. The top-level keys win when both are sent.
	callKey, callNameKey, callInputKey = "tool_call", "name", "input"
	// rootsKey lists the workspace roots a host sends instead of a cwd
	// (Cline's "workspaceRoots"): the first one is the session's.
	rootsKey = "workspaceRoots"
)

// maxKeys bounds how many distinct top-level key names an Envelope keeps
// (for detection); more are skipped unrecorded.
const maxKeys = 256

// Envelope is a decoded payload before an adapter interprets it: the
// top-level keys seen, the string values of the keys the guard reads, and
// each tool-input value.
type Envelope struct {
	keys   map[string]int // top-level key → times seen (exact spelling)
	folded map[string]bool
	strs   map[string][]string // string values, every occurrence
	inputs map[string][]*inputValue
	call   callObject // the callKey object's fields, every occurrence
	root   string     // the first workspace root (rootsKey)
}

// callObject is what the callKey object held.
type callObject struct {
	names  []string
	inputs []*inputValue
	// keys counts the object's keys (a name or input sent twice leaves
	// open which call the host runs).
	keys map[string]int
}

// Has reports whether the payload has the top-level key (exact spelling).
func (e *Envelope) Has(key string) bool { return e.keys[key] > 0 }

// Keys lists the top-level keys seen (at most maxKeys), sorted.
func (e *Envelope) Keys() []string { return sortedKeys(e.keys) }

// String is the first non-empty string value among keys, in order (the
// last occurrence of a repeated key, as a JavaScript host reads it).
func (e *Envelope) String(keys ...string) string {
	for _, k := range keys {
		if vs := e.strs[k]; len(vs) > 0 && vs[len(vs)-1] != "" {
			return vs[len(vs)-1]
		}
	}
	return ""
}

// ToolName is the tool name as the host sent it: a top-level key, else
// the call object's name.
func (e *Envelope) ToolName() string {
	if n := e.String(toolNameKeys...); n != "" {
		return n
	}
	if n := len(e.call.names); n > 0 {
		return e.call.names[n-1]
	}
	return ""
}

// Cwd is the session's directory as the host sent it: the cwd key, else
// the first workspace root.
func (e *Envelope) Cwd() string {
	if c := e.String(cwdKeys...); c != "" {
		return c
	}
	return e.root
}

// HookEventName is the event name as the host sent it.
func (e *Envelope) HookEventName() string { return e.String(eventKeys...) }

// TranscriptIn reports whether the payload's transcript_path lies below a
// directory named dir (".codex", ".claude"), written with / or \.
func (e *Envelope) TranscriptIn(dir string) bool {
	t := e.String(transcriptKeys...)
	return strings.Contains(t, "/"+dir+"/") || strings.Contains(t, `\`+dir+`\`)
}

// inputValue is one tool-input value as decoded.
type inputValue struct {
	kind     byte   // '{' object, '"' string, 'n' null, '[' array, '?' a number or boolean
	raw      []byte // the value's bytes, nil past MaxRawInput
	str      string // kind '"': the string
	fields   map[string][]fieldValue
	variants map[string]bool // read keys another key differed from only in case
}

// fieldValue is one occurrence of a read tool_input key.
type fieldValue struct {
	kind  byte // '"' string, 'n' null, '[' array, '{' object, '?' other
	str   string
	edits []editValue
	list  []string // the strings of a List field's array
}

type editValue struct {
	fields   map[string][]fieldValue
	variants map[string]bool
}

// ErrIncomplete means stdin did not deliver a complete JSON value in time
// (the error is a *LateError).
var ErrIncomplete = errors.New("agenthost: stdin incomplete")

// LateError is ReadPayload's error when its wait ended before a whole
// payload had been read: the host was still sending it (or the machine
// was too slow to read what it sent). errors.Is(err, ErrIncomplete) holds.
type LateError struct {
	// Wait is how long the payload was waited for, from StartReading.
	Wait time.Duration
	// Received is how many bytes had arrived by then.
	Received int64
	// Ended reports that the input had ended (EOF) but was not decoded in
	// time; otherwise the host had not finished sending it.
	Ended bool
}

func (e *LateError) Error() string {
	how := "input still open"
	if e.Ended {
		how = "input ended, not decoded in time"
	}
	return fmt.Sprintf("%v after waiting %v: %d bytes received, %s", ErrIncomplete, e.Wait, e.Received, how)
}

// Is makes errors.Is(err, ErrIncomplete) true.
func (e *LateError) Is(target error) bool { return target == ErrIncomplete }

// partialBytes is how much of the input a Reading keeps to decode what
// had arrived when its wait ends (the top-level keys that name the tool
// and the host usually come before a large tool_input).
const partialBytes = 64 << 10

// ReadPayload reads one payload from r and decodes it for the host that
// claims it (env is the hook's environment), waiting at most wait of wall
// time: StartReading(r, env).Wait(now + wait).
func ReadPayload(r io.Reader, wait time.Duration, env Lookup) (p Payload, raw []byte, err error) {
	return StartReading(r, env).Wait(time.Now().Add(wait))
}

// Reading is a payload being read in the background (StartReading).
type Reading struct {
	in    *arrivals
	env   Lookup
	start time.Time
	done  chan readResult
}

type readResult struct {
	p   Payload
	raw []byte
	err error
}

// StartReading begins reading one payload from r at once, in the
// background, and decoding it for the host that claims it (env is the
// hook's environment): a hook starts it first thing, so that whatever it
// does meanwhile (loading its configuration) never makes a payload that
// had arrived look late. Call Wait for the result.
func StartReading(r io.Reader, env Lookup) *Reading {
	rd := &Reading{in: &arrivals{r: r}, env: env, start: time.Now(), done: make(chan readResult, 1)}
	go func() {
		s := newScanner(rd.in, MaxInput)
		e, err := decodeEnvelope(s)
		res := readResult{raw: s.head, err: err}
		if err == nil {
			res.p = e.Payload(Detect(e, env))
		}
		rd.done <- res
	}()
	return rd
}

// Wait returns the payload once its closing brace has arrived (a host
// that never closes stdin costs nothing), or at deadline (wall time) what
// had arrived by then. Other errors (invalid JSON, over MaxInput) come
// when they are found. raw holds the first bytes read, for the log.
//
// When the deadline comes first it returns a *LateError and, in p, what
// had arrived: the keys decoded from the first partialBytes received (the
// tool name, the session, the host's marks — whatever came complete), for
// the host that claims them. The caller decides what a late payload means
// (the hook asks: a host that is still writing is slow, not broken, and
// will run the call; DESIGN §3). A payload still being decoded then (one
// that the model made huge) is late too: the wait bounds the whole read.
// The reading goroutine is abandoned (the process exits soon after).
// Call Wait once.
//
// Cost: one copy of the first partialBytes of input besides the decoding.
func (rd *Reading) Wait(deadline time.Time) (p Payload, raw []byte, err error) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case res := <-rd.done:
		return res.p, res.raw, res.err
	case <-timer.C:
	}
	select {
	case res := <-rd.done: // it finished at the same moment
		return res.p, res.raw, res.err
	default:
	}
	head, n, ended := rd.in.snapshot()
	e := partialEnvelope(head)
	raw = head[:min(len(head), snippetBytes)]
	late := &LateError{Wait: time.Since(rd.start), Received: n, Ended: ended}
	return e.Payload(Detect(e, rd.env)), raw, late
}

// arrivals passes reads through, keeping the first partialBytes read, the
// count and whether the input ended, for a snapshot from another
// goroutine.
type arrivals struct {
	r     io.Reader
	mu    sync.Mutex
	head  []byte
	n     int64
	ended bool
}

func (a *arrivals) Read(b []byte) (int, error) {
	n, err := a.r.Read(b)
	a.mu.Lock()
	if room := partialBytes - len(a.head); room > 0 && n > 0 {
		a.head = append(a.head, b[:min(n, room)]...)
	}
	a.n += int64(n)
	if err != nil {
		a.ended = true
	}
	a.mu.Unlock()
	return n, err
}

// snapshot returns a copy of the bytes kept, the count and whether the
// input ended.
func (a *arrivals) snapshot() ([]byte, int64, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return bytes.Clone(a.head), a.n, a.ended
}

// partialEnvelope decodes what it can of the start of a payload: the
// top-level keys whose values arrived whole. It never fails: an empty or
// broken start gives an envelope with fewer keys (none at worst).
func partialEnvelope(head []byte) *Envelope {
	e := newEnvelope()
	_ = decodeInto(newScanner(bytes.NewReader(head), MaxInput), e)
	return e
}

// Decode decodes a complete payload held in memory for the host that
// claims it.
func Decode(data []byte, env Lookup) (Payload, error) {
	e, err := DecodeEnvelope(data)
	if err != nil {
		return Payload{}, err
	}
	return e.Payload(Detect(e, env)), nil
}

// DecodeEnvelope decodes a payload held in memory without interpreting it.
func DecodeEnvelope(data []byte) (*Envelope, error) {
	return decodeEnvelope(newScanner(bytes.NewReader(data), MaxInput))
}

func decodeEnvelope(s *scanner) (*Envelope, error) {
	e := newEnvelope()
	if err := decodeInto(s, e); err != nil {
		return nil, err
	}
	return e, nil
}

func newEnvelope() *Envelope {
	return &Envelope{keys: map[string]int{}, folded: map[string]bool{}, strs: map[string][]string{}, inputs: map[string][]*inputValue{}}
}

// decodeInto decodes the payload s reads into e. On error e holds what was
// decoded before it (partialEnvelope's use).
func decodeInto(s *scanner, e *Envelope) error {
	s.skipBOM()
	c, err := s.peek()
	if err != nil {
		if errors.Is(err, errSyntax) && onlySpace(s.head) {
			return errors.New("agenthost: empty input")
		}
		return err
	}
	if c != '{' {
		if c == '[' || c == '"' || c == '-' || c >= '0' && c <= '9' {
			return errors.New("agenthost: payload is not a JSON object")
		}
		return fmt.Errorf("%w: the payload starts with %q, not {", errSyntax, c)
	}
	read := map[string]bool{}
	for _, group := range [][]string{toolNameKeys, sessionKeys, cwdKeys, eventKeys, modeKeys, transcriptKeys} {
		for _, k := range group {
			read[k] = true
		}
	}
	isInput := map[string]bool{}
	for _, k := range toolInputKeys {
		isInput[k] = true
	}
	err = s.object(func(key string) error {
		if _, seen := e.keys[key]; seen || len(e.keys) < maxKeys {
			e.keys[key]++
		}
		switch {
		case key == callKey:
			return e.call.read(s)
		case key == rootsKey:
			return e.readRoots(s)
		case isInput[key]:
			v, err := decodeInput(s)
			if err != nil {
				return fmt.Errorf("agenthost: %s: %w", key, err)
			}
			e.inputs[key] = append(e.inputs[key], v)
			return nil
		case read[key]:
			c, err := s.peek()
			if err != nil {
				return err
			}
			if c != '"' {
				// A non-string value reads as absent, as before.
				return s.skip()
			}
			v, err := s.str()
			if err != nil {
				return err
			}
			e.strs[key] = append(e.strs[key], v)
			return nil
		}
		return s.skip()
	})
	for k := range e.keys {
		e.folded[strings.ToLower(k)] = true
	}
	return err
}

// read reads the call object: its name (a string) and its input; other
// keys and values of other types are skipped. A value that is not an
// object is skipped.
func (c *callObject) read(s *scanner) error {
	if k, err := s.peek(); err != nil || k != '{' {
		if err != nil {
			return err
		}
		return s.skip()
	}
	if c.keys == nil {
		c.keys = map[string]int{}
	}
	return s.object(func(key string) error {
		c.keys[key]++
		switch key {
		case callNameKey:
			if k, err := s.peek(); err != nil || k != '"' {
				if err != nil {
					return err
				}
				return s.skip()
			}
			v, err := s.str()
			c.names = append(c.names, v)
			return err
		case callInputKey:
			v, err := decodeInput(s)
			if err != nil {
				return fmt.Errorf("agenthost: %s.%s: %w", callKey, key, err)
			}
			c.inputs = append(c.inputs, v)
			return nil
		}
		return s.skip()
	})
}

// readRoots keeps the first string of the workspace roots array (the
// first one sent, if the key is repeated).
func (e *Envelope) readRoots(s *scanner) error {
	if k, err := s.peek(); err != nil || k != '[' {
		if err != nil {
			return err
		}
		return s.skip()
	}
	return s.array(func() error {
		if k, err := s.peek(); err != nil || k != '"' || e.root != "" {
			if err != nil {
				return err
			}
			return s.skip()
		}
		v, err := s.str()
		e.root = v
		return err
	})
}

func onlySpace(b []byte) bool {
	return len(bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))) == 0
}

// decodeInput reads a tool-input value, recording its raw bytes up to
// MaxRawInput.
func decodeInput(s *scanner) (*inputValue, error) {
	c, err := s.peek()
	if err != nil {
		return nil, err
	}
	v := &inputValue{}
	s.rec = &recording{max: MaxRawInput}
	defer func() { s.rec = nil }()
	switch c {
	case '{':
		v.kind = '{'
		if err := v.readObject(s); err != nil {
			return nil, err
		}
	case '"':
		v.kind = '"'
		if v.str, err = s.str(); err != nil {
			return nil, err
		}
		if t := strings.TrimSpace(v.str); strings.HasPrefix(t, "{") {
			// A host that sends tool_input as a JSON string holding the
			// object (Copilot CLI's toolArgs) means the object.
			inner := &inputValue{kind: '{'}
			in := newScanner(strings.NewReader(t), MaxInput)
			in.rec = &recording{max: MaxRawInput}
			// One holding broken JSON stays a string (and asks: Payload).
			if err := inner.readObject(in); err == nil {
				inner.raw = in.rec.buf
				if in.rec.overflow {
					inner.raw = nil
				}
				s.rec.overflow, s.rec.buf = true, nil // raw is the inner object's
				v = inner
			}
		}
	default:
		switch c {
		case 'n', '[':
			v.kind = c
		default:
			v.kind = '?'
		}
		if err := s.skip(); err != nil {
			return nil, err
		}
	}
	if v.raw == nil && !s.rec.overflow {
		v.raw = s.rec.buf
	}
	return v, nil
}

// readObject reads a tool_input object: keys some tool reads are kept (all
// occurrences), keys differing from one only in case are noted, the rest is
// skipped.
func (v *inputValue) readObject(s *scanner) error {
	fields := inputFields()
	folded := foldedFields(fields)
	v.fields = map[string][]fieldValue{}
	v.variants = map[string]bool{}
	return s.object(func(key string) error {
		use, ok := fields[key]
		if !ok {
			if canon, clash := folded[strings.ToLower(key)]; clash {
				v.variants[canon] = true
			}
			return s.skip()
		}
		fv, err := readField(s, use)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		v.fields[key] = append(v.fields[key], fv)
		return nil
	})
}

// foldedFields maps the lower-case spelling of every read key to the key.
// Two read keys that fold alike (none today) would both count as variants
// of the first.
func foldedFields(fields map[string]fieldUse) map[string]string {
	m := make(map[string]string, len(fields)+len(editPathFields))
	for _, k := range append(sortedKeys(fields), editPathFields...) {
		if _, dup := m[strings.ToLower(k)]; !dup {
			m[strings.ToLower(k)] = k
		}
	}
	return m
}

// readField reads one value of a read key: a string is kept, an edits
// array's elements are read for their path fields, a list array's strings
// are kept, anything else is only typed.
func readField(s *scanner, use fieldUse) (fieldValue, error) {
	c, err := s.peek()
	if err != nil {
		return fieldValue{}, err
	}
	switch {
	case c == '"':
		str, err := s.str()
		return fieldValue{kind: '"', str: str}, err
	case c == '[' && use.list:
		fv := fieldValue{kind: '['}
		err := s.array(func() error {
			c, err := s.peek()
			if err != nil || c != '"' {
				if err != nil {
					return err
				}
				return s.skip()
			}
			str, err := s.str()
			fv.list = append(fv.list, str)
			return err
		})
		return fv, err
	case c == '[' && use.edits:
		fv := fieldValue{kind: '['}
		err := s.array(func() error {
			c, err := s.peek()
			if err != nil {
				return err
			}
			if c != '{' {
				return s.skip()
			}
			ev := editValue{fields: map[string][]fieldValue{}, variants: map[string]bool{}}
			err = s.object(func(key string) error {
				for _, k := range editPathFields {
					if key == k {
						f, err := readField(s, fieldUse{})
						ev.fields[k] = append(ev.fields[k], f)
						return err
					}
					if strings.EqualFold(key, k) {
						ev.variants[k] = true
					}
				}
				return s.skip()
			})
			fv.edits = append(fv.edits, ev)
			return err
		})
		return fv, err
	}
	kind := byte('?')
	switch c {
	case 'n':
		kind = 'n'
	case '[', '{':
		kind = c
	}
	return fieldValue{kind: kind}, s.skip()
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}

// MarshalPayload builds the JSON payload a host would send for a call made
// without one (--eval, explain): snake_case keys.
func MarshalPayload(toolName string, input map[string]string, cwd string) []byte {
	in, _ := json.Marshal(input)
	b, _ := json.Marshal(struct {
		ToolName  string          `json:"tool_name"`
		ToolInput json.RawMessage `json:"tool_input"`
		Cwd       string          `json:"cwd,omitempty"`
	}{toolName, in, cwd})
	return b
}

// DecodeFor decodes a complete payload held in memory for adapter a,
// without detection (calls made without a host: --eval, explain).
func DecodeFor(data []byte, a Adapter) (Payload, error) {
	e, err := DecodeEnvelope(data)
	if err != nil {
		return Payload{}, err
	}
	return e.Payload(a), nil
}
