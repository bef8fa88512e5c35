package cmdfacts_test

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

// globRegexp is the translation find's name tests went through before
// fnmatch, kept here as fnmatch's oracle: the pattern as a regular
// expression (ok false for a bad pattern). byteWise translates as the
// removed code did, each byte outside brackets a character of its own
// (so "é" became "Ã©"); otherwise each rune is one, and a pattern that is
// not UTF-8 is bad.
func globRegexp(pattern string, fold, byteWise bool) (string, bool) {
	if !byteWise && !utf8.ValidString(pattern) {
		return "", false
	}
	var sb strings.Builder
	if fold {
		sb.WriteString("(?is)^")
	} else {
		sb.WriteString("(?s)^")
	}
	lit := func(i int) int { // writes the character at i, returns its length
		if byteWise {
			sb.WriteString(regexp.QuoteMeta(string(rune(pattern[i]))))
			return 1
		}
		r, n := utf8.DecodeRuneInString(pattern[i:])
		sb.WriteString(regexp.QuoteMeta(string(r)))
		return n
	}
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; c {
		case '*':
			sb.WriteString(".*")
		case '?':
			sb.WriteString(".")
		case '\\':
			if i+1 < len(pattern) {
				i++
			}
			if byteWise {
				sb.WriteString(regexp.QuoteMeta(pattern[i : i+1]))
			} else {
				i += lit(i) - 1
			}
		case '[':
			end := strings.IndexByte(pattern[i+1:], ']')
			if end == 0 && i+2 < len(pattern) {
				end = strings.IndexByte(pattern[i+2:], ']') + 1
			}
			if end < 0 {
				return "", false
			}
			class := pattern[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			sb.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			i += lit(i) - 1
		}
	}
	sb.WriteString("$")
	return sb.String(), true
}

// globOracle matches s against pattern through globRegexp.
func globOracle(pattern, s string, fold, byteWise bool) (match, ok bool) {
	src, good := globRegexp(pattern, fold, byteWise)
	if !good {
		return false, false
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return false, false
	}
	return re.MatchString(s), true
}

// fnmatchCase is a line of testdata/fnmatch.json: a pattern, a name,
// whether case folds, fnmatch's answer (bad: not ok), and, where it
// differs, the removed byte-wise translation's answer (old).
type fnmatchCase struct {
	Pattern, Name string
	Fold          bool
	Match, Bad    bool
	Old           *struct{ OK, Match bool }
	Why           string
}

// TestFnmatch runs testdata/fnmatch.json through fnmatch, and through
// the translation it replaced: each difference from that is on the line.
func TestFnmatch(t *testing.T) {
	for _, c := range load[fnmatchCase](t, "fnmatch.json") {
		match, ok := cmdfacts.Fnmatch(c.Pattern, c.Name, c.Fold)
		if ok != !c.Bad || match != c.Match {
			t.Errorf("cmdfacts.Fnmatch(%q, %q, fold %v) = %v, ok %v; want %v, ok %v (%s)", c.Pattern, c.Name, c.Fold, match, ok, c.Match, !c.Bad, c.Why)
		}
		wantOK, wantMatch := !c.Bad, c.Match
		if c.Old != nil {
			wantOK, wantMatch = c.Old.OK, c.Old.Match
		}
		if m, good := globOracle(c.Pattern, c.Name, c.Fold, true); good != wantOK || m != wantMatch {
			t.Errorf("old translation of %q on %q (fold %v) = %v, ok %v; the case says %v, ok %v", c.Pattern, c.Name, c.Fold, m, good, wantMatch, wantOK)
		}
	}
}

// TestFnmatchInvalidUTF8 covers what JSON cannot carry: a name that is
// not UTF-8 is read a byte (U+FFFD) at a time; a pattern that is not is
// bad.
func TestFnmatchInvalidUTF8(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		match, ok     bool
	}{
		{"?", "\xff", true, true},
		{"a?", "a\xff\xfe", false, true},
		{"a??", "a\xff\xfe", true, true},
		{"*.o", "\xff.o", true, true},
		{"\ufffd", "\xff", true, true},
		{"*\ufffd", "x\xff", true, true},
		{"*.\ufffd", "x\xff", false, true},
		{"[\ufffd]", "\xfe", true, true},
		{"\xff", "\xff", false, false},
		{"[\xff]", "a", false, false},
	} {
		if m, ok := cmdfacts.Fnmatch(c.pattern, c.name, false); m != c.match || ok != c.ok {
			t.Errorf("cmdfacts.Fnmatch(%q, %q) = %v, ok %v; want %v, ok %v", c.pattern, c.name, m, ok, c.match, c.ok)
		}
		if m, ok := globOracle(c.pattern, c.name, false, false); m != c.match || ok != c.ok {
			t.Errorf("oracle(%q, %q) = %v, ok %v; want %v, ok %v", c.pattern, c.name, m, ok, c.match, c.ok)
		}
	}
}

// globNewReading reports whether a bracket of pattern (as fnmatch reads
// them) holds what the regular expression translation did not read as
// find does: a "]" right after the negation ("[!]]"), a POSIX class,
// collating element or equivalence class ("[[:upper:]]", "[[.a.]]").
func globNewReading(pattern string) bool {
	for at, next, content, ok := cmdfacts.GlobNextBracket(pattern, 0); at >= 0; at, next, content, ok = cmdfacts.GlobNextBracket(pattern, next) {
		if !ok {
			content = pattern[at+1:] // a bracket that does not end: the rest
		}
		if strings.HasPrefix(content, "!]") || strings.HasPrefix(content, "^]") ||
			strings.Contains(content, "[:") || strings.Contains(content, "[.") || strings.Contains(content, "[=") {
			return true
		}
		if !ok {
			return false
		}
	}
	return false
}

// TestFnmatchDifferential checks fnmatch against the rune-wise regular
// expression translation on generated patterns and names, with and
// without folding: both read a pattern or neither, and answer alike for
// every name, unless a bracket of the pattern is one the translation
// read otherwise than find (globNewReading: classes, "[!]]"), which
// testdata/fnmatch.json covers.
func TestFnmatchDifferential(t *testing.T) {
	tokens := []string{"*", "*", "?", "a", "b", "z", "A", ".", "/", "-", "-", "!", "^", "]", "[", `\`, ":", "é", "É", "k", "K", "\u212a", "ſ", "s",
		"[a-z]", "[!a]", "[^b]", "[]a]", "[a-]", "[z-a]", "[:alpha:", "[[:alpha:]]", `\*`, `\[`, "[é-ê]", "[A-Z]", "[!]]", `[\]`, "**", "[k]", "[!s-t]", "\xff", "\ufffd"}
	letters := []string{"a", "b", "z", "A", "B", "Z", ".", "/", "-", "!", "^", "]", "[", `\`, ":", "é", "É", "ê", "k", "K", "\u212a", "ſ", "s", "S", "*", "?", "\n", "\xff", "\ufffd"}
	rng := rand.New(rand.NewPCG(29, 2))
	pick := func(from []string, n int) string {
		var sb strings.Builder
		for range n {
			sb.WriteString(from[rng.IntN(len(from))])
		}
		return sb.String()
	}
	patterns, pairs, okPairs, matched, newReading := 30000, 0, 0, 0, 0
	if testing.Short() {
		patterns = 3000
	}
	for range patterns {
		pattern := pick(tokens, rng.IntN(8))
		// Names: random ones, and the pattern with its operators replaced
		// by letters (likely to match), and that with a letter changed.
		plain := strings.Map(func(r rune) rune {
			if strings.ContainsRune(`*?[]\!^`, r) {
				return []rune("abk.-")[rng.IntN(5)]
			}
			return r
		}, pattern)
		names := []string{pick(letters, rng.IntN(6)), pick(letters, rng.IntN(3)), plain, strings.ToUpper(plain), plain + pick(letters, 1), pick(letters, 1) + plain}
		for _, fold := range []bool{false, true} {
			src, good := globRegexp(pattern, fold, false)
			var re *regexp.Regexp
			if good {
				var err error
				if re, err = regexp.Compile(src); err != nil {
					re = nil
				}
			}
			for _, name := range names {
				pairs++
				m, ok := cmdfacts.Fnmatch(pattern, name, fold)
				switch {
				case globNewReading(pattern):
					newReading++
				case ok && re == nil:
					t.Errorf("fnmatch reads %q (fold %v), the translation does not", pattern, fold)
				case ok && m != re.MatchString(name):
					t.Errorf("cmdfacts.Fnmatch(%q, %q, fold %v) = %v, the translation says %v", pattern, name, fold, m, !m)
				case !ok && re != nil:
					t.Errorf("fnmatch refuses %q (fold %v), the translation reads it", pattern, fold)
				case ok:
					okPairs++
					if m {
						matched++
					}
				}
			}
		}
	}
	t.Logf("%d pairs, %d read by both, %d of them matching; %d with a bracket the translation read otherwise", pairs, okPairs, matched, newReading)
	if okPairs < pairs/4 || matched < okPairs/10 {
		t.Fatalf("generated cases exercise too little: %d pairs, %d read, %d matching", pairs, okPairs, matched)
	}
}

// TestFnmatchAllocs holds fnmatch to its contract: no allocation.
func TestFnmatchAllocs(t *testing.T) {
	for _, p := range []string{"*.o", "*/.git/*", "[!a-z]*[]x]?", "K*", `a\*b*`} {
		for _, fold := range []bool{false, true} {
			if n := testing.AllocsPerRun(100, func() { cmdfacts.Fnmatch(p, "proj/.git/objects/pack/Kx.pack", fold) }); n != 0 {
				t.Errorf("cmdfacts.Fnmatch(%q, fold %v) allocates %v times a match", p, fold, n)
			}
		}
	}
}

// BenchmarkFindMatch matches everyday name-test patterns against the
// entries Lists imagines: fnmatch, and the way find's name tests matched
// before (regexp: a look-up in a read-locked cache of compiled regular
// expressions, filled outside the loop, then MatchString).
func BenchmarkFindMatch(b *testing.B) {
	names := []string{".git", "pack-4b825dc642cb6eb9a060e54bf8d69288fbee4904.pack", "packed-refs", "main.o", "mod.pyc"}
	for _, p := range []string{"*.o", "*.pyc", "node_modules", ".git", "*~"} {
		b.Run("fnmatch/"+p, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, n := range names {
					cmdfacts.Fnmatch(p, n, false)
				}
			}
		})
		b.Run("regexp/"+p, func(b *testing.B) {
			type key struct {
				expr       string
				glob, fold bool
			}
			var cache struct {
				sync.RWMutex
				m map[key]*regexp.Regexp
			}
			src, _ := globRegexp(p, false, true)
			cache.m = map[key]*regexp.Regexp{{p, true, false}: regexp.MustCompile(src)}
			b.ReportAllocs()
			for b.Loop() {
				for _, n := range names {
					cache.RLock()
					re := cache.m[key{p, true, false}]
					cache.RUnlock()
					re.MatchString(n)
				}
			}
		})
	}
}
