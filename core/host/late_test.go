package host

import (
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// lateCase is one row of testdata/late-input.json: what a host had sent
// (Head) when it stalled with stdin still open.
type lateCase struct {
	Name   string `json:"name"`
	Head   string `json:"head"`
	Expect string `json:"expect"`
	Rule   string `json:"rule"`
	TwinOf string `json:"twin_of"`
	Tool   string `json:"tool"`
	Why    string `json:"why"`
}

// stalls delivers head, then blocks for good with the input still open:
// a host that stopped writing in the middle of its payload.
type stalls struct {
	head string
	done bool
}

func (s *stalls) Read(b []byte) (int, error) {
	if !s.done && s.head != "" {
		s.done = true
		return copy(b, s.head), nil
	}
	select {}
}

// TestLateInput reads each case's stalled payload with
// agenthost.ReadPayload (the wait ends, whatever the machine's load: the
// rest never comes) and checks LateInput's answer: ask with HK-INPUT-LATE
// naming what arrived, or silent for a tool no host's adapter judges.
func TestLateInput(t *testing.T) {
	data, err := os.ReadFile("testdata/late-input.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []lateCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	asks := 0
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			// Ample time for the reading goroutine to take the head; the
			// rest never comes, so the wait always ends.
			const wait = time.Second
			p, raw, err := agenthost.ReadPayload(&stalls{head: c.Head}, wait, nil)
			var late *agenthost.LateError
			if !errors.As(err, &late) || !errors.Is(err, agenthost.ErrIncomplete) {
				t.Fatalf("err = %v, want a *LateError", err)
			}
			if late.Received != int64(len(c.Head)) || late.Ended || string(raw) != c.Head {
				t.Errorf("late = %+v, raw %q; want %d bytes received, input open, raw the head", late, raw, len(c.Head))
			}
			if p.ToolName != c.Tool {
				t.Errorf("partial tool name %q, want %q", p.ToolName, c.Tool)
			}
			for _, lang := range []string{"en", "zh"} {
				out := LateInput(p, late.Received, late.Wait, lang)
				got := "silent"
				if out.Verdict.Decision == core.Ask {
					got = "ask"
				}
				if got != c.Expect {
					t.Fatalf("%s: %s, want %s (%s)", lang, got, c.Expect, c.Why)
				}
				if got == "silent" {
					if out.Text != "" {
						t.Errorf("%s: silent with text %q", lang, out.Text)
					}
					continue
				}
				if len(out.Verdict.Reasons) != 1 || out.Verdict.Reasons[0].Rule != c.Rule || out.Verdict.Reasons[0].Layer != "host" {
					t.Fatalf("%s: reasons %+v, want one %s reason of layer host", lang, out.Verdict.Reasons, c.Rule)
				}
				if want := strconv.Itoa(len(c.Head)) + " "; !strings.Contains(out.Text, want) {
					t.Errorf("%s: %q does not give the byte count %d", lang, out.Text, len(c.Head))
				}
				if !strings.HasPrefix(out.Text, "[zcode-fence: ") {
					t.Errorf("%s: %q lacks the marker", lang, out.Text)
				}
			}
		})
		if c.Expect == "ask" {
			asks++
		}
	}
	if asks < 5 || len(cases)-asks < 2 {
		t.Fatalf("%d asks and %d twins: the table is too thin", asks, len(cases)-asks)
	}
	if !rules.HostInputLate.Locked {
		t.Error("HK-INPUT-LATE can be switched off with disabled_rules: input could then force silence")
	}
}
