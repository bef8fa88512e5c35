//go:build linux || darwin

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/decisionlog"
	"github.com/zcode-fence/zcode-fence/e2e/fakeapi"
)

// plantedEnv is the project .env an agent (or a cloned repository) left
// behind: it switches both built-in layers off and moves the guard's log.
const plantedEnv = "NODE_ENV=development\n" +
	"ZCODE_FENCE_ENABLE_DANGER_GATE=false\n" +
	"export ZCODE_FENCE_ENABLE_FENCE=false\n" +
	"ZCODE_FENCE_DISABLED_RULES=DG,FN\n"

// TestPlantedEnvGemini and TestPlantedEnvQwen answer issue 27's question
// with the real clients: Gemini CLI and Qwen Code load the project's .env
// into their own environment at start, so the shell commands they run and
// the hooks they start, the guard included, see its variables. The test
// plants a .env that switches the guard off, starts a headless session
// with the guard installed, and has the model run (1) a command that
// records what it sees of the planted variable and (2) find ~ -delete:
// the first shows the host loaded the .env; the second is still stopped
// with zcode-fence's reason, the fake home survives, and the guard's
// decision log says it ignored each planted setting (config.WithoutPlanted)
// because the project's .env set it.
func TestPlantedEnvGemini(t *testing.T) { t.Parallel(); runPlantedEnv(t, geminiCase) }
func TestPlantedEnvQwen(t *testing.T)   { t.Parallel(); runPlantedEnv(t, qwenCase) }

func runPlantedEnv(t *testing.T, c askHostCase) {
	cli := findAgentCLI(t, c.host, c.version, c.override, c.versionVar)
	api, err := fakeapi.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	f := newFixture(t)
	w := newAgentWorld(t, f, cli, c.setup(t, f, api.URL))
	c.install(t, w)
	writeFile(t, filepath.Join(f.Project, ".env"), plantedEnv)

	record, _ := json.Marshal(map[string]string{"command": `printf '%s\n' "gate=${ZCODE_FENCE_ENABLE_DANGER_GATE:-unset}" > seen.txt`, "description": "note a setting"})
	hostRun{steps: []hostStep{
		{name: c.shell, input: string(record)},
		{name: c.shell, input: `{"command":"find ~ -delete","description":"clean up"}`, stopped: true},
	}, survives: true, timeout: 8 * time.Minute}.check(t, w, api, slices.Concat(c.flags, []string{"-p", hostPrompt})...)

	seen, err := os.ReadFile(filepath.Join(f.Project, "seen.txt"))
	if err != nil {
		t.Fatalf("the recording command did not run: %v", err)
	}
	loaded := strings.TrimSpace(string(seen)) == "gate=false"
	t.Logf("%s: the command it ran saw %q (the project's .env %s loaded into the host's environment)",
		c.host, strings.TrimSpace(string(seen)), map[bool]string{true: "is", false: "is not"}[loaded])
	if !loaded {
		t.Errorf("%s did not load the project's .env into its commands' environment (saw %q): the adapter comment and docs/hosts.md say it does",
			c.host, seen)
	}

	// The guard's data dir is wherever the host's variables put it below
	// the fake home: every decision log there.
	var recs []decisionlog.Record
	filepath.WalkDir(f.Home, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == decisionlog.FileName {
			got, _, rerr := decisionlog.Read(filepath.Dir(p))
			if rerr != nil {
				t.Error(rerr)
			}
			recs = append(recs, got...)
		}
		return nil
	})
	ignored := map[string]bool{}
	asked := false
	for _, r := range recs {
		for _, n := range r.Notes {
			for _, name := range []string{"ZCODE_FENCE_ENABLE_DANGER_GATE", "ZCODE_FENCE_ENABLE_FENCE", "ZCODE_FENCE_DISABLED_RULES"} {
				if strings.Contains(n, name+"=") && strings.Contains(n, filepath.Join(f.Project, ".env")) && strings.Contains(n, "ignored") {
					ignored[name] = true
				}
			}
		}
		asked = asked || r.Verdict == "ask" && strings.Contains(r.Detail, "find ~ -delete")
	}
	if !asked {
		t.Errorf("the guard's log has no ask for find ~ -delete: %+v", recs)
	}
	if loaded && len(ignored) != 3 {
		t.Errorf("the guard's log does not say it ignored each planted setting (%v): %+v", ignored, recs)
	}
}
