package main

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/host"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/plugins"
	"github.com/zcode-fence/zcode-fence/plugins/danger"
	"github.com/zcode-fence/zcode-fence/plugins/fence"
)

// benchCommands is the mixed corpus the layer benchmark judges: every Bash
// case of the bypass corpus (asks and silent twins) and the danger gate's
// everyday commands.
func benchCommands(b *testing.B) []string {
	b.Helper()
	cases, err := readBypassCorpus()
	if err != nil {
		b.Fatal(err)
	}
	var out []string
	for _, c := range cases {
		if c.tool() == "Bash" && c.Platform == "" {
			out = append(out, c.Command)
		}
	}
	f, err := os.Open("../../plugins/danger/testdata/everyday.txt")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	if len(out) < 200 {
		b.Fatalf("only %d commands", len(out))
	}
	return out
}

// BenchmarkAnalyseDangerFence is what one Bash call costs the built-in
// layers in-process: the host's preparation (shell analysis, roots) and
// both deterministic layers' Decide, per command of a mixed corpus of
// several hundred. Reported as ns/command; the target is ≤ 30 µs.
func BenchmarkAnalyseDangerFence(b *testing.B) {
	cmds := benchCommands(b)
	project := b.TempDir()
	env := config.Env{Lookup: func(k string) (string, bool) {
		switch k {
		case "ZCODE_PROJECT_DIR":
			return project, true
		case "ZCODE_FENCE_CONFIG":
			return "/nonexistent/config.json", true
		}
		return os.LookupEnv(k)
	}, Home: config.HomeDir(os.LookupEnv)}
	cfg := plugins.Schema.Load(env)
	plat := paths.Native()
	payloads := make([]agenthost.Payload, len(cmds))
	for i, c := range cmds {
		p, err := agenthost.DecodeFor(agenthost.MarshalPayload("Bash", map[string]string{"command": c}, project), agenthost.Default())
		if err != nil {
			b.Fatal(err)
		}
		payloads[i] = p
	}
	layers := []core.Layer{danger.New(), fence.New()}
	opts := map[string]string{config.KeyLanguage: "zh"}
	ctx := context.Background()
	data := b.TempDir()
	b.ResetTimer()
	for b.Loop() {
		for _, p := range payloads {
			prep, err := host.Prepare(p, env, plat, cfg, data, time.Now())
			if err != nil {
				b.Fatal(err)
			}
			prep.Call.Options = opts
			for _, l := range layers {
				if _, err := l.Decide(ctx, prep.Call); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(payloads)), "ns/command")
	b.ReportMetric(float64(len(payloads)), "commands")
}
