package cmdfacts_test

import (
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

type rcloneCase struct {
	Command string   `json:"command"`
	Verb    string   `json:"verb"` // "" when it deletes nothing unasked
	Targets []string `json:"targets"`
	Why     string   `json:"why"`
}

// TestParseRcloneDelete runs testdata/rclone.json: which rclone command
// lines delete what a remote holds, and which remote paths.
func TestParseRcloneDelete(t *testing.T) {
	for _, tc := range load[rcloneCase](t, "rclone.json") {
		c := command(t, tc.Command)
		d, ok := cmdfacts.ParseRcloneDelete(c.Args[1:])
		if ok != (tc.Verb != "") || d.Verb != tc.Verb {
			t.Errorf("%q: %v %q, want %q (%s)", tc.Command, ok, d.Verb, tc.Verb, tc.Why)
			continue
		}
		if got := shown(d.Targets); ok && len(got) != len(tc.Targets) {
			t.Errorf("%q: targets %q, want %q (%s)", tc.Command, got, tc.Targets, tc.Why)
		} else if ok {
			for i := range got {
				if got[i] != tc.Targets[i] {
					t.Errorf("%q: targets %q, want %q (%s)", tc.Command, got, tc.Targets, tc.Why)
					break
				}
			}
		}
	}
}

// TestMongoUse: a mongosh "use NAME" before a loss names the database
// it hits.
func TestMongoUse(t *testing.T) {
	cases := []struct {
		text, target, in string
	}{
		{"use shop; db.dropDatabase()", "shop", ""},
		{"use shop\ndb.users.drop()", "users", "shop"},
		{"use a; use b; db.orders.deleteMany({})", "orders", "b"},
		{"db.dropDatabase()", "", ""},
		{"db.getSiblingDB('x').dropDatabase(); use y", "x", ""},
		{"print('use shop'); db.users.drop()", "users", ""},
		{"var reuse = 1; db.users.drop()", "users", ""},
	}
	for _, c := range cases {
		ls := cmdfacts.MongoLosses(c.text)
		if len(ls) != 1 {
			t.Errorf("%q: %d losses, want 1", c.text, len(ls))
			continue
		}
		if ls[0].Target != c.target || ls[0].In != c.in {
			t.Errorf("%q: target %q in %q, want %q %q", c.text, ls[0].Target, ls[0].In, c.target, c.in)
		}
	}
}
