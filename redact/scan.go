package redact

import (
	"strings"
	"unicode/utf8"
)

// scanner holds one pass over one text and the spans found so far.
type scanner struct {
	s     string
	spans []span

	markers     [][2]int // marker ranges in s, filled on the first add
	markersDone bool
}

// trigger is a word that starts the work of one rule. fold means ASCII
// case-insensitive (word is then lower case).
type trigger struct {
	word string
	fold bool
	run  func(sc *scanner, i int) (next int)
}

// triggers is indexed by the first byte of a trigger word (both cases when
// folded). Built once; read-only afterwards.
var triggers [256][]trigger

func init() {
	all := []trigger{
		// key/value rules: the key names a secret
		{"pass", true, (*scanner).keyValue},
		{"pwd", true, (*scanner).keyValue},
		{"token", true, (*scanner).keyValue},
		{"secret", true, (*scanner).keyValue},
		{"key", true, (*scanner).keyValue},
		{"credential", true, (*scanner).keyValue},
		{"auth", true, (*scanner).keyValue},
		{"cookie", true, (*scanner).keyValue},
		{"sig", true, (*scanner).keyValue},
		{"bearer", true, (*scanner).bearer},
		// structure
		{"://", false, (*scanner).urlUserinfo},
		{"-----BEGIN ", false, (*scanner).pemBlock},
		{"hooks.slack.com/", true, (*scanner).slackWebhook},
		{"discord", true, (*scanner).discordWebhook},
		{"eyJ", false, (*scanner).jwt},
		// provider shapes
		{"sk-", false, (*scanner).openAI},
		{"sk_", false, (*scanner).stripe},
		{"rk_", false, (*scanner).stripe},
		{"pk_", false, (*scanner).stripe},
		{"whsec_", false, (*scanner).stripe},
		{"gh", false, (*scanner).github},
		{"github_pat_", false, (*scanner).github},
		{"gl", false, (*scanner).gitlab},
		{"A", false, (*scanner).upperA},
		{"xox", false, (*scanner).slackToken},
		{"xapp-", false, (*scanner).slackToken},
		{"ya29.", false, (*scanner).googleOAuth},
		{"npm_", false, (*scanner).npm},
		{"hf_", false, (*scanner).huggingFace},
		{"pypi-", false, (*scanner).pypi},
		{"SG.", false, (*scanner).sendGrid},
		{"hv", false, (*scanner).vault},
		{"do", false, (*scanner).digitalOcean},
	}
	for _, t := range all {
		c := t.word[0]
		triggers[c] = append(triggers[c], t)
		if t.fold {
			if u := upper(c); u != c {
				triggers[u] = append(triggers[u], t)
			}
		}
	}
}

// run is the single pass: at every byte it tries the triggers starting with
// that byte, and at every word start the tool rules.
func (sc *scanner) run() {
	s := sc.s
	for i := 0; i < len(s); {
		c := s[i]
		next := i + 1
		if toolStart[c] && (i == 0 || toolBoundary[s[i-1]]) {
			sc.tool(i)
		}
		for _, t := range triggers[c] {
			if hasWordAt(s, i, t.word, t.fold) {
				if n := t.run(sc, i); n > next {
					next = n
				}
			}
		}
		i = next
	}
}

// hasWordAt reports whether s[i:] starts with word (case-folded if fold).
func hasWordAt(s string, i int, word string, fold bool) bool {
	if len(s)-i < len(word) {
		return false
	}
	if !fold {
		return s[i:i+len(word)] == word
	}
	for k := 1; k < len(word); k++ { // the first byte matched by the table
		if lower(s[i+k]) != word[k] {
			return false
		}
	}
	return true
}

// add records [start, end) as a secret of kind, leaving out any marker
// inside it, so a marker is never part of a span.
func (sc *scanner) add(start, end int, kind string, prio uint8) {
	if start >= end {
		return
	}
	if !sc.markersDone {
		sc.markersDone = true
		if strings.Contains(sc.s, markerPrefix) {
			sc.markers = findMarkers(sc.s)
		}
	}
	for _, m := range sc.markers {
		if m[1] <= start {
			continue
		}
		if m[0] >= end {
			break
		}
		if m[0] > start {
			sc.spans = append(sc.spans, span{start, m[0], kind, prio})
		}
		start = m[1]
		if start >= end {
			return
		}
	}
	sc.spans = append(sc.spans, span{start, end, kind, prio})
}

// maxRepeatValues bounds the repeated-value search (each costs one
// strings.Index sweep of the text).
const maxRepeatValues = 32

// addRepeats marks the other occurrences of every secret found, when the
// secret is long and distinctive enough (8 bytes or more, not a plain word)
// that an occurrence is the same secret.
func (sc *scanner) addRepeats() {
	s := sc.s
	n := len(sc.spans)
	searched := 0
outer:
	for k := 0; k < n && searched < maxRepeatValues; k++ {
		sp := sc.spans[k]
		v := s[sp.start:sp.end]
		if len(v) < 8 || plainWord(v) {
			continue
		}
		for _, o := range sc.spans[:k] {
			if s[o.start:o.end] == v {
				continue outer
			}
		}
		searched++
		for off := 0; off < len(s); {
			j := strings.Index(s[off:], v)
			if j < 0 {
				break
			}
			j += off
			if j != sp.start {
				sc.add(j, j+len(v), sp.kind, prioKeyValue)
			}
			off = j + len(v)
		}
	}
}

// plainWord reports whether v is letters only (a word, not a secret worth
// chasing through the text).
func plainWord(v string) bool {
	for i := 0; i < len(v); i++ {
		if !letter[v[i]] {
			return false
		}
	}
	return true
}

// runOf returns the end of the run of bytes in set starting at i.
func runOf(s string, i int, set *[256]bool) int {
	for i < len(s) && set[s[i]] {
		i++
	}
	return i
}

// leftBoundary reports whether a shape may start at i: the byte before is
// not a letter or digit.
func leftBoundary(s string, i int) bool {
	return i == 0 || !alnum[s[i-1]]
}

// runeStartAtOrBefore moves i back to the start of the rune it is in, so a
// cut never splits a UTF-8 sequence.
func runeStartAtOrBefore(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// byteSet builds a membership table.
func byteSet(chars string) [256]bool {
	var t [256]bool
	for i := 0; i < len(chars); i++ {
		t[chars[i]] = true
	}
	return t
}

const (
	lowers = "abcdefghijklmnopqrstuvwxyz"
	uppers = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	digits = "0123456789"
)

var (
	letter     = byteSet(lowers + uppers)
	alnum      = byteSet(lowers + uppers + digits)
	upperDigit = byteSet(uppers + digits)
	b64url     = byteSet(lowers + uppers + digits + "_-")
	alnumUnder = byteSet(lowers + uppers + digits + "_")
	// tokenChars are the characters of an RFC 6750 bearer token.
	tokenChars = byteSet(lowers + uppers + digits + "-._~+/=")
	// hspace is horizontal white space.
	hspace = byteSet(" \t")
	space  = byteSet(" \t\r\n\f\v")
)
