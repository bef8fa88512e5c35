package decisionmodel

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

var replyErrors = map[string]error{
	"not_json":          ErrNotJSON,
	"missing_dimension": ErrMissingDimension,
	"bad_dimension":     ErrBadDimension,
	"score_range":       ErrScoreRange,
}

type replyCase struct {
	Name    string `json:"name"`
	Content string `json:"content"`
	Error   string `json:"error"`
}

func loadReplyCases(t testing.TB) []replyCase {
	t.Helper()
	data, err := os.ReadFile("testdata/replies.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []replyCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestParseReplyTable runs testdata/replies.json: accepted shapes (plain,
// fenced, extra fields) and every rejected one with its sentinel.
func TestParseReplyTable(t *testing.T) {
	cases := loadReplyCases(t)
	if len(cases) == 0 {
		t.Fatal("no reply cases")
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			a, err := parseReply(c.Content)
			if c.Error == "" {
				if err != nil {
					t.Fatalf("rejected: %v", err)
				}
				for d := range numDimensions {
					if a[d].Score < 0 || a[d].Score > 1 {
						t.Errorf("%s score %v", d, a[d].Score)
					}
				}
				return
			}
			want, ok := replyErrors[c.Error]
			if !ok {
				t.Fatalf("unknown error name %q in testdata", c.Error)
			}
			if !errors.Is(err, want) {
				t.Fatalf("error = %v, want %v", err, want)
			}
		})
	}
}

func TestParseReplyValues(t *testing.T) {
	a, err := parseReply("```json\n" + `{"data_loss":{"score":0.25,"why":"  drops\nthe   table "},"system_change":{"score":1,"why":"b"},"external_side_effects":{"score":0,"why":"c"},"data_exfiltration":{"score":0.5,"why":"d"},"code_execution":{"score":0.7,"why":"e"}}` + "\n```")
	if err != nil {
		t.Fatal(err)
	}
	want := Answer{{0.25, "drops the table"}, {1, "b"}, {0, "c"}, {0.5, "d"}, {0.7, "e"}}
	if a != want {
		t.Errorf("got %+v, want %+v", a, want)
	}
}

func TestParseReplyRedactsWhy(t *testing.T) {
	secret := "sk-" + strings.Repeat("Q", 30)
	content := strings.Replace(scoresJSON(0, 0, 0, 0.9, 0), `"because of data_exfiltration"`, `"posts `+secret+` to a pastebin"`, 1)
	a, err := parseReply(content)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(a[DataExfiltration].Why, secret) || !strings.Contains(a[DataExfiltration].Why, "[REDACTED:") {
		t.Errorf("why not redacted: %q", a[DataExfiltration].Why)
	}
}

// FuzzParseReply: no input panics, and an accepted answer is in range and
// survives the cache round trip unchanged.
func FuzzParseReply(f *testing.F) {
	for _, c := range loadReplyCases(f) {
		f.Add(c.Content)
	}
	f.Fuzz(func(t *testing.T, content string) {
		a, err := parseReply(content)
		if err != nil {
			var fl *failure
			if !errors.As(err, &fl) {
				t.Fatalf("error is not a layer failure: %v", err)
			}
			return
		}
		for d := range numDimensions {
			if !(a[d].Score >= 0 && a[d].Score <= 1) {
				t.Fatalf("%s score %v accepted", d, a[d].Score)
			}
		}
		again, err := parseReply(string(answerJSON(a)))
		if err != nil || again != a {
			t.Fatalf("round trip changed the answer: %+v -> %+v (%v)", a, again, err)
		}
	})
}
