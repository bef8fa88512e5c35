package cmdfacts_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

type gitLandCase struct {
	Command string `json:"command"`
	// Lands are the landings as "kind from..to" ("switch ..evil",
	// "merge ..@{upstream}", "index" ...), with " repo=R", " paths=P,Q"
	// and " missing" when set.
	Lands []string `json:"lands"`
	// Moves are GitRefMoves' revisions.
	Moves []string `json:"moves"`
	Why   string   `json:"why"`
}

var landKinds = map[cmdfacts.GitLandKind]string{cmdfacts.LandSwitch: "switch", cmdfacts.LandMerge: "merge",
	cmdfacts.LandCommit: "commit", cmdfacts.LandStash: "stash", cmdfacts.LandIndex: "index", cmdfacts.LandHead: "head"}

// TestGitLandings runs testdata/gitland.json: what git subcommands bring
// into the work tree from history or the index, and the revisions the
// ref-moving ones point at.
func TestGitLandings(t *testing.T) {
	for _, tc := range load[gitLandCase](t, "gitland.json") {
		t.Run(tc.Command, func(t *testing.T) {
			c := command(t, tc.Command)
			g := cmdfacts.ParseGit(c.Args[1:], c.Assigns)
			var lands []string
			for _, l := range cmdfacts.GitLandings(g.Sub, g.Args) {
				s := landKinds[l.Kind]
				if l.From.Value != "" || l.To.Value != "" {
					s += fmt.Sprintf(" %s..%s", l.From.Value, l.To.Value)
				}
				if l.Repo.Value != "" {
					s += " repo=" + l.Repo.Value
				}
				if len(l.Paths) > 0 {
					s += " paths=" + fmt.Sprint(shown(l.Paths))
				}
				if l.Missing {
					s += " missing"
				}
				lands = append(lands, s)
			}
			if !slices.Equal(lands, tc.Lands) {
				t.Errorf("landings %q, want %q (%s)", lands, tc.Lands, tc.Why)
			}
			if got := shown(cmdfacts.GitRefMoves(g.Sub, g.Args)); !slices.Equal(got, tc.Moves) {
				t.Errorf("ref moves %q, want %q (%s)", got, tc.Moves, tc.Why)
			}
		})
	}
}
