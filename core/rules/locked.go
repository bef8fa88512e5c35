package rules

import (
	"slices"
	"strings"
)

// The rules disabled_rules cannot switch off (Rule.Locked):
//
//   - the catastrophic core: deleting, moving or shredding a filesystem or
//     drive root, home, a whole profile or a system directory, in any of
//     the forms the Deletes family knows, and wiping or formatting a disk;
//   - the answers that keep the built-in layers failing closed: a call too
//     large, too deep or too slow to inspect (or to read: HK-INPUT-LATE),
//     and a pinned third-party layer whose bytes changed. A setting that
//     let input force silence would be a bypass (DESIGN §3).
var lockedRules = []*Rule{
	RmRecursive, RmNoPreserveRoot, RmGlob, Rmdir, WinDelete, PSRemove, FindDelete, XargsDelete, Shred,
	MvSource, RsyncDelete, ArchiveDelete, ScriptDelete,
	DeviceWrite, DdDevice, DdTarget, Mkfs, Wipefs, Partition, Diskpart, DiskutilWipe, Format, PSDisk,
	TooDeep, Incomplete, FenceIncomplete, HostLayerIntegrity, HostInputLate,
}

func init() {
	for _, r := range lockedRules {
		r.Locked = true
	}
}

// Disabled is the set of rules the disabled_rules setting switches off.
// The zero value switches nothing off. It is read-only once built.
type Disabled struct {
	off map[string]bool
}

// DisabledItem is one item of disabled_rules that switches nothing off,
// and why.
type DisabledItem struct {
	Item string
	// Locked: the item names locked rules only (or a family whose
	// locked rules stay on: then Rules lists them).
	Locked bool
	Rules  []string
}

// ParseDisabled reads disabled_rules: rule ids (DG-IAC-DESTROY) and family
// names (infra), separated by ';', compared without case and surrounding
// space. A family switches off each of its rules that is not locked. It
// returns the set, the items that name no rule or family of the catalog
// (unknown), and the items that name locked rules (kept on). Cost: linear
// in the list and the catalog.
func ParseDisabled(list string) (d Disabled, unknown []string, locked []DisabledItem) {
	for _, item := range strings.Split(list, ";") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if r, ok := byID[strings.ToUpper(item)]; ok {
			if r.Locked {
				locked = append(locked, DisabledItem{Item: item, Locked: true, Rules: []string{r.ID}})
				continue
			}
			d.add(r.ID)
			continue
		}
		i := slices.IndexFunc(families, func(f *Family) bool { return strings.EqualFold(f.Name, item) })
		if i < 0 {
			unknown = append(unknown, item)
			continue
		}
		var kept []string
		for _, r := range families[i].Rules() {
			if r.Locked {
				kept = append(kept, r.ID)
				continue
			}
			d.add(r.ID)
		}
		if len(kept) > 0 {
			locked = append(locked, DisabledItem{Item: item, Rules: kept})
		}
	}
	return d, unknown, locked
}

func (d *Disabled) add(id string) {
	if d.off == nil {
		d.off = map[string]bool{}
	}
	d.off[id] = true
}

// Off reports whether the rule with id is switched off. A locked rule
// never is.
func (d Disabled) Off(id string) bool { return d.off[id] }

// IDs returns the rules switched off, in catalog order.
func (d Disabled) IDs() []string {
	var out []string
	for _, r := range All() {
		if d.off[r.ID] {
			out = append(out, r.ID)
		}
	}
	return out
}

// Empty reports whether nothing is switched off.
func (d Disabled) Empty() bool { return len(d.off) == 0 }
