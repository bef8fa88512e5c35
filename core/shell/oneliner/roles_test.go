package oneliner

import (
	"fmt"
	"strings"
	"testing"
)

// TestAPITableRoles checks every entry of the API tables: a declared role
// kind with an argument index it reads (and none for the kinds that read
// none), at least one call name, and no name given two roles in one
// family's table (the index would keep only the later one).
func TestAPITableRoles(t *testing.T) {
	for tableName, tables := range map[string]map[byte]apiTable{
		"apiTables":         apiTables,
		"anyReceiverTables": anyReceiverTables,
	} {
		for fam, table := range tables {
			seen := map[string]role{}
			for i, e := range table {
				if !e.role.valid() {
					t.Errorf("%s[%d] entry %d: invalid role %v (kind %d, arg %d)", tableName, fam, i, e.role, e.role.kind, e.role.arg)
				}
				names := strings.Fields(e.names)
				if len(names) == 0 {
					t.Errorf("%s[%d] entry %d (%v): no call names", tableName, fam, i, e.role)
				}
				for _, n := range names {
					if prev, ok := seen[n]; ok {
						t.Errorf("%s[%d]: %q has two roles, %v and %v", tableName, fam, n, prev, e.role)
					}
					seen[n] = e.role
				}
			}
		}
	}
}

// TestRoleKindsDeclared checks that every role kind has a name, names are
// unique, and role.valid rejects what the evaluator cannot apply.
func TestRoleKindsDeclared(t *testing.T) {
	names := map[string]roleKind{}
	for k := roleNone; k < roleKinds; k++ {
		info := roleKindInfo[k]
		if info.name == "" {
			t.Errorf("role kind %d has no name", k)
		}
		if prev, ok := names[info.name]; ok {
			t.Errorf("role kinds %d and %d share the name %q", prev, k, info.name)
		}
		names[info.name] = k
	}
	for _, c := range []struct {
		r    role
		want bool
		text string
	}{
		{at(roleDelete, 0), true, "delete:0"},
		{at(roleExecVar, 2), true, "execvar:2"},
		{only(roleMove), true, "move"},
		{only(roleSelfWrite), true, "selfwrite"},
		{role{}, false, "none"},
		{at(roleMove, 1), false, "move"},
		{at(roleDelete, maxRoleArg+1), false, "delete:3"},
		{at(roleDelete, -1), false, "delete:-1"},
		{role{kind: roleKinds}, false, fmt.Sprintf("role(%d)", roleKinds)},
	} {
		if got := c.r.valid(); got != c.want {
			t.Errorf("%v.valid() = %v, want %v", c.r, got, c.want)
		}
		if got := c.r.String(); got != c.text {
			t.Errorf("String() = %q, want %q", got, c.text)
		}
	}
}
