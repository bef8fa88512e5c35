package host

import (
	"strings"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/session"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
	"github.com/zcode-fence/zcode-fence/core/shell/ondisk"
)

// Prepared is a call ready for the chain, with what the host noticed while
// building it.
type Prepared struct {
	Call  *core.Call
	Notes []string
	// Skip is set for tools the guard does not judge.
	Skip bool
	// AnalysisSteps is what the shell analysis cost (analysis.Stats), 0
	// for other tools.
	AnalysisSteps int
	// WideRoot, when set, says why the project root is too wide to fence
	// anything (paths.Platform.IsWideRoot: "filesystem root", "home
	// directory" ...); explain flags it and Notes carry it to the log.
	WideRoot string
	// Findings are asks raised by decoding itself (a field the guard reads
	// is ambiguous or of the wrong type); they join the chain's verdict.
	Findings []core.Reason
	// Files are the files on disk the command runs that the analysis tried
	// to read (scripts, task files, git hooks), with what became of each
	// and the sha256 of what was read (core/shell/ondisk), for the log.
	Files []ondisk.Record
}

// Prepare builds the Call for payload p: normalised tool, command or
// target paths, project root (the host adapter's project-dir variables in
// order, else the payload cwd; after the session-root lock), cwd (moved by
// a directory the tool names, such as Gemini's dir_path), writable roots
// and the shell analysis. A tool_input that cannot be read (not an object)
// is one of p.Findings, and asks.
//
// plat gives the path rules (paths.Native() in the binary; tests inject).
//
// The files a shell command runs are read from the machine's file system
// when plat resolves real paths (plat.EvalSymlinks set); a platform that is
// lexical only — another OS's rules, the golden test's simulated worlds —
// has no file system of its own, and nothing is read.
func Prepare(p agenthost.Payload, env config.Env, plat paths.Platform, cfg config.Config, dataDir string, now time.Time) (Prepared, error) {
	var files ondisk.FS
	if plat.EvalSymlinks != nil {
		files = ondisk.OS()
	}
	return PrepareFiles(p, env, plat, cfg, dataDir, now, files)
}

// PrepareFiles is Prepare reading the files a shell command runs from
// files (nil: none are read; tests inject an ondisk.MapFS). The files are
// read here, in the hook process, once, within ondisk.DefaultLimits; the
// layers receive what the analysis found in them and never read files.
func PrepareFiles(p agenthost.Payload, env config.Env, plat paths.Platform, cfg config.Config, dataDir string, now time.Time, files ondisk.FS) (Prepared, error) {
	tool, kind := p.ToolName, core.KindOther
	if p.Judged {
		tool, kind = p.Tool.Name, p.Tool.Kind
	}
	call := &core.Call{Tool: tool, Kind: kind, Input: p.Input, SessionID: p.SessionID,
		Platform: plat.OS, DataDir: dataDir}
	out := Prepared{Call: call}
	if kind == core.KindOther {
		out.Skip = true
		return out, nil
	}
	call.Command, call.Paths = p.Command, p.Paths
	lang := cfg.Get(config.KeyLanguage)
	for _, f := range p.Findings {
		out.Findings = append(out.Findings, core.Reason{Layer: agenthost.FindingLayer, Rule: f.Rule.ID, Message: f.Message(core.Language(lang))})
	}

	var dirEnv []string
	if p.Host != nil {
		dirEnv = p.Host.ProjectDirEnv()
	}
	root := projectRoot(env, plat, p.Cwd, dirEnv)
	if root != "" && cfg.Bool(config.KeyLockSessionRoot) && p.SessionID != "" {
		locked, note, err := session.Resolve(dataDir, p.SessionID, root, now, sessionPolicy(plat))
		if err != nil {
			out.Notes = append(out.Notes, err.Error())
		}
		if note != "" {
			out.Notes = append(out.Notes, note)
		}
		root = locked
	}
	call.ProjectRoot = root
	if root != "" {
		if wide, why := plat.IsWideRoot(plat.Clean(root)); wide {
			out.WideRoot = why
			out.Notes = append(out.Notes, "project root "+root+" is the "+why+": every write below it is inside the fence; only protected paths and the danger gate still ask")
		}
	}
	call.Cwd = root
	if c := plat.Clean(strings.TrimSpace(p.Cwd)); c.IsAbs() {
		call.Cwd = c.Norm
	}
	if d := strings.TrimSpace(p.Dir); d != "" {
		// The command runs there; a relative one is below the cwd, and
		// with no cwd known it stays unknown rather than guessed.
		dir := plat.Clean(d)
		if !dir.IsAbs() && call.Cwd != "" {
			dir = plat.Join(plat.Clean(call.Cwd), dir)
		}
		if dir.IsAbs() {
			call.Cwd = dir.Norm
		}
	}
	if root != "" {
		for _, r := range plat.WritableRoots(root, cfg.Get(config.KeyExtraWritableRoots)) {
			call.WritableRoots = append(call.WritableRoots, r.Norm)
		}
	}
	if kind == core.KindShell {
		var st analysis.Stats
		var reader *ondisk.Reader
		if files != nil {
			reader = ondisk.NewReader(files, ondisk.DefaultLimits)
		}
		call.Script = analysis.Analyze(call.Command, analysis.Options{Dialect: call.ShellDialect(), Cwd: call.Cwd, Home: plat.Home, Lookup: plat.Lookup, Stats: &st, Files: reader})
		out.AnalysisSteps = st.Steps
		if reader != nil {
			out.Files = reader.Records()
		}
	}
	return out, nil
}

// projectRoot is the first of vars that is set, else the payload cwd, as a
// clean absolute real path; "" when none is usable (a variable that is set
// but not absolute turns the fence off rather than letting it guess).
func projectRoot(env config.Env, plat paths.Platform, payloadCwd string, vars []string) string {
	raw := ""
	for _, k := range vars {
		if v, ok := env.Lookup(k); ok && strings.TrimSpace(v) != "" {
			raw = v
			break
		}
	}
	if raw == "" {
		raw = payloadCwd
	}
	r := plat.Clean(strings.TrimSpace(raw))
	if !r.IsAbs() {
		return ""
	}
	return plat.RealPath(r).Norm
}

// sessionPolicy is the session lock's view of plat: which roots are too
// wide to record or use, and which root holds another.
func sessionPolicy(plat paths.Platform) session.Policy {
	return session.Policy{
		Wide: func(root string) (string, bool) {
			wide, why := plat.IsWideRoot(plat.Clean(root))
			return why, wide
		},
		Contains: func(root, dir string) bool {
			return plat.Contains(plat.Clean(root), plat.Clean(dir))
		},
	}
}
