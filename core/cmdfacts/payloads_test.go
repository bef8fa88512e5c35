package cmdfacts_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/shell"
)

type payloadCase struct {
	Command string `json:"command"`
	Stdin   string `json:"stdin"`
	// Want lists the payloads as "VIA: TEXT" (a command line), "VIA:
	// argv A B" (an argv), "VIA: stdin" or "VIA: file F".
	Want []string `json:"want"`
	Why  string   `json:"why"`
}

func showPayload(p cmdfacts.Payload) string {
	switch {
	case p.Line != nil:
		if p.Line.Unknown {
			return p.Via + ": <?" + p.Line.Value + "?>"
		}
		return p.Via + ": " + p.Line.Value
	case len(p.Argv) > 0:
		return p.Via + ": argv " + strings.Join(shown(p.Argv), " ")
	case p.File != nil:
		return p.Via + ": file " + p.File.Raw
	}
	return p.Via + ": stdin " + p.Lang
}

// TestPayloads runs testdata/payloads.json: the commands programs run for
// their caller in their own syntax, and git's command-valued settings.
func TestPayloads(t *testing.T) {
	for _, tc := range load[payloadCase](t, "payloads.json") {
		t.Run(tc.Command, func(t *testing.T) {
			c := command(t, tc.Command)
			var stdin *shell.Word
			if tc.Stdin != "" {
				w := cmdfacts.Literal(tc.Stdin)
				stdin = &w
			}
			ps := cmdfacts.Payloads(c, stdin)
			if g, ok := cmdfacts.GitCommand(c); ok {
				ps = append(ps, cmdfacts.GitPayloads(g)...)
			}
			got := make([]string, 0, len(ps))
			for _, p := range ps {
				got = append(got, showPayload(p))
			}
			want := tc.Want
			if want == nil {
				want = []string{}
			}
			if !slices.Equal(got, want) {
				t.Errorf("got  %q\nwant %q (%s)", got, want, tc.Why)
			}
		})
	}
}

type makeCase struct {
	Text string   `json:"text"`
	Want []string `json:"want"`
}

// TestMakeCommands runs testdata/make.json through MakeCommands.
func TestMakeCommands(t *testing.T) {
	for _, tc := range load[makeCase](t, "make.json") {
		got := cmdfacts.MakeCommands(tc.Text)
		if got == nil {
			got = []string{}
		}
		want := tc.Want
		if want == nil {
			want = []string{}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q:\n got  %q\n want %q", tc.Text, got, want)
		}
	}
}
