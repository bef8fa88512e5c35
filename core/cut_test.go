package core

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCutMarked(t *testing.T) {
	for _, tc := range []struct {
		in    string
		limit int
		want  string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{strings.Repeat("a", 20), 5, "aaaaa…[cut 15 bytes]"},
		{"語語語", 4, "語…[cut 6 bytes]"}, // never inside a character
		{"abc", 0, "…[cut 3 bytes]"},
	} {
		got := CutMarked(tc.in, tc.limit)
		if got != tc.want || !utf8.ValidString(got) {
			t.Errorf("CutMarked(%q, %d) = %q, want %q", tc.in, tc.limit, got, tc.want)
		}
	}
}
