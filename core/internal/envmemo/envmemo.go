// Package envmemo records the environment variables a computation looked
// up, so that its result can be reused for as long as every one of them
// still reads the same (core/protect's and core/secrets' placements).
package envmemo

// Lookup is one variable as it was read.
type Lookup struct {
	Name, Value string
	OK          bool
}

// Recorder reads variables through lookup and records each read in Seen.
// It is not safe for concurrent use.
type Recorder struct {
	lookup func(string) (string, bool)
	Seen   []Lookup
}

// Record returns a Recorder over lookup.
func Record(lookup func(string) (string, bool)) *Recorder { return &Recorder{lookup: lookup} }

// Lookup reads name and records what it read.
func (r *Recorder) Lookup(name string) (string, bool) {
	v, ok := r.lookup(name)
	r.Seen = append(r.Seen, Lookup{Name: name, Value: v, OK: ok})
	return v, ok
}

// Same reports whether lookup reads every recorded variable as it was
// recorded. Cost: one lookup per record.
func Same(seen []Lookup, lookup func(string) (string, bool)) bool {
	for _, l := range seen {
		if v, ok := lookup(l.Name); v != l.Value || ok != l.OK {
			return false
		}
	}
	return true
}
