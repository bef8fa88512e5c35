package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDisabledRulesEndToEnd runs the built binary with disabled_rules set
// through the environment, in both isolation modes: switched-off rules no
// longer ask, the others still do, and the catastrophic core cannot be
// switched off. The commands are data, sent as JSON on stdin; the reasons
// are checked by the commands they name.
func TestDisabledRulesEndToEnd(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	cases := []struct {
		command, off, want string
		mentions, absent   []string
	}{
		{command: "kubectl delete namespace production", want: "ask", mentions: []string{"kubectl delete namespace"}},
		{command: "kubectl delete namespace production", off: "DG-K8S-DELETE", want: "silent"},
		{command: "kubectl delete namespace production", off: " infra ", want: "silent"},
		{command: "psql -c 'DROP DATABASE prod'", off: "dg-db-destroy", want: "silent"},
		{command: "git reset --hard && kubectl delete ns prod", off: "infra", want: "ask",
			mentions: []string{"git reset"}, absent: []string{"kubectl"}},
		{command: "git reset --hard", off: "git", want: "silent"},
		{command: "rm -rf /", off: "delete;DG-RM-RECURSIVE;fence;protect", want: "ask", mentions: []string{"rm "}},
		{command: "mkfs.ext4 /dev/sda1", off: "disk", want: "ask", mentions: []string{"mkfs.ext4"}},
	}
	for _, mode := range []string{"process", "inprocess"} {
		for _, c := range cases {
			env := s.env("", false, "ZCODE_FENCE_LAYER_ISOLATION="+mode, "ZCODE_FENCE_DISABLED_RULES="+c.off)
			r := runHook(t, env, s.project, hookPayload("Bash", c.command, s.project, "disabled-rules", false))
			got, reason := checkAnswer(r)
			if got != c.want {
				t.Errorf("[%s] %q with %q: %s (%s), want %s", mode, c.command, c.off, got, reason, c.want)
				continue
			}
			for _, m := range c.mentions {
				if !strings.Contains(reason, m) {
					t.Errorf("[%s] %q with %q: reason lacks %q: %s", mode, c.command, c.off, m, reason)
				}
			}
			for _, id := range c.absent {
				if strings.Contains(reason, id) {
					t.Errorf("[%s] %q with %q: reason names %s: %s", mode, c.command, c.off, id, r.stdout)
				}
			}
		}
	}
}

// TestDisabledRulesAreLogged: a call whose ask was switched off is logged
// with the rules that would have asked.
func TestDisabledRulesAreLogged(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	env := s.env("", false, "ZCODE_FENCE_LAYER_ISOLATION=inprocess", "ZCODE_FENCE_DISABLED_RULES=infra")
	r := runHook(t, env, s.project, hookPayload("Bash", "kubectl drain worker-1", s.project, "disabled-log", false))
	if got, why := checkAnswer(r); got != "silent" {
		t.Fatalf("%s %s", got, why)
	}
	log, err := os.ReadFile(filepath.Join(s.data, "decisions.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), `"disabled":["DG-K8S-DRAIN"]`) {
		t.Errorf("decisions.log does not record the switched-off rule:\n%s", log)
	}
}

// TestExplainShowsDisabledRules: explain lists the rules switched off,
// the reasons they removed, and the items that switch nothing off.
func TestExplainShowsDisabledRules(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	env := s.env("", false, "ZCODE_FENCE_LAYER_ISOLATION=inprocess", "ZCODE_FENCE_DISABLED_RULES=infra;DG-NOPE;DG-MKFS")
	r := runHook(t, env, s.project, nil, "explain", "kubectl delete namespace production")
	out := string(r.stdout)
	for _, want := range []string{"rules off:", "DG-K8S-DELETE", "switched off (disabled_rules)", `"DG-NOPE" is not a rule id`,
		"DG-MKFS cannot be switched off", "decision:    silent"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain output lacks %q:\n%s", want, out)
		}
	}
}
