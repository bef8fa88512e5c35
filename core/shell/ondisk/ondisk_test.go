package ondisk_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/shell/ondisk"
)

func TestReaderStatusesAndCaps(t *testing.T) {
	m := ondisk.MapFS{
		"/p/ok.sh":   {Data: "echo ok\n"},
		"/p/big.sh":  {Data: strings.Repeat("x", 100)},
		"/p/fifo":    {Mode: fs.ModeNamedPipe | 0o644},
		"/p/dev":     {Mode: fs.ModeDevice | 0o644},
		"/p/a.sh":    {Data: strings.Repeat("a", 60)},
		"/p/b.sh":    {Data: strings.Repeat("b", 60)},
		"/p/sub/x":   {Data: "x"},
		"/proc/self": {Data: "not read"},
	}
	r := ondisk.NewReader(m, ondisk.Limits{File: 80, Call: 100, Files: 8})
	for _, c := range []struct {
		path string
		want ondisk.Status
	}{
		{"/p/ok.sh", ondisk.Read},
		{"/p/big.sh", ondisk.OverCap},
		{"/p/fifo", ondisk.NotRegular},
		{"/p/dev", ondisk.NotRegular},
		{"/p/sub", ondisk.NotRegular},
		{"/p/missing", ondisk.Missing},
		{"/proc/self", ondisk.NotRegular},
		{"/p/a.sh", ondisk.Read},
		{"/p/b.sh", ondisk.OverCap}, // 8 + 60 + 60 passes the per-call cap
		{"/p/ok.sh", ondisk.Read},   // cached: read once
	} {
		if _, got := r.Read(c.path); got != c.want {
			t.Errorf("Read(%s) = %s, want %s", c.path, got, c.want)
		}
	}
	recs := r.Records()
	if len(recs) != 9 {
		t.Fatalf("%d records, want 9 (one per path): %+v", len(recs), recs)
	}
	if recs[0].SHA256 != "4726de74e6ad02ddb5decee701960c06c6fd91a871f95238350941eed7dbb22a" || recs[0].Size != 8 { // sha256 of "echo ok\n"
		t.Errorf("record %+v", recs[0])
	}
	if r.Bytes() != 68 {
		t.Errorf("Bytes = %d, want 68", r.Bytes())
	}
}

func TestOSReaderNeverOpensAFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/s.sh", []byte("echo hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := ondisk.NewReader(ondisk.OS(), ondisk.DefaultLimits)
	if text, st := r.Read(dir + "/s.sh"); st != ondisk.Read || text != "echo hi\n" {
		t.Errorf("Read = %q %s", text, st)
	}
	if _, st := r.Read(dir); st != ondisk.NotRegular {
		t.Errorf("a directory: %s", st)
	}
	if _, st := r.Read("/proc/self/fd/0"); st != ondisk.NotRegular {
		t.Errorf("/proc/self/fd/0: %s", st)
	}
}

func TestShebang(t *testing.T) {
	for _, c := range []struct{ text, prog, args string }{
		{"#!/bin/bash\necho", "bash", ""},
		{"#!/usr/bin/env python3\n", "python3", ""},
		{"#!/usr/bin/env -S deno run -A\n", "deno", "run -A"},
		{"#! /bin/sh -e\n", "sh", "-e"},
		{"#!/usr/bin/env FOO=1 node\n", "node", ""},
		{"echo no shebang\n", "", ""},
	} {
		sb, ok := ondisk.ParseShebang(c.text)
		if sb.Prog != c.prog || strings.Join(sb.Args, " ") != c.args || ok != (c.prog != "") {
			t.Errorf("ParseShebang(%q) = %+v %v", c.text, sb, ok)
		}
	}
	if !ondisk.Binary("\x7fELF\x02\x01") || ondisk.Binary("#!/bin/sh\necho\n") {
		t.Error("Binary")
	}
}

// TestMake runs testdata/make.json: makefiles, the options of a run, and
// the command lines expected ("text@line", unknown parts as ?src?).
func TestMake(t *testing.T) {
	data, err := os.ReadFile("testdata/make.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name      string            `json:"name"`
		Files     map[string]string `json:"files"`
		Dir       string            `json:"dir"`
		Goals     []string          `json:"goals"`
		Vars      map[string]string `json:"vars"`
		Env       map[string]string `json:"env"`
		Makefiles []string          `json:"makefiles"`
		Dry       bool              `json:"dry"`
		// Listings are the $(shell) commands that list names, and the
		// glob each stands for (MakeOptions.Listing).
		Listings map[string]string `json:"listings"`
		Want     []string          `json:"want"`
		None     bool              `json:"none"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		m := ondisk.MapFS{}
		for p, text := range c.Files {
			m[p] = &ondisk.MapFile{Data: text}
		}
		r := ondisk.NewReader(m, ondisk.DefaultLimits)
		vars := map[string]ondisk.Text{}
		for k, v := range c.Vars {
			vars[k] = ondisk.Known(v)
		}
		res := ondisk.Make(ondisk.MakeOptions{
			Dir: c.Dir, Files: c.Makefiles, Goals: c.Goals, Vars: vars, DryRun: c.Dry,
			Env: func(n string) (ondisk.Text, bool) {
				v, ok := c.Env[n]
				return ondisk.Known(v), ok
			},
			Read: func(p string) (string, bool) {
				text, st := r.Read(p)
				return text, st == ondisk.Read
			},
			Listing: func(cmd string) (string, bool) {
				g, ok := c.Listings[cmd]
				return g, ok
			},
		})
		if (res.Makefile == "") != c.None {
			t.Errorf("%s: makefile %q", c.Name, res.Makefile)
		}
		var got []string
		for _, l := range res.Lines {
			var sb strings.Builder
			for _, s := range l.Text {
				if s.Unknown {
					sb.WriteString("?" + s.Text + "?")
				} else {
					sb.WriteString(s.Text)
				}
			}
			got = append(got, sb.String()+"@"+strconv.Itoa(l.Line))
		}
		if strings.Join(got, "\n") != strings.Join(c.Want, "\n") {
			t.Errorf("%s:\ngot  %q\nwant %q", c.Name, got, c.Want)
		}
	}
}

func TestParseScripts(t *testing.T) {
	text := "{\n  \"name\": \"w\",\n  \"version\": \"1.2.0\",\n  \"config\": {\"port\": \"8080\"},\n  \"scripts\": {\n    \"test\": \"jest\",\n    \"build\": \"tsc\"\n  }\n}\n"
	sf, ok := ondisk.ParseScripts(text, "scripts")
	if !ok || sf.Name != "w" || sf.Version != "1.2.0" || sf.Config["port"] != "8080" {
		t.Fatalf("%+v %v", sf, ok)
	}
	if s := sf.Scripts["build"]; s.Line != 7 || s.Commands[0] != "tsc" {
		t.Errorf("build: %+v", s)
	}
	deno := "{\n // comment with \"quotes\"\n \"tasks\": {\n  /* block */ \"dev\": {\"command\": \"deno run x.ts\", \"dependencies\": [\"gen\"]},\n  \"gen\": \"deno run gen.ts\"\n }\n}\n"
	sf, ok = ondisk.ParseScripts(deno, "tasks")
	if !ok || sf.Scripts["dev"].Line != 4 || sf.Scripts["dev"].Deps[0] != "gen" || sf.Scripts["gen"].Line != 5 {
		t.Errorf("deno: %+v %v", sf, ok)
	}
	composer := "{\"scripts\": {\"x\": [\"@y\", \"echo z\"]}}"
	if sf, _ = ondisk.ParseScripts(composer, "scripts"); len(sf.Scripts["x"].Commands) != 2 {
		t.Errorf("composer: %+v", sf)
	}
}

func TestGitRepoAndConfig(t *testing.T) {
	m := ondisk.MapFS{
		"/r/.git/config":                 {Data: "[core]\n\tbare = false\n\thooksPath = \"hooks dir\" # local\n[alias]\n\thooksPath = x\n"},
		"/r/wt/.git":                     {Data: "gitdir: /r/.git/worktrees/wt\n"},
		"/r/.git/worktrees/wt/commondir": {Data: "../..\n"},
	}
	r := ondisk.NewReader(m, ondisk.DefaultLimits)
	repo, ok := ondisk.FindGitRepo(r, "/r/src/deep")
	if !ok || repo.Top != "/r" || repo.Common != "/r/.git" {
		t.Errorf("repo %+v %v", repo, ok)
	}
	wt, ok := ondisk.FindGitRepo(r, "/r/wt/x")
	if !ok || wt.Top != "/r/wt" || wt.GitDir != "/r/.git/worktrees/wt" || wt.Common != "/r/.git" {
		t.Errorf("worktree %+v %v", wt, ok)
	}
	text, _ := r.Read("/r/.git/config")
	if v, ok := ondisk.GitConfigValue(text, "core.hooksPath"); !ok || v != "hooks dir" {
		t.Errorf("hooksPath = %q %v", v, ok)
	}
}

// TestLinks: the reader follows symbolic links to read a file and reports
// a link's target as stored; the in-memory file system and the machine's
// agree.
func TestLinks(t *testing.T) {
	dir := t.TempDir()
	for _, err := range []error{
		os.MkdirAll(dir+"/tools", 0o755),
		os.WriteFile(dir+"/tools/run.sh", []byte("echo run\n"), 0o644),
		os.MkdirAll(dir+"/bin", 0o755),
		os.Symlink("../tools/run.sh", dir+"/bin/run"),
		os.Symlink("tools", dir+"/t"),
		os.Symlink("loop-b", dir+"/loop-a"),
		os.Symlink("loop-a", dir+"/loop-b"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	m := ondisk.MapFS{
		dir + "/tools/run.sh": {Data: "echo run\n"},
		dir + "/bin/run":      {Data: "../tools/run.sh", Mode: fs.ModeSymlink | 0o777},
		dir + "/t":            {Data: "tools", Mode: fs.ModeSymlink | 0o777},
		dir + "/loop-a":       {Data: "loop-b", Mode: fs.ModeSymlink | 0o777},
		dir + "/loop-b":       {Data: "loop-a", Mode: fs.ModeSymlink | 0o777},
	}
	for name, fsys := range map[string]ondisk.FS{"os": ondisk.OS(), "map": m} {
		r := ondisk.NewReader(fsys, ondisk.DefaultLimits)
		for _, c := range []struct{ path, link, text string }{
			{"/bin/run", "../tools/run.sh", "echo run\n"},
			{"/t/run.sh", "", "echo run\n"}, // a link in a directory component
			{"/t", "tools", ""},
			{"/tools/run.sh", "", "echo run\n"},
			{"/loop-a", "loop-b", ""},
		} {
			to, err := r.Readlink(dir + c.path)
			if to != c.link || (err == nil) != (c.link != "") {
				t.Errorf("%s: Readlink(%s) = %q, %v; want %q", name, c.path, to, err, c.link)
			}
			if text, _ := r.Read(dir + c.path); text != c.text {
				t.Errorf("%s: Read(%s) = %q, want %q", name, c.path, text, c.text)
			}
		}
		if _, st := r.Read(dir + "/loop-b"); st == ondisk.Read {
			t.Errorf("%s: a link cycle was read", name)
		}
	}
}
