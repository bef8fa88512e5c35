package envmemo

import "testing"

// TestSame: what a Recorder saw reads the same until one variable changes
// value or is unset, including one that was unset when recorded.
func TestSame(t *testing.T) {
	env := map[string]string{"HOME": "/home/u", "XDG_CONFIG_HOME": ""}
	lookup := func(n string) (string, bool) { v, ok := env[n]; return v, ok }
	r := Record(lookup)
	r.Lookup("HOME")
	r.Lookup("XDG_CONFIG_HOME")
	r.Lookup("ZCODE_FENCE_CONFIG")
	if len(r.Seen) != 3 || !Same(r.Seen, lookup) {
		t.Fatalf("unchanged environment: Same false (%v)", r.Seen)
	}
	env["ZCODE_FENCE_CONFIG"] = "/x"
	if Same(r.Seen, lookup) {
		t.Fatal("a variable set since the record: Same true")
	}
	delete(env, "ZCODE_FENCE_CONFIG")
	delete(env, "XDG_CONFIG_HOME")
	if Same(r.Seen, lookup) {
		t.Fatal("a variable unset since the record (it was set, empty): Same true")
	}
}
