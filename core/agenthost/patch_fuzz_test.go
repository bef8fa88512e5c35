package agenthost

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// patchMarkers are the apply_patch headers whose paths PatchPaths lists.
var patchMarkers = []string{"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"}

// FuzzPatchPaths feeds arbitrary apply_patch text. PatchPaths must not
// panic, must finish (the bound below is a hang guard, not a speed claim),
// and must return exactly what an independent restatement of its contract
// returns: for every line, the trimmed, non-empty rest after each marker it
// starts with, in order. The same text reached through Decode (as
// the bare tool_input string and as its "patch" field) must yield the same
// paths after the JSON round trip, the object form without duplicates.
func FuzzPatchPaths(f *testing.F) {
	for _, s := range []string{
		"*** Begin Patch\n*** Add File: src/new.go\n+package x\n*** End Patch",
		"*** Begin Patch\n*** Update File: /etc/hosts\n*** Move to: /etc/hosts.bak\n@@\n-a\n+b\n*** End Patch",
		"*** Delete File: old.txt\r\n",
		"  \t*** Add File:   spaced name.txt  \r\n",
		"*** Add File:\n*** Add File: \t\n",
		"*** Add File: a\n*** Add File: a\n",
		"*** Update File: C:\\Users\\alice\\x.txt\n*** Move to: \\\\server\\share\\y",
		"***Add File: no-space\n** Add File: two-stars\n*** add file: lower",
		"*** Add File: *** Delete File: nested\n",
		"\n\n\n",
		"",
		"*** Update File: /tmp/\u00ff\xfe\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, patch string) {
		start := time.Now()
		got := PatchPaths(patch)
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("PatchPaths took %v on %d bytes", d, len(patch))
		}
		want := expectedPatchPaths(patch)
		if !samePaths(got, want) {
			t.Fatalf("PatchPaths(%q) = %q, want %q", patch, got, want)
		}
		for _, p := range got {
			if p == "" || p != strings.TrimSpace(p) || strings.Contains(p, "\n") {
				t.Fatalf("PatchPaths(%q): bad path %q", patch, p)
			}
		}

		bare, _ := json.Marshal(patch)
		args := applyPatch(t, bare)
		if strings.HasPrefix(strings.TrimSpace(patch), "{") {
			// A string holding a JSON object is that object, not patch
			// text (checked in TestPayloads).
		} else if want := roundTrip(got); !samePaths(args.Paths, want) {
			t.Fatalf("decoding(bare %q).Paths = %q, want %q", patch, args.Paths, want)
		}

		obj, _ := json.Marshal(map[string]string{"patch": patch})
		args = applyPatch(t, obj)
		if want := dedupe(roundTrip(got)); !samePaths(args.Paths, want) {
			t.Fatalf("decoding(object %q).Paths = %q, want %q", patch, args.Paths, want)
		}
	})
}

// expectedPatchPaths restates the PatchPaths contract independently: for
// each line, with leading blanks and trailing CRs removed, every marker it
// starts with contributes its trimmed rest when that is not empty.
func expectedPatchPaths(patch string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(patch); i++ {
		if i < len(patch) && patch[i] != '\n' {
			continue
		}
		line := patch[start:i]
		start = i + 1
		for len(line) > 0 && (line[0] == ' ' || line[0] == '\t') {
			line = line[1:]
		}
		for len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		for _, m := range patchMarkers {
			if strings.HasPrefix(line, m) {
				if p := strings.TrimSpace(line[len(m):]); p != "" {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

func samePaths(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// roundTrip is what each path looks like once the text holding it went
// through JSON (invalid UTF-8 becomes U+FFFD).
func roundTrip(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		b, _ := json.Marshal(p)
		var s string
		_ = json.Unmarshal(b, &s)
		out = append(out, strings.TrimSpace(s))
	}
	return out
}

func dedupe(paths []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// applyPatch decodes an ApplyPatch payload whose tool_input is input.
func applyPatch(t *testing.T, input []byte) Payload {
	t.Helper()
	data := []byte(`{"tool_name":"ApplyPatch","tool_input":` + string(input) + `}`)
	p, err := Decode(data, nil)
	if err != nil {
		t.Fatalf("decoding %q: %v", data, err)
	}
	return p
}
