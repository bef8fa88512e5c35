package integrity

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseSums(t *testing.T) {
	var cases []struct {
		Name  string      `json:"name"`
		Text  string      `json:"text"`
		Want  [][2]string `json:"want"`
		Error string      `json:"error"`
	}
	data, err := os.ReadFile(filepath.Join("testdata", "sums.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("testdata/sums.json has no cases")
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got, err := ParseSums([]byte(c.Text))
			if c.Error != "" {
				if err == nil || !strings.Contains(err.Error(), c.Error) || !strings.HasPrefix(err.Error(), "integrity: ") {
					t.Fatalf("ParseSums = %v, %v; want an error containing %q", got, err, c.Error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := []Sum{}
			for _, w := range c.Want {
				want = append(want, Sum{File: w[0], SHA256: w[1]})
			}
			if !slices.Equal(append([]Sum{}, got...), want) {
				t.Errorf("ParseSums = %v, want %v", got, want)
			}
		})
	}
}

func hexSum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// TestFormatSums: sorted by name, two spaces, a round trip through
// ParseSums, and the format sha256sum -c reads.
func TestFormatSums(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{"zcode-fence-windows-amd64.exe": []byte("w"), "zcode-fence-darwin-arm64": []byte("d"), "zcode-fence-linux-amd64": {}}
	var sums []Sum
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		sums = append(sums, Sum{File: name, SHA256: hexSum(data)})
	}
	text := FormatSums(sums)
	want := hexSum([]byte("d")) + "  zcode-fence-darwin-arm64\n" +
		hexSum(nil) + "  zcode-fence-linux-amd64\n" +
		hexSum([]byte("w")) + "  zcode-fence-windows-amd64.exe\n"
	if string(text) != want {
		t.Fatalf("FormatSums =\n%s\nwant\n%s", text, want)
	}
	back, err := ParseSums(text)
	if err != nil || len(back) != 3 || back[0].File != "zcode-fence-darwin-arm64" {
		t.Fatalf("round trip: %v, %v", back, err)
	}
	if err := os.WriteFile(filepath.Join(dir, SumsFile), text, 0o644); err != nil {
		t.Fatal(err)
	}
	if tool, err := exec.LookPath("sha256sum"); err == nil {
		cmd := exec.Command(tool, "-c", "--strict", SumsFile)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("sha256sum -c: %v\n%s", err, out)
		}
	} else {
		t.Log("sha256sum not installed: checked against ParseSums only")
	}
}

// install lays out a libexec directory: a fake binary and, unless sums is
// nil, a SHA256SUMS with the given text.
func install(t *testing.T, binary []byte, sums func(binSum string) string) (exe string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "lib exec")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	exe = filepath.Join(dir, "zcode-fence-linux-amd64")
	if err := os.WriteFile(exe, binary, 0o755); err != nil {
		t.Fatal(err)
	}
	if sums != nil {
		if err := os.WriteFile(filepath.Join(dir, SumsFile), []byte(sums(hexSum(binary))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return exe
}

func listing(name string) func(string) string {
	return func(sum string) string {
		return hexSum([]byte("other")) + "  zcode-fence-darwin-arm64\n" + sum + "  " + name + "\n"
	}
}

var binary = []byte("\x7fELF pretend this is 17 MB of zcode-fence\n")

func TestCheckVerifiedOncePerInstall(t *testing.T) {
	exe := install(t, binary, listing("zcode-fence-linux-amd64"))
	data := t.TempDir()

	first := Check(exe, data, "1.2.3")
	if first.Status != Verified || !first.Hashed || first.Asks() || first.RecordErr != nil {
		t.Fatalf("first check: %+v", first)
	}
	if first.Got != hexSum(binary) || first.Want != first.Got || first.Binary != "zcode-fence-linux-amd64" {
		t.Errorf("first check hashes: %+v", first)
	}
	if _, err := os.Stat(RecordPath(data, "1.2.3")); err != nil {
		t.Fatalf("no record after the first check: %v", err)
	}

	// Change the bytes but keep size and time: a later call must answer
	// from the record, which proves it did not hash the binary again.
	st, _ := os.Stat(exe)
	tampered := slices.Clone(binary)
	tampered[5] ^= 0xff
	if err := os.WriteFile(exe, tampered, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(exe, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	second := Check(exe, data, "1.2.3")
	if second.Status != Verified || second.Hashed {
		t.Fatalf("second check hashed or changed its answer: %+v", second)
	}

	// Another version is another install: checked afresh (and now the
	// changed bytes show).
	other := Check(exe, data, "1.2.4")
	if other.Status != Mismatch || !other.Hashed || !other.Asks() {
		t.Fatalf("check for another version: %+v", other)
	}
}

func TestCheckMismatchAsksOnEveryCall(t *testing.T) {
	exe := install(t, binary, listing("zcode-fence-linux-amd64"))
	data := t.TempDir()
	if r := Check(exe, data, "1.0.0"); r.Status != Verified {
		t.Fatalf("before the change: %+v", r)
	}
	// A changed size (as a truncated or converted copy has) is a new
	// install: hashed again, and it does not match.
	f, err := os.OpenFile(exe, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("\r"))
	f.Close()
	for i := range 3 {
		r := Check(exe, data, "1.0.0")
		if r.Status != Mismatch || !r.Asks() || r.Hashed != (i == 0) {
			t.Fatalf("call %d after the change: %+v", i, r)
		}
		if r.Want != hexSum(binary) || r.Got != hexSum(append(slices.Clone(binary), '\r')) {
			t.Errorf("call %d: want/got %s/%s", i, r.Want, r.Got)
		}
	}
}

func TestCheckStatuses(t *testing.T) {
	cases := []struct {
		name   string
		sums   func(string) string
		setup  func(t *testing.T, exe string)
		status Status
		detail string
	}{
		{name: "development build: no SHA256SUMS", status: Unchecked},
		{name: "not listed", sums: listing("zcode-fence-linux-arm64"), status: Unlisted},
		{name: "SHA256SUMS does not parse", sums: func(string) string { return "not a checksum line\n" }, status: Unreadable, detail: "line 1 is not"},
		{name: "SHA256SUMS is a directory", status: Unreadable, detail: "is not a regular file",
			setup: func(t *testing.T, exe string) {
				if err := os.Mkdir(filepath.Join(filepath.Dir(exe), SumsFile), 0o755); err != nil {
					t.Fatal(err)
				}
			}},
		{name: "SHA256SUMS too large", status: Unreadable, detail: "larger than",
			sums: func(sum string) string { return sum + "  zcode-fence-linux-amd64\n" + strings.Repeat("\n", maxSums) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			exe := install(t, binary, c.sums)
			if c.setup != nil {
				c.setup(t, exe)
			}
			data := t.TempDir()
			r := Check(exe, data, "1.0.0")
			if r.Status != c.status || !strings.Contains(r.Detail, c.detail) {
				t.Fatalf("Check = %+v, want %s with detail containing %q", r, c.status, c.detail)
			}
			if r.Asks() != (c.status != Unchecked) {
				t.Errorf("Asks() = %v for %s", r.Asks(), c.status)
			}
			_, err := os.Stat(RecordPath(data, "1.0.0"))
			recorded := err == nil
			if wantRecord := c.status == Unlisted; recorded != wantRecord {
				t.Errorf("recorded = %v, want %v (only stable answers are recorded)", recorded, wantRecord)
			}
		})
	}
}

func TestCheckRecordProblems(t *testing.T) {
	exe := install(t, binary, listing("zcode-fence-linux-amd64"))

	t.Run("garbage record is ignored", func(t *testing.T) {
		data := t.TempDir()
		if err := os.WriteFile(RecordPath(data, "1.0.0"), []byte("{not json"), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := Check(exe, data, "1.0.0"); r.Status != Verified || !r.Hashed || r.RecordErr != nil {
			t.Fatalf("%+v", r)
		}
		if r := Check(exe, data, "1.0.0"); r.Hashed {
			t.Fatalf("the rewritten record was not used: %+v", r)
		}
	})
	t.Run("record for another binary path", func(t *testing.T) {
		data := t.TempDir()
		other := install(t, binary, listing("zcode-fence-linux-amd64"))
		if r := Check(other, data, "1.0.0"); !r.Hashed {
			t.Fatal(r)
		}
		if r := Check(exe, data, "1.0.0"); !r.Hashed || r.Status != Verified {
			t.Fatalf("a record for %s answered for %s: %+v", other, exe, r)
		}
	})
	t.Run("data dir cannot be written", func(t *testing.T) {
		blocker := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(blocker, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		r := Check(exe, filepath.Join(blocker, "data"), "1.0.0")
		if r.Status != Verified || r.RecordErr == nil || !strings.Contains(r.Note(), "not recorded") {
			t.Fatalf("%+v / %s", r, r.Note())
		}
	})
	t.Run("record path is a directory", func(t *testing.T) {
		data := t.TempDir()
		if err := os.Mkdir(RecordPath(data, "1.0.0"), 0o755); err != nil {
			t.Fatal(err)
		}
		if r := Check(exe, data, "1.0.0"); r.Status != Verified || r.RecordErr == nil {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("no data dir", func(t *testing.T) {
		if r := Check(exe, "", "1.0.0"); r.Status != Verified || !r.Hashed || r.RecordErr != nil {
			t.Fatalf("%+v", r)
		}
	})
}

// TestCheckConcurrentFirstCalls: parallel tool calls right after an
// install all hash, all agree, and leave one whole record.
func TestCheckConcurrentFirstCalls(t *testing.T) {
	exe := install(t, binary, listing("zcode-fence-linux-amd64"))
	data := t.TempDir()
	var wg sync.WaitGroup
	results := make([]Result, 8)
	for i := range results {
		wg.Go(func() { results[i] = Check(exe, data, "2.0.0") })
	}
	wg.Wait()
	for i, r := range results {
		if r.Status != Verified || r.RecordErr != nil {
			t.Errorf("call %d: %+v", i, r)
		}
	}
	rec, ok := readRecord(RecordPath(data, "2.0.0"))
	if !ok || rec.Status != Verified || rec.Got != hexSum(binary) {
		t.Fatalf("record after concurrent calls: %+v %v", rec, ok)
	}
	left, _ := filepath.Glob(filepath.Join(data, ".integrity-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestRecordPath(t *testing.T) {
	for version, want := range map[string]string{
		"0.1.0":                    "integrity-0.1.0.json",
		"0.1.1-snapshot.abc1234":   "integrity-0.1.1-snapshot.abc1234.json",
		"1.0.0+build/../../etc":    "integrity-1.0.0_build_.._.._etc.json",
		"":                         "integrity-.json",
		"版本":                       "integrity-__.json",
		`0.1.0\..\..\windows\temp`: "integrity-0.1.0_.._.._windows_temp.json",
	} {
		got := RecordPath("/data", version)
		if filepath.Dir(got) != "/data" || filepath.Base(got) != want {
			t.Errorf("RecordPath(%q) = %s, want /data/%s", version, got, want)
		}
	}
}

func TestReasonAndNote(t *testing.T) {
	results := []Result{
		{Status: Mismatch, Binary: "zcode-fence-linux-arm64", Want: "aa", Got: "bb", Hashed: true, Elapsed: 41 * time.Millisecond},
		{Status: Unlisted, Binary: "zcode-fence-linux-arm64"},
		{Status: Unreadable, Binary: "zcode-fence-linux-arm64", Detail: "permission denied"},
	}
	for _, r := range results {
		for _, lang := range []string{"en", "zh"} {
			t.Run(fmt.Sprintf("%s/%s", r.Status, lang), func(t *testing.T) {
				reason := r.Reason(lang)
				marker := "[zcode-fence: integrity]"
				if lang == "zh" {
					marker = "[zcode-fence: 完整性]"
				}
				for _, must := range []string{marker, r.Binary, SumsFile, "claude plugin install zcode-fence@zcode-fence", "ZCode", "go run ./tools/bundle"} {
					if !strings.Contains(reason, must) {
						t.Errorf("reason %q does not contain %q", reason, must)
					}
				}
				if !strings.HasPrefix(reason, marker) {
					t.Errorf("reason %q does not start with %s", reason, marker)
				}
				if r.Detail != "" && !strings.Contains(reason, r.Detail) {
					t.Errorf("reason %q does not say what failed (%s)", reason, r.Detail)
				}
				if n := len([]rune(reason)); n > 450 {
					t.Errorf("reason is %d characters; keep it short", n)
				}
			})
		}
	}
	note := results[0].Note()
	for _, must := range []string{"integrity:", "zcode-fence-linux-arm64", "mismatch", "hashed in 41.0 ms", "listed aa, is bb"} {
		if !strings.Contains(note, must) {
			t.Errorf("Note %q does not contain %q", note, must)
		}
	}
	if n := (Result{Status: Verified, Binary: "b"}).Note(); !strings.Contains(n, "from the record") {
		t.Errorf("Note of a recorded answer: %q", n)
	}
}

// BenchmarkCheckRecorded is the cost every hook call pays once the install
// has been verified: two stats and one small read, no hash.
func BenchmarkCheckRecorded(b *testing.B) {
	dir := b.TempDir()
	exe := filepath.Join(dir, "zcode-fence-linux-amd64")
	big := make([]byte, 17<<20) // the size of a release binary
	if err := os.WriteFile(exe, big, 0o755); err != nil {
		b.Fatal(err)
	}
	sums := FormatSums([]Sum{{File: "zcode-fence-linux-amd64", SHA256: hexSum(big)}})
	if err := os.WriteFile(filepath.Join(dir, SumsFile), sums, 0o644); err != nil {
		b.Fatal(err)
	}
	data := b.TempDir()
	if r := Check(exe, data, "1.0.0"); r.Status != Verified || !r.Hashed {
		b.Fatal(r)
	}
	b.Run("recorded", func(b *testing.B) {
		for b.Loop() {
			if r := Check(exe, data, "1.0.0"); r.Hashed || r.Status != Verified {
				b.Fatal(r)
			}
		}
	})
	b.Run("first run (hash 17 MiB)", func(b *testing.B) {
		for b.Loop() {
			if r := Check(exe, "", "1.0.0"); !r.Hashed || r.Status != Verified {
				b.Fatal(r)
			}
		}
	})
}
