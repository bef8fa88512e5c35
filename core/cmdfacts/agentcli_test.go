package cmdfacts_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/internal/modroot"
)

// TestAgentCLIPackages keeps the npm packages AgentCLIPackage knows equal
// to those scripts/install-agent-cli.sh installs for the end-to-end tests
// (its --list prints host, package, version), and checks the package forms
// a runner is given.
func TestAgentCLIPackages(t *testing.T) {
	root, err := modroot.FromWorkingDir()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("sh", filepath.Join(root, "scripts", "install-agent-cli.sh"), "--list").Output()
	if err != nil {
		t.Fatalf("install-agent-cli.sh --list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 5 {
		t.Fatalf("install-agent-cli.sh --list printed %d lines:\n%s", len(lines), out)
	}
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("install-agent-cli.sh --list line %q", line)
		}
		host, pkg, version := f[0], f[1], f[2]
		for _, form := range []string{pkg, pkg + "@" + version, pkg + "@latest", strings.ToUpper(pkg)} {
			if name, ok := cmdfacts.AgentCLIPackage(form); !ok || name != host {
				t.Errorf("AgentCLIPackage(%q) = %q, %v; want %q (install-agent-cli.sh)", form, name, ok, host)
			}
		}
		if !cmdfacts.IsAgentCLI(host) {
			t.Errorf("IsAgentCLI(%q) = false", host)
		}
	}
	for _, other := range []string{"rimraf", "@anthropic-ai/sdk", "claude", "@openai/codex-sdk", "prettier@3"} {
		if name, ok := cmdfacts.AgentCLIPackage(other); ok {
			t.Errorf("AgentCLIPackage(%q) = %q, want no agent", other, name)
		}
	}
}
