package cmdfacts_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
)

type infraCase struct {
	Command   string   `json:"command"`
	Detail    string   `json:"detail"` // "": not an operation
	Targets   []string `json:"targets"`
	Namespace string   `json:"namespace"`
	Context   string   `json:"context"`
	Why       string   `json:"why"`
}

func wordValue(w *ir.Word) string {
	if w == nil {
		return ""
	}
	return w.Value
}

// TestInfra runs testdata/infra.json through cmdfacts.Infra: which
// invocations destroy infrastructure or data in bulk, their detail and
// targets, read the way each CLI reads its command line.
func TestInfra(t *testing.T) {
	for _, tc := range load[infraCase](t, "infra.json") {
		t.Run(tc.Command, func(t *testing.T) {
			c := command(t, tc.Command)
			op, ok := cmdfacts.Infra(c.Name, c.Args[1:])
			if !ok {
				if tc.Detail != "" {
					t.Fatalf("not an operation, want %q", tc.Detail)
				}
				return
			}
			if tc.Detail == "" {
				t.Fatalf("read as %q %q, want no operation (%s)", op.Detail, shown(op.Targets), tc.Why)
			}
			if op.Detail != tc.Detail || !slices.Equal(shown(op.Targets), tc.Targets) && len(op.Targets)+len(tc.Targets) > 0 {
				t.Errorf("got %q %q, want %q %q", op.Detail, shown(op.Targets), tc.Detail, tc.Targets)
			}
			if wordValue(op.Namespace) != tc.Namespace || wordValue(op.Context) != tc.Context {
				t.Errorf("namespace %q context %q, want %q %q", wordValue(op.Namespace), wordValue(op.Context), tc.Namespace, tc.Context)
			}
		})
	}
}

type dbCase struct {
	Command  string   `json:"command"`
	None     bool     `json:"none"`
	Scripts  []string `json:"scripts"`
	Stdin    bool     `json:"stdin"`
	Host     string   `json:"host"`
	Database string   `json:"database"`
	File     string   `json:"file"`
	Drops    []string `json:"drops"`
	// ScriptFiles and Input, when given: the script files and the words
	// kept to run one script's text from the input (DBClient.InputArgs).
	ScriptFiles []string `json:"script_files"`
	Input       []string `json:"input"`
	Why         string   `json:"why"`
}

// TestParseDBClient runs testdata/datastores.json: what a database
// client's command line runs, where, and whether it reads its input.
func TestParseDBClient(t *testing.T) {
	for _, tc := range load[dbCase](t, "datastores.json") {
		t.Run(tc.Command, func(t *testing.T) {
			c := command(t, tc.Command)
			db, ok := cmdfacts.ParseDBClient(c.Name, c.Args[1:])
			if ok == tc.None {
				t.Fatalf("read: %v, want %v", ok, !tc.None)
			}
			if !ok {
				return
			}
			if got := shown(db.Scripts); !slices.Equal(got, tc.Scripts) && len(got)+len(tc.Scripts) > 0 {
				t.Errorf("scripts %q, want %q", got, tc.Scripts)
			}
			if db.ReadsStdin != tc.Stdin {
				t.Errorf("reads stdin %v, want %v", db.ReadsStdin, tc.Stdin)
			}
			if wordValue(db.Host) != tc.Host || wordValue(db.Database) != tc.Database || wordValue(db.File) != tc.File {
				t.Errorf("host %q database %q file %q, want %q %q %q", wordValue(db.Host), wordValue(db.Database), wordValue(db.File), tc.Host, tc.Database, tc.File)
			}
			if got := shown(db.Drops); !slices.Equal(got, tc.Drops) && len(got)+len(tc.Drops) > 0 {
				t.Errorf("drops %q, want %q", got, tc.Drops)
			}
			if got := shown(db.ScriptFiles); tc.ScriptFiles != nil && !slices.Equal(got, tc.ScriptFiles) && len(got)+len(tc.ScriptFiles) > 0 {
				t.Errorf("script files %q, want %q", got, tc.ScriptFiles)
			}
			if tc.Input != nil {
				var kept []ir.Word
				for _, k := range db.InputArgs {
					kept = append(kept, c.Args[1+k])
				}
				if got := shown(kept); !slices.Equal(got, tc.Input) && len(got)+len(tc.Input) > 0 {
					t.Errorf("input args %q, want %q", got, tc.Input)
				}
			}
		})
	}
}

type lossCase struct {
	Engine string   `json:"engine"`
	Text   string   `json:"text"`
	Losses []string `json:"losses"` // "OP" or "OP TARGET"
	Lines  []int    `json:"lines"`  // the losses' lines, when given
	Why    string   `json:"why"`
}

// TestLosses runs testdata/losses.json through SQLLosses, RedisLosses and
// MongoLosses.
func TestLosses(t *testing.T) {
	for _, tc := range load[lossCase](t, "losses.json") {
		t.Run(tc.Text, func(t *testing.T) {
			var ls []cmdfacts.Loss
			switch tc.Engine {
			case "sql":
				ls = cmdfacts.SQLLosses(tc.Text)
			case "redis":
				ls = cmdfacts.RedisLosses(tc.Text)
			case "mongo":
				ls = cmdfacts.MongoLosses(tc.Text)
			default:
				t.Fatalf("engine %q", tc.Engine)
			}
			got := []string{}
			for _, l := range ls {
				s := l.Op
				if l.Target != "" {
					s += " " + l.Target
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tc.Losses) {
				t.Errorf("losses %q, want %q (%s)", got, tc.Losses, tc.Why)
			}
			if tc.Lines != nil {
				var lines []int
				for _, l := range ls {
					lines = append(lines, l.Line)
				}
				if !slices.Equal(lines, tc.Lines) {
					t.Errorf("lines %v, want %v (%s)", lines, tc.Lines, tc.Why)
				}
			}
		})
	}
}

// TestNames: the local-cluster contexts, production-like and disposable
// names.
func TestNames(t *testing.T) {
	for _, c := range []struct {
		name                       string
		local, production, dispose bool
	}{
		{"kind-dev", true, false, true},
		{"minikube", true, false, false},
		{"k3d-test", true, false, true},
		{"prod-eu", false, true, false},
		{"production", false, true, false},
		{"myapp_test", false, false, true},
		{"test_prod", false, true, false},
		{"devops", false, false, false},
		{"staging", false, false, false},
		{"Live", false, true, false},
	} {
		if got := cmdfacts.LocalKubeContext(c.name); got != c.local {
			t.Errorf("LocalKubeContext(%q) = %v", c.name, got)
		}
		if got := cmdfacts.ProductionLike(c.name); got != c.production {
			t.Errorf("ProductionLike(%q) = %v", c.name, got)
		}
		if got := cmdfacts.DisposableName(c.name); got != c.dispose {
			t.Errorf("DisposableName(%q) = %v", c.name, got)
		}
	}
}

// FuzzLosses: the classifiers never panic or loop on any text, and every
// loss they report names an operation (seeds: testdata/losses.json).
func FuzzLosses(f *testing.F) {
	for _, c := range load[lossCase](f, "losses.json") {
		f.Add(c.Text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, ls := range [][]cmdfacts.Loss{cmdfacts.SQLLosses(text), cmdfacts.RedisLosses(text), cmdfacts.MongoLosses(text)} {
			for _, l := range ls {
				if l.Op == "" {
					t.Fatalf("a loss without an operation in %q: %+v", text, l)
				}
			}
		}
	})
}

// BenchmarkLossesCrafted: the classifiers stay linear on crafted text
// (many MySQL executable comments, many dropDatabase calls, many dollar
// quotes).
func BenchmarkLossesCrafted(b *testing.B) {
	texts := []string{
		strings.Repeat("/*!1 x */", 1<<15),
		strings.Repeat("db.x.dropDatabase() ", 1<<15),
		strings.Repeat("$a$ ", 1<<15),
		strings.Repeat("DO $$ DO $$ ", 1<<14),
	}
	for b.Loop() {
		for _, t := range texts {
			cmdfacts.SQLLosses(t)
			cmdfacts.MongoLosses(t)
		}
	}
}

type includeCase struct {
	Text     string   `json:"text"`
	Includes []string `json:"includes"` // "LINE PATH", "LINE PATH relative"
	Why      string   `json:"why"`
}

// TestSQLIncludes runs testdata/sqlincludes.json: the script files SQL
// text runs through client commands.
func TestSQLIncludes(t *testing.T) {
	for _, tc := range load[includeCase](t, "sqlincludes.json") {
		t.Run(tc.Text, func(t *testing.T) {
			got := []string{}
			for _, inc := range cmdfacts.SQLIncludes(tc.Text) {
				s := strconv.Itoa(inc.Line) + " " + inc.Path
				if inc.Relative {
					s += " relative"
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tc.Includes) {
				t.Errorf("includes %q, want %q (%s)", got, tc.Includes, tc.Why)
			}
		})
	}
}
