package cmdfacts_test

import (
	"slices"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

type platformCase struct {
	Command string   `json:"command"`
	Kind    string   `json:"kind"`   // reset, hosted, vm, volumes, forge; "": not an operation
	Detail  string   `json:"detail"` // required with kind
	Targets []string `json:"targets"`
	EnvVars []string `json:"env_vars"`
	Env     string   `json:"env"` // the environment the command line names
	URL     string   `json:"url"` // the URL the command line gives
	Remote  bool     `json:"remote"`
	// NeedsInput: the form runs only once its prompt is answered.
	NeedsInput bool   `json:"needs_input"`
	Why        string `json:"why"`
}

var platformKinds = map[cmdfacts.PlatformKind]string{
	cmdfacts.PlatformDBReset: "reset", cmdfacts.PlatformHosted: "hosted", cmdfacts.PlatformVM: "vm",
	cmdfacts.PlatformVolumes: "volumes", cmdfacts.PlatformForge: "forge",
}

// TestPlatform runs testdata/platforms.json through cmdfacts.Platform:
// which framework commands reset the database and which platform
// commands destroy an app, a site, volumes, a repository or a machine,
// with their detail, targets and environment, read the way each CLI reads
// its command line (wrappers such as bundle exec and uv run stripped by
// the analysis first).
func TestPlatform(t *testing.T) {
	for _, tc := range load[platformCase](t, "platforms.json") {
		t.Run(tc.Command, func(t *testing.T) {
			c := command(t, tc.Command)
			op, ok := cmdfacts.Platform(c.Name, c.Args[1:])
			if !ok {
				if tc.Kind != "" {
					t.Fatalf("not an operation, want %s %q (%s)", tc.Kind, tc.Detail, tc.Why)
				}
				return
			}
			if tc.Kind == "" {
				t.Fatalf("read as %s %q %q, want no operation (%s)", platformKinds[op.Kind], op.Detail, shown(op.Targets), tc.Why)
			}
			if platformKinds[op.Kind] != tc.Kind || op.Detail != tc.Detail {
				t.Errorf("got %s %q, want %s %q", platformKinds[op.Kind], op.Detail, tc.Kind, tc.Detail)
			}
			if got := shown(op.Targets); !slices.Equal(got, tc.Targets) && len(got)+len(tc.Targets) > 0 {
				t.Errorf("targets %q, want %q", got, tc.Targets)
			}
			if !slices.Equal(op.EnvVars, tc.EnvVars) && len(op.EnvVars)+len(tc.EnvVars) > 0 {
				t.Errorf("env vars %q, want %q", op.EnvVars, tc.EnvVars)
			}
			if got := wordValue(op.Env); got != tc.Env {
				t.Errorf("env %q, want %q", got, tc.Env)
			}
			if got := wordValue(op.URL); got != tc.URL {
				t.Errorf("url %q, want %q", got, tc.URL)
			}
			if op.NeedsInput != tc.NeedsInput {
				t.Errorf("needs input %v, want %v", op.NeedsInput, tc.NeedsInput)
			}
			if op.Remote != tc.Remote {
				t.Errorf("remote %v, want %v", op.Remote, tc.Remote)
			}
		})
	}
}

// TestForgeAPIDestroys: the GitHub endpoints whose DELETE destroys a
// repository, an organisation, a release or a package, in the spellings
// gh api takes (testdata/forgeapi.json).
func TestForgeAPIDestroys(t *testing.T) {
	for _, tc := range load[struct {
		Endpoint string `json:"endpoint"`
		Destroys bool   `json:"destroys"`
		Why      string `json:"why"`
	}](t, "forgeapi.json") {
		if got := cmdfacts.ForgeAPIDestroys(tc.Endpoint); got != tc.Destroys {
			t.Errorf("%q: %v, want %v (%s)", tc.Endpoint, got, tc.Destroys, tc.Why)
		}
	}
}

// TestLocalDisposableURL: a database URL on this machine with a
// throwaway name (testdata/dburls.json).
func TestLocalDisposableURL(t *testing.T) {
	for _, tc := range load[struct {
		URL        string `json:"url"`
		Disposable bool   `json:"disposable"`
		Why        string `json:"why"`
	}](t, "dburls.json") {
		if got := cmdfacts.LocalDisposableURL(cmdfacts.Literal(tc.URL)); got != tc.Disposable {
			t.Errorf("%q: %v, want %v (%s)", tc.URL, got, tc.Disposable, tc.Why)
		}
	}
}

// TestPlatformCLIs: every name the dispatch lists is one Platform reads
// (a python name reaches manage.py), and the package-runner check agrees
// with the table.
func TestPlatformCLIs(t *testing.T) {
	for _, n := range cmdfacts.PlatformCLIs() {
		if !cmdfacts.IsPlatformCLI(n) && cmdfacts.InterpreterLang(n) != "python" {
			t.Errorf("%s is listed but Platform does not read it", n)
		}
	}
	for _, n := range []string{"prisma", "rails", "heroku", "gh"} {
		if !cmdfacts.IsPlatformCLI(n) {
			t.Errorf("%s: IsPlatformCLI false", n)
		}
	}
	if cmdfacts.IsPlatformCLI("install") || cmdfacts.IsPlatformCLI("run") {
		t.Error("a yarn builtin read as a platform CLI")
	}
	for env, want := range map[string]bool{"test": true, "TESTING": true, "development": false, "prod": false, "": false} {
		if cmdfacts.TestEnvName(env) != want {
			t.Errorf("TestEnvName(%q) != %v", env, want)
		}
	}
}
