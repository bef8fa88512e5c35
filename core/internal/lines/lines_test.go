package lines

import (
	"strings"
	"testing"
)

func TestEach(t *testing.T) {
	long := strings.Repeat("x", 100)
	cases := []struct {
		in      string
		want    []string
		skipped int
	}{
		{"a\nb\n", []string{"a", "b"}, 0},
		{"a\r\nb", []string{"a", "b"}, 0},
		{"", nil, 0},
		{"\n\n", []string{"", ""}, 0},
		{"a\n" + long + "\nb\n", []string{"a", "b"}, 1},
		{long + long + "\nc", []string{"c"}, 1},
		{"a\n" + long, []string{"a"}, 1},
	}
	for _, tc := range cases {
		var got []string
		skipped, err := Each(strings.NewReader(tc.in), 32, func(l []byte) { got = append(got, string(l)) })
		if err != nil || skipped != tc.skipped || strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("Each(%.20q) = %q skipped %d err %v; want %q skipped %d", tc.in, got, skipped, err, tc.want, tc.skipped)
		}
	}
}
