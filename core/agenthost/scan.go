package agenthost

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// scanner walks one JSON document read from r in fixed chunks. Values the
// guard reads are decoded; every other value is skipped without being held
// in memory (a 50 MB Write's content passes through a 64 KiB buffer), and
// without recursion, so neither the size nor the nesting depth of a field
// the guard does not read can break decoding. Skipping is lenient: it only
// tracks strings and bracket depth, because the host, not the guard, owns
// the syntax of what the guard never reads.
//
// Cost: one pass over the input, O(1) memory beyond the values kept and the
// raw tool_input copy (at most maxRaw bytes).
type scanner struct {
	r        io.Reader
	buf      []byte
	pos, end int
	read     int64 // bytes taken from r
	limit    int64 // more than this is ErrOverCap
	err      error // sticky read error

	head []byte // the first snippetBytes bytes, for the log
	rec  *recording
}

const (
	chunkBytes   = 64 << 10
	snippetBytes = 1024
)

// ErrOverCap means the payload is larger than MaxInput.
var ErrOverCap = fmt.Errorf("agenthost: payload over the %d MiB cap", MaxInput>>20)

// errSyntax is a structural error in the parts the guard reads.
var errSyntax = errors.New("agenthost: invalid JSON")

// recording keeps the raw bytes of the value being scanned, up to max; past
// that it drops them and remembers it overflowed.
type recording struct {
	buf      []byte
	max      int
	overflow bool
}

func (r *recording) add(b []byte) {
	if r.overflow {
		return
	}
	if len(r.buf)+len(b) > r.max {
		r.overflow, r.buf = true, nil
		return
	}
	r.buf = append(r.buf, b...)
}

func newScanner(r io.Reader, limit int64) *scanner {
	return &scanner{r: r, buf: make([]byte, chunkBytes), limit: limit}
}

// fill makes at least one unread byte available; false at the end of input
// (s.err says why).
func (s *scanner) fill() bool {
	if s.pos < s.end {
		return true
	}
	if s.err != nil {
		return false
	}
	for {
		n, err := s.r.Read(s.buf)
		if n > 0 {
			if room := snippetBytes - len(s.head); room > 0 {
				s.head = append(s.head, s.buf[:min(n, room)]...)
			}
			s.read += int64(n)
			if s.read > s.limit {
				s.err = ErrOverCap
				s.pos, s.end = 0, 0
				return false
			}
			s.pos, s.end = 0, n
			if err != nil {
				s.err = err
			}
			return true
		}
		if err != nil {
			s.err = err
			return false
		}
	}
}

// advance consumes n buffered bytes, recording them when a recording runs.
func (s *scanner) advance(n int) {
	if s.rec != nil {
		s.rec.add(s.buf[s.pos : s.pos+n])
	}
	s.pos += n
}

// failure is the error for running out of input mid-document.
func (s *scanner) failure() error {
	switch {
	case errors.Is(s.err, ErrOverCap):
		return ErrOverCap
	case s.err == nil || errors.Is(s.err, io.EOF):
		return fmt.Errorf("%w: unexpected end of input after %d bytes", errSyntax, s.read)
	default:
		return fmt.Errorf("agenthost: reading stdin: %w", s.err)
	}
}

// peek skips white space and returns the next byte without consuming it.
func (s *scanner) peek() (byte, error) {
	for {
		if !s.fill() {
			return 0, s.failure()
		}
		for s.pos < s.end {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\n', '\r':
				s.advance(1)
			default:
				return c, nil
			}
		}
	}
}

// expect consumes c (after white space) or fails.
func (s *scanner) expect(c byte) error {
	got, err := s.peek()
	if err != nil {
		return err
	}
	if got != c {
		return fmt.Errorf("%w: %q where %q belongs, near byte %d", errSyntax, got, c, s.read-int64(s.end-s.pos))
	}
	s.advance(1)
	return nil
}

// skipBOM drops a UTF-8 byte order mark at the very start.
func (s *scanner) skipBOM() {
	const bom = "\xef\xbb\xbf"
	for s.end-s.pos < len(bom) && s.err == nil {
		// Move what is buffered to the front and read more behind it.
		n := copy(s.buf, s.buf[s.pos:s.end])
		s.pos, s.end = 0, n
		m, err := s.r.Read(s.buf[n:])
		if m > 0 {
			if room := snippetBytes - len(s.head); room > 0 {
				s.head = append(s.head, s.buf[n:n+min(m, room)]...)
			}
			s.read += int64(m)
		}
		s.end += m
		if err != nil {
			s.err = err
		}
	}
	if bytes.HasPrefix(s.buf[s.pos:s.end], []byte(bom)) {
		s.pos += len(bom)
	}
}

// stringRaw consumes a string (the opening quote is next) and, when keep is
// set, returns its raw bytes including the quotes.
func (s *scanner) stringRaw(keep bool) ([]byte, error) {
	if err := s.expect('"'); err != nil {
		return nil, err
	}
	var raw []byte
	if keep {
		raw = append(raw, '"')
	}
	escaped := false
	for {
		if !s.fill() {
			return nil, s.failure()
		}
		chunk := s.buf[s.pos:s.end]
		i := 0
		if escaped {
			i, escaped = 1, false
		}
		for i < len(chunk) {
			j := bytes.IndexAny(chunk[i:], "\"\\")
			if j < 0 {
				i = len(chunk)
				break
			}
			i += j
			if chunk[i] == '"' {
				if keep {
					raw = append(raw, chunk[:i+1]...)
				}
				s.advance(i + 1)
				return raw, nil
			}
			// A backslash escapes the next byte, which may be in the next
			// chunk.
			if i+1 == len(chunk) {
				escaped = true
				break
			}
			i += 2
		}
		if keep {
			raw = append(raw, chunk...)
		}
		s.advance(len(chunk))
	}
}

// str consumes a string and returns its value, decoded exactly as
// encoding/json decodes it (invalid UTF-8 becomes U+FFFD).
func (s *scanner) str() (string, error) {
	raw, err := s.stringRaw(true)
	if err != nil {
		return "", err
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", fmt.Errorf("%w: string: %v", errSyntax, err)
	}
	return v, nil
}

// skip consumes one value of any type and size without keeping it. Depth is
// a counter, not recursion.
func (s *scanner) skip() error {
	c, err := s.peek()
	if err != nil {
		return err
	}
	switch c {
	case '"':
		_, err := s.stringRaw(false)
		return err
	case '{', '[':
	default:
		return s.scalar()
	}
	depth := 0
	for {
		if !s.fill() {
			return s.failure()
		}
		j := bytes.IndexAny(s.buf[s.pos:s.end], "\"{}[]")
		if j < 0 {
			s.advance(s.end - s.pos)
			continue
		}
		s.advance(j)
		switch s.buf[s.pos] {
		case '"':
			if _, err := s.stringRaw(false); err != nil {
				return err
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
		s.advance(1)
		if depth == 0 {
			return nil
		}
	}
}

// scalar consumes a number, true, false or null.
func (s *scanner) scalar() error {
	n := 0
	for {
		if !s.fill() {
			if n > 0 && errors.Is(s.err, io.EOF) {
				return nil
			}
			return s.failure()
		}
		for s.pos < s.end {
			c := s.buf[s.pos]
			if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c == '-' || c == '+' || c == '.' || c == 'E' {
				s.advance(1)
				n++
				continue
			}
			if n == 0 {
				return fmt.Errorf("%w: unexpected %q near byte %d", errSyntax, c, s.read-int64(s.end-s.pos))
			}
			return nil
		}
	}
}

// object consumes an object, calling field for each key with the scanner
// positioned at its value; field must consume the value.
func (s *scanner) object(field func(key string) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	c, err := s.peek()
	if err != nil {
		return err
	}
	if c == '}' {
		s.advance(1)
		return nil
	}
	for {
		key, err := s.str()
		if err != nil {
			return err
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		if err := field(key); err != nil {
			return err
		}
		c, err := s.peek()
		if err != nil {
			return err
		}
		s.advance(1)
		switch c {
		case ',':
		case '}':
			return nil
		default:
			return fmt.Errorf("%w: %q after an object member", errSyntax, c)
		}
	}
}

// array consumes an array, calling elem with the scanner at each element.
func (s *scanner) array(elem func() error) error {
	if err := s.expect('['); err != nil {
		return err
	}
	c, err := s.peek()
	if err != nil {
		return err
	}
	if c == ']' {
		s.advance(1)
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		c, err := s.peek()
		if err != nil {
			return err
		}
		s.advance(1)
		switch c {
		case ',':
		case ']':
			return nil
		default:
			return fmt.Errorf("%w: %q after an array element", errSyntax, c)
		}
	}
}
