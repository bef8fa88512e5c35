package rules

import (
	"slices"
	"testing"
)

// TestParseDisabled: ids and families, any case and spacing; locked rules
// stay on and are reported; unknown items are reported.
func TestParseDisabled(t *testing.T) {
	cases := []struct {
		list       string
		off        []string
		on         []string // must stay on
		unknown    []string
		lockedItem []string
	}{
		{list: "", on: []string{"DG-K8S-DELETE"}},
		{list: "DG-K8S-DELETE", off: []string{"DG-K8S-DELETE"}, on: []string{"DG-K8S-DRAIN", "DG-IAC-DESTROY"}},
		{list: " dg-k8s-delete ; ;DG-CLOUD-DELETE", off: []string{"DG-K8S-DELETE", "DG-CLOUD-DELETE"}},
		{list: "infra", off: []string{"DG-IAC-DESTROY", "DG-K8S-DELETE", "DG-K8S-DRAIN", "DG-CLOUD-DELETE", "DG-DB-DESTROY", "DG-CONTAINER-PRUNE"}, on: []string{"DG-GIT-RESET-HARD"}},
		{list: "GIT", off: []string{"DG-GIT-RESET-HARD", "DG-GIT-FORCE-PUSH"}},
		{list: "DG-RM-RECURSIVE", on: []string{"DG-RM-RECURSIVE"}, lockedItem: []string{"DG-RM-RECURSIVE"}},
		{list: "delete", off: []string{"DG-UNRESOLVED-TARGET"}, on: []string{"DG-RM-RECURSIVE", "DG-FIND-DELETE", "DG-ARCHIVE-DELETE"}, lockedItem: []string{"delete"}},
		{list: "disk;hidden", off: []string{"DG-REG-DELETE", "DG-UNKNOWN-COMMAND"}, on: []string{"DG-MKFS", "DG-DD-DEVICE", "DG-INCOMPLETE", "DG-TOO-DEEP"}, lockedItem: []string{"disk", "hidden"}},
		{list: "fence;host", off: []string{"FN-WRITE-OUTSIDE"}, on: []string{"FN-INCOMPLETE", "HK-LAYER-INTEGRITY"}, lockedItem: []string{"fence", "host"}},
		{list: "DG-NOPE;k8s", unknown: []string{"DG-NOPE", "k8s"}},
	}
	for _, c := range cases {
		d, unknown, locked := ParseDisabled(c.list)
		for _, id := range c.off {
			if !d.Off(id) {
				t.Errorf("%q: %s is on, want off", c.list, id)
			}
		}
		for _, id := range c.on {
			if d.Off(id) {
				t.Errorf("%q: %s is off, want on", c.list, id)
			}
		}
		if !slices.Equal(unknown, c.unknown) {
			t.Errorf("%q: unknown %q, want %q", c.list, unknown, c.unknown)
		}
		var items []string
		for _, l := range locked {
			items = append(items, l.Item)
		}
		if !slices.Equal(items, c.lockedItem) {
			t.Errorf("%q: locked items %q, want %q", c.list, items, c.lockedItem)
		}
		if d.Empty() != (len(c.off) == 0) {
			t.Errorf("%q: Empty() = %v", c.list, d.Empty())
		}
	}
}

// TestLockedRules: no locked rule can be switched off, through its id or
// its family, and the catastrophic core is locked.
func TestLockedRules(t *testing.T) {
	var all []string
	for _, f := range Families() {
		all = append(all, f.Name)
	}
	for _, r := range All() {
		all = append(all, r.ID)
	}
	d, _, _ := ParseDisabled(joinSemi(all))
	n := 0
	for _, r := range All() {
		if r.Locked {
			n++
			if d.Off(r.ID) {
				t.Errorf("%s is locked but was switched off", r.ID)
			}
		} else if !d.Off(r.ID) {
			t.Errorf("%s is not locked and was not switched off", r.ID)
		}
	}
	for _, id := range []string{"DG-RM-RECURSIVE", "DG-WIN-DELETE", "DG-PS-REMOVE", "DG-FIND-DELETE", "DG-MKFS", "DG-DD-DEVICE", "DG-FORMAT", "DG-DISKPART", "DG-INCOMPLETE", "FN-INCOMPLETE"} {
		if r, ok := Lookup(id); !ok || !r.Locked {
			t.Errorf("%s should be locked", id)
		}
	}
	if n != len(lockedRules) {
		t.Errorf("%d locked rules in the catalog, %d listed", n, len(lockedRules))
	}
}

func joinSemi(s []string) string {
	out := ""
	for _, x := range s {
		out += x + ";"
	}
	return out
}
