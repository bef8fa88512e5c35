package analysis

import (
	"path/filepath"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/ondisk"
)

// agentMix is a realistic mix of what coding agents run through the Bash
// tool: short everyday commands, pipelines, cd chains, heredoc commits,
// loops, a few wrappers and nested shells.
var agentMix = []string{
	"git status",
	"git diff --stat HEAD~1",
	"ls -la",
	"cd web && npm ci && npm test -- --watch=false",
	"go test ./... -run 'TestCases' -count=1",
	"rg -n 'func Analyze' --type go",
	"grep -rn \"TODO\" src/ | head -20",
	"find . -name '*.o' -delete",
	"find . -type f -name '*.go' | xargs wc -l | sort -n | tail",
	"cat package.json | jq '.scripts'",
	"mkdir -p build && cd build && cmake .. && make -j8",
	"python3 -m pytest tests/ -x -q 2>&1 | tail -30",
	"git add -A && git commit -m \"$(cat <<'EOF'\nfix: handle empty input\n\nThe parser now returns early.\nEOF\n)\"",
	"docker run --rm -v \"$PWD\":/src -w /src golang:1.26 go build ./...",
	"curl -fsSL https://example.com/api | jq -r '.items[].name'",
	"for f in src/*.ts; do npx prettier --write \"$f\"; done",
	"rm -rf node_modules dist && npm install",
	"sed -i 's/foo/bar/g' src/main.go",
	"echo \"export PATH=$HOME/bin:$PATH\" >> ~/.bashrc",
	"sudo apt-get install -y jq",
	"timeout 60 ./scripts/run-integration.sh --fast",
	"bash -c 'cd /tmp && ls -la'",
	"while read -r line; do echo \"$line\"; done < input.txt",
	"if [ -f .env ]; then source .env; fi; node server.js &",
	"cat > notes.md <<'EOF'\n# Notes\n- rm -rf / is dangerous\nEOF",
	"kubectl get pods -n default -o wide | grep -v Running",
	"tar -czf backup.tgz src/ && ls -lh backup.tgz",
	"env NODE_ENV=production node build.js > build.log 2>&1",
	"git log --oneline -n 20 --format='%h %s'",
	"make test VERBOSE=1",
}

// BenchmarkAnalyzeMix analyses the whole mix per iteration; divide ns/op by
// len(agentMix) for the cost of one command.
func BenchmarkAnalyzeMix(b *testing.B) {
	opts := testOptions()
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range agentMix {
			Analyze(src, opts)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(agentMix)), "ns/cmd")
}

// BenchmarkAnalyzeSimple is the most common case: one plain command.
func BenchmarkAnalyzeSimple(b *testing.B) {
	opts := testOptions()
	b.ReportAllocs()
	for b.Loop() {
		Analyze("git status --short", opts)
	}
}

// BenchmarkAnalyzeNested exercises wrappers, nested shells, substitutions
// and xargs.
func BenchmarkAnalyzeNested(b *testing.B) {
	opts := testOptions()
	src := `sudo -u root env -i bash -lc 'find . -print0 | xargs -0 rm -rf; echo "$(date)"' && eval "cd /tmp; ls"`
	b.ReportAllocs()
	for b.Loop() {
		Analyze(src, opts)
	}
}

// BenchmarkAnalyzePowerShell analyses a PowerShell pipeline with a cmd /c.
func BenchmarkAnalyzePowerShell(b *testing.B) {
	opts := testOptions()
	opts.Dialect = ir.PowerShell
	src := `Get-ChildItem -Path C:\src -Recurse -Filter *.log | Remove-Item -Force; cmd /c "rd /s /q C:\src\tmp"`
	b.ReportAllocs()
	for b.Loop() {
		Analyze(src, opts)
	}
}

// BenchmarkAnalyzeParseError measures the fallback scan.
func BenchmarkAnalyzeParseError(b *testing.B) {
	opts := testOptions()
	src := `sudo rm -rf /tmp/x; echo "unterminated; bash -c 'ls'`
	b.ReportAllocs()
	for b.Loop() {
		Analyze(src, opts)
	}
}

// BenchmarkOnDisk analyses everyday runner calls whose files are read from
// disk (the real-project corpus of cmd/zcode-fence): `make` in git's tree
// (its 131 KB Makefile is the largest real file under the cap collected),
// `make test` in prometheus's, and `make test` where no makefile exists
// (the command line alone). The ratios of the first two to the third are
// the cost reading and judging the files adds to the analysis.
func BenchmarkOnDisk(b *testing.B) {
	projects := filepath.Join("..", "..", "..", "cmd", "zcode-fence", "testdata", "ondisk-projects")
	for _, bc := range []struct{ name, dir, cmd string }{
		{"make-git", "git-git", "make"},
		{"make-test-prometheus", "prometheus-prometheus", "make test"},
		{"make-test-nothing", "", "make test"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			dir := b.TempDir()
			if bc.dir != "" {
				dir, _ = filepath.Abs(filepath.Join(projects, bc.dir))
			}
			read := 0
			for b.Loop() {
				r := ondisk.NewReader(ondisk.OS(), ondisk.DefaultLimits)
				s := Analyze(bc.cmd, Options{Dialect: ir.Bash, Cwd: dir, Home: "/home/u", Files: r})
				read = len(r.Records())
				if s.Truncated {
					b.Fatalf("%s: truncated", bc.name)
				}
			}
			if bc.dir != "" && read == 0 {
				b.Fatalf("%s: no file read", bc.name)
			}
		})
	}
}
