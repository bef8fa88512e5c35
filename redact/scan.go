package redact

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// scanner holds one pass over one text and the spans found so far.
type scanner struct {
	s     string
	spans []span

	markers     [][2]int // marker ranges in s, filled on the first add
	markersDone bool

	// The last run computed by runOf: a run of one class starting anywhere
	// inside it ends at the same place, so triggers repeated inside one run
	// (sk-sk-sk-...) cost nothing more.
	runSet           *[256]bool
	runFrom, runUpto int

	// brackets matches the brackets of s (see closeNested), made when
	// first needed.
	brackets []int32

	// lastTool read the words up to lastToolEnd, ending as it began when
	// lastToolQuiet (see toolArgs).
	lastTool      *toolRule
	lastToolEnd   int
	lastToolQuiet bool

	// valueEnd is the end of the latest key/value or header value span;
	// key-name triggers inside it are skipped (it is redacted already).
	valueEnd int
}

// runOf returns the end of the run of bytes in set starting at i.
func (sc *scanner) runOf(i int, set *[256]bool) int {
	if set == sc.runSet && sc.runFrom <= i && i <= sc.runUpto {
		return sc.runUpto
	}
	e := runOf(sc.s, i, set)
	sc.runSet, sc.runFrom, sc.runUpto = set, i, e
	return e
}

// addValue records a key/value or header value span.
func (sc *scanner) addValue(start, end int, kind string, prio uint8) {
	sc.add(start, end, kind, prio)
	sc.valueEnd = max(sc.valueEnd, end)
}

// rule names the handler a trigger starts.
type rule uint8

const (
	ruleKeyValue rule = iota
	ruleBearer
	ruleURL
	rulePEM
	ruleSlackWebhook
	ruleDiscordWebhook
	ruleTelegram
	ruleJWT
	ruleOpenAI
	ruleStripe
	ruleGitHub
	ruleGitLab
	ruleUpperA
	ruleSlackToken
	ruleGoogleOAuth
	ruleNPM
	ruleHuggingFace
	rulePyPI
	ruleSendGrid
	ruleVault
	ruleDigitalOcean
)

// trigger is a word that starts the work of one rule. fold means ASCII
// case-insensitive (word is then lower case). Every word has at least two
// bytes, so the second byte can reject most candidates cheaply.
type trigger struct {
	word   string
	fold   bool
	second byte // word[1]
	rule   rule
}

// triggers is indexed by the first byte of a trigger word (both cases when
// folded); triggerSecond[first] has bit (second&63) set for each second
// byte, a filter before the list. byteFlags says what may start at a byte:
// a trigger, a tool name, or nothing (most bytes). Built once; read-only
// afterwards.
var (
	triggers      [256][]trigger
	triggerSecond [256]uint64
	byteFlags     [256]uint8
)

const (
	startsTrigger = 1 << iota
	startsTool
)

func init() {
	all := []trigger{
		// key/value rules: the key names a secret
		{word: "pass", fold: true, rule: ruleKeyValue},
		{word: "pwd", fold: true, rule: ruleKeyValue},
		{word: "token", fold: true, rule: ruleKeyValue},
		{word: "secret", fold: true, rule: ruleKeyValue},
		{word: "key", fold: true, rule: ruleKeyValue},
		{word: "credential", fold: true, rule: ruleKeyValue},
		{word: "auth", fold: true, rule: ruleKeyValue},
		{word: "cookie", fold: true, rule: ruleKeyValue},
		{word: "sig", fold: true, rule: ruleKeyValue},
		{word: "bearer", fold: true, rule: ruleBearer},
		// structure
		{word: "://", rule: ruleURL},
		{word: "-----BEGIN ", rule: rulePEM},
		{word: "hooks.slack.com/", fold: true, rule: ruleSlackWebhook},
		{word: "discord", fold: true, rule: ruleDiscordWebhook},
		{word: "telegram.org/bot", rule: ruleTelegram},
		{word: "eyJ", rule: ruleJWT},
		// provider shapes
		{word: "sk-", rule: ruleOpenAI},
		{word: "sk_", rule: ruleStripe},
		{word: "rk_", rule: ruleStripe},
		{word: "pk_", rule: ruleStripe},
		{word: "whsec_", rule: ruleStripe},
		{word: "gh", rule: ruleGitHub},
		{word: "github_pat_", rule: ruleGitHub},
		{word: "gl", rule: ruleGitLab},
		{word: "AK", rule: ruleUpperA},
		{word: "AS", rule: ruleUpperA},
		{word: "AB", rule: ruleUpperA},
		{word: "AC", rule: ruleUpperA},
		{word: "AI", rule: ruleUpperA},
		{word: "AG", rule: ruleUpperA},
		{word: "xox", rule: ruleSlackToken},
		{word: "xapp-", rule: ruleSlackToken},
		{word: "ya29.", rule: ruleGoogleOAuth},
		{word: "npm_", rule: ruleNPM},
		{word: "hf_", rule: ruleHuggingFace},
		{word: "pypi-", rule: rulePyPI},
		{word: "SG.", rule: ruleSendGrid},
		{word: "hv", rule: ruleVault},
		{word: "do", rule: ruleDigitalOcean},
	}
	for _, t := range all {
		t.second = t.word[1]
		firsts := []byte{t.word[0]}
		seconds := []byte{t.second}
		if t.fold {
			firsts = append(firsts, upper(t.word[0]))
			seconds = append(seconds, upper(t.second))
		}
		for _, c := range firsts {
			if len(triggers[c]) > 0 && triggers[c][len(triggers[c])-1].word == t.word {
				continue // a folded word whose first byte has no case
			}
			triggers[c] = append(triggers[c], t)
			byteFlags[c] |= startsTrigger
			for _, c1 := range seconds {
				triggerSecond[c] |= 1 << (c1 & 63)
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
		f := byteFlags[c]
		if f == 0 {
			i++
			continue
		}
		next := i + 1
		if f&startsTool != 0 && (i == 0 || toolBoundary[s[i-1]]) {
			sc.tool(i)
		}
		if f&startsTrigger == 0 || i+1 >= len(s) || triggerSecond[c]&(1<<(s[i+1]&63)) == 0 {
			i = next
			continue
		}
		c1 := s[i+1]
		ts := triggers[c]
		for k := range ts {
			t := &ts[k]
			if t.second != c1 && !(t.fold && t.second == lower(c1)) {
				continue
			}
			if !hasWordAt(s, i, t.word, t.fold) {
				continue
			}
			if t.rule == ruleKeyValue && i < sc.valueEnd {
				continue
			}
			if n := sc.dispatch(t.rule, i); n > next {
				next = n
			}
		}
		i = next
	}
}

// dispatch runs rule r at i and returns where the main loop continues. (A
// switch rather than a table of method values keeps the scanner on the
// stack.)
func (sc *scanner) dispatch(r rule, i int) int {
	switch r {
	case ruleKeyValue:
		return sc.keyValue(i)
	case ruleBearer:
		return sc.bearer(i)
	case ruleURL:
		return sc.urlUserinfo(i)
	case rulePEM:
		return sc.pemBlock(i)
	case ruleSlackWebhook:
		return sc.slackWebhook(i)
	case ruleDiscordWebhook:
		return sc.discordWebhook(i)
	case ruleTelegram:
		return sc.telegramBot(i)
	case ruleJWT:
		return sc.jwt(i)
	case ruleOpenAI:
		return sc.openAI(i)
	case ruleStripe:
		return sc.stripe(i)
	case ruleGitHub:
		return sc.github(i)
	case ruleGitLab:
		return sc.gitlab(i)
	case ruleUpperA:
		return sc.upperA(i)
	case ruleSlackToken:
		return sc.slackToken(i)
	case ruleGoogleOAuth:
		return sc.googleOAuth(i)
	case ruleNPM:
		return sc.npm(i)
	case ruleHuggingFace:
		return sc.huggingFace(i)
	case rulePyPI:
		return sc.pypi(i)
	case ruleSendGrid:
		return sc.sendGrid(i)
	case ruleVault:
		return sc.vault(i)
	case ruleDigitalOcean:
		return sc.digitalOcean(i)
	}
	return i + 1
}

// hasWordAt reports whether s[i:] starts with word (case-folded if fold).
func hasWordAt(s string, i int, word string, fold bool) bool {
	if len(s)-i < len(word) {
		return false
	}
	if !fold {
		return s[i:i+len(word)] == word
	}
	for k := 2; k < len(word); k++ { // the first two bytes matched in run
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
	// The first marker ending after start (markers are sorted and disjoint).
	k, _ := slices.BinarySearchFunc(sc.markers, start, func(m [2]int, start int) int {
		if m[1] <= start {
			return -1
		}
		return 1
	})
	for _, m := range sc.markers[k:] {
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

// maxRepeatValues bounds how many distinct secrets are chased through the
// text.
const maxRepeatValues = 64

// repeatValue is a secret found by a rule, to be looked for elsewhere.
type repeatValue struct {
	text, kind string
	at         int // where the rule found it
}

// addRepeats marks the other occurrences of every secret found, when the
// secret is long and distinctive enough (8 bytes or more, not a plain word)
// that an occurrence is the same secret. A few values are searched with
// strings.Index each; more share one sweep of the text.
func (sc *scanner) addRepeats() {
	s := sc.s
	var vals [maxRepeatValues]repeatValue
	n := 0
outer:
	for _, sp := range sc.spans {
		v := s[sp.start:sp.end]
		if len(v) < 8 || plainWord(v) {
			continue
		}
		for _, o := range vals[:n] {
			if o.text == v {
				continue outer
			}
		}
		vals[n] = repeatValue{v, sp.kind, sp.start}
		if n++; n == len(vals) {
			break
		}
	}
	if n <= 4 {
		for _, rv := range vals[:n] {
			for off := 0; off < len(s); {
				j := strings.Index(s[off:], rv.text)
				if j < 0 {
					break
				}
				j += off
				if j != rv.at {
					sc.add(j, j+len(rv.text), rv.kind, prioKeyValue)
				}
				off = j + len(rv.text)
			}
		}
		return
	}
	// Chain the values by a hash of their first two bytes, then sweep once.
	var head [1 << 12]int8
	var chain [maxRepeatValues]int8
	for h := range head {
		head[h] = -1
	}
	for k := n - 1; k >= 0; k-- {
		h := pairHash(vals[k].text[0], vals[k].text[1])
		chain[k], head[h] = head[h], int8(k)
	}
	for i := 0; i+8 <= len(s); i++ {
		for k := head[pairHash(s[i], s[i+1])]; k >= 0; k = chain[k] {
			rv := &vals[k]
			if i != rv.at && strings.HasPrefix(s[i:], rv.text) {
				sc.add(i, i+len(rv.text), rv.kind, prioKeyValue)
			}
		}
	}
}

// pairHash buckets two bytes into 12 bits.
func pairHash(a, b byte) uint16 {
	return (uint16(a)<<5 ^ uint16(b)) & (1<<12 - 1)
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
