package fence

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

// target is one path a command writes, creates, deletes, moves or
// modifies, as written.
type target struct {
	w ir.Word
	// under are directories w is relative to, applied in order from the
	// command's own directory (tar -C, curl --output-dir, git -C, patch -d).
	under []ir.Word
	// del: the command removes w itself, so a symlink as its last
	// component is not followed.
	del  bool
	verb verb
	// mode says how the target is judged (see targetMode).
	mode targetMode
	// bulk: the command writes members it does not name into w (an
	// extraction, a copy of a directory's contents), so a protected path
	// inside w may be overwritten.
	bulk bool
	// Protected places below w (places.go): from are the trees w becomes
	// or receives (cp -r, mv, rsync, ln -s, git mv), whole says w itself
	// is created or replaced from them; archive is the archive an
	// extraction into w reads, stdin that it (or a patch) comes on stdin;
	// sync that w also loses what its sources lack (rsync --delete);
	// names that the command writes files it names itself into w (curl
	// -O, wget -P), which an earlier command's write can be; extract that
	// w receives an archive's members (tar -x, unzip, 7z x).
	from    []ir.Word
	whole   bool
	archive *ir.Word
	stdin   bool
	extract bool
	sync    bool
	names   bool
	strip   int // tar --strip-components
	// onlyNames are the base-name patterns a find -delete picks by, when
	// it picks by nothing else (a protected place's excepted names are
	// then fair game: find .git -name '*.lock' -delete).
	onlyNames []string
	// namePrefix, with bulk: the members land directly in w under names
	// that begin with it (git checkout-index -a --prefix=dir/pre-), so
	// only the protected places whose name there begins with it count.
	namePrefix string
}

// targetMode says how a target is judged.
type targetMode uint8

const (
	// modeWrite: outside the roots asks, and so does a protected path.
	modeWrite targetMode = iota
	// modeProtected: only a protected path asks (the name a copy creates
	// inside its destination directory, the path a symlink points to).
	modeProtected
	// modeHardLink: the file a hard link is made to; outside the roots
	// asks (FN-HARDLINK-OUTSIDE), and so does a protected path.
	modeHardLink
)

// extractor lists the targets of one command from its arguments (the words
// after the command word).
type extractor func(args []ir.Word) []target

// commandTargets lists the write targets of command c by its dialect and
// name. PowerShell cmdlets bind their parameters (winshell.PSCommand);
// external programs in PowerShell and cmd.exe, and every bash command,
// go through the POSIX table; cmd.exe built-ins and Windows tools through
// the Windows one.
//
// Forms covered (POSIX table): rm, rmdir, unlink, shred; touch, mkdir,
// mkfifo, mknod, truncate, fallocate, tee, sponge; cp, mv (sources too),
// install, ln, link, rsync (and --remove-source-files, --log-file), scp,
// rclone, ditto, docker/podman/kubectl cp; chmod, chown, chgrp, chattr,
// setfacl; sed -i, perl -i, ruby -i; curl -o/-O/--output-dir/-D/-c/...,
// wget -O/-P/-o/-a, aria2c -d/-o; tar -x/-C and tar -c/-r/-u -f, unzip -d,
// 7z/7za/7zr/7zz x/e -o and a/u/d, zip, gzip/bzip2/xz/zstd/lz4 family; dd
// of=; find -delete (start paths) and -fprint/-fls; git clone/init/worktree
// add, git config --global/--system/--file writes, git archive -o, and git
// -C / --git-dir / --work-tree with a writing subcommand;
// sort -o, uniq OUT, split, csplit, patch, apply_patch (Codex's: the files
// its patch text names), mktemp, openssl -out/-keyout,
// cc/gcc/clang/rustc -o, go build -o; rimraf, mkdirp, shx CMD, npx/bunx/
// pnpx PKG (judged as PKG); pip/pip3/python -m pip/uv pip install --target/
// --prefix/--root/--src, download -d, wheel -w; npm/pnpm/yarn install-like
// subcommands with --prefix/-C/--dir/--cwd, npm pack --pack-destination.
// Windows table: copy, xcopy, robocopy (/MOV), move, del, erase, rd, rmdir,
// ren, md, mkdir, mklink, icacls, cacls, takeown, attrib.
// Any other command: the values of its output-like long options
// (outputOptions). Every command: the outputs cmdfacts.OutputFiles knows
// (ssh-keygen -f, pg_dump -f, mysqldump -r, docker save/export/build -o,
// go test -coverprofile, ffmpeg's output operands, magick's last operand,
// terraform plan -out, protoc --X_out, javac -d, cmake -B ...).
func commandTargets(c *ir.Command) []target {
	ts := tableTargets(c)
	if c.Dialect != ir.Cmd || c.Name == "git" {
		// The output options and operands of common tools (git archive -o,
		// ssh-keygen -f, pg_dump -f, docker save -o, ffmpeg's output ...).
		ts = append(ts, each(cmdfacts.OutputFiles(c.Name, c.Args[1:]), verbWrite)...)
	}
	return ts
}

// tableTargets lists the targets the tables below give.
func tableTargets(c *ir.Command) []target {
	args := c.Args[1:]
	if cmdfacts.IsApplyPatch(c.Name) {
		return applyPatchTargets(c) // any dialect: Codex applies it itself
	}
	if c.Name == "git" {
		return gitTargets(args, c.Assigns) // git reads its environment too (GIT_CONFIG_*)
	}
	switch c.Dialect {
	case ir.PowerShell:
		ts := psTargets(c)
		_, cmdlet := winshell.PowerShellCmdlet(c.Args[0].Value)
		if !cmdlet || c.Name == "curl" || c.Name == "wget" {
			if f := windowsTools[c.Name]; f != nil {
				ts = append(ts, f(args)...)
			} else if pts, ok := posixTable(c); ok {
				ts = append(ts, pts...)
			}
		}
		return ts
	case ir.Cmd:
		if f := cmdBuiltins[c.Name]; f != nil {
			return f(args)
		}
		if f := windowsTools[c.Name]; f != nil {
			return f(args)
		}
	}
	if ts, ok := posixTable(c); ok {
		return ts
	}
	if strings.HasPrefix(c.Name, "python") && len(args) > 1 && args[0].Value == "-m" && (args[1].Value == "pip" || args[1].Value == "pip3") {
		return pipTargets(args[2:]) // python -m pip install --target DIR
	}
	if c.Dialect == ir.Bash {
		if f := windowsTools[c.Name]; f != nil {
			return f(args) // robocopy, icacls ... run from Git Bash
		}
	}
	return outputOptions(args)
}

var posixTargets map[string]extractor

func init() {
	posixTargets = map[string]extractor{
		"scp":     remoteCopyTargets(syntax("scp")),
		"ditto":   remoteCopyTargets(syntax("ditto")),
		"rclone":  rcloneTargets,
		"docker":  containerCopyTargets(syntax("docker cp")),
		"podman":  containerCopyTargets(syntax("podman cp")),
		"kubectl": containerCopyTargets(syntax("kubectl cp")),
		"curl":    curlTargets,
		"wget":    wgetTargets,
		"aria2c":  aria2Targets,
		"tar":     tarTargets,
		"bsdtar":  tarTargets,
		"unzip":   unzipTargets,
		"7z":      sevenZipTargets,
		"7za":     sevenZipTargets,
		"7zr":     sevenZipTargets,
		"7zz":     sevenZipTargets,
		"zip":     zipTargets,
		"find":    findTargets,
		"sort":    optionTargets(syntax("sort"), "o", "output"),
		"uniq":    nthOperand(syntax("uniq"), 1, verbWrite),
		"split":   splitTargets,
		"csplit":  csplitTargets,
		"patch":   patchTargets,
		"mktemp":  mktempTargets,
		"openssl": openSSLTargets,
		"go":      goTargets,
		"rustc":   compilerTargets,
		"shx":     subcommandTargets,
		"pip":     pipTargets,
		"pip3":    pipTargets,
		"uv":      uvTargets,
		"npm":     nodePackageTargets,
		"pnpm":    nodePackageTargets,
		"yarn":    nodePackageTargets,
	}
	for _, n := range []string{"cc", "gcc", "g++", "c++", "clang", "clang++", "gfortran", "tcc"} {
		posixTargets[n] = compilerTargets
	}
	for _, n := range cmdfacts.PackageRunnerNames() {
		posixTargets[n] = packageRunner(n, posixTargets[n])
	}
	for _, n := range cmdfacts.Compressors() {
		posixTargets[n] = compressTargets(syntax(n))
	}
}

// syntax is the option syntax cmdfacts gives command name; a name it does
// not know is a mistake of this table (the tests build it).
func syntax(name string) cmdfacts.Spec {
	s, ok := cmdfacts.Syntax(name)
	if !ok {
		panic("fence: no cmdfacts.Syntax for " + name)
	}
	return s
}

// each makes targets of words, skipping "-" (stdin/stdout).
func each(ws []ir.Word, v verb) []target {
	out := make([]target, 0, len(ws))
	for _, w := range ws {
		if !w.Unknown && w.Value == "-" {
			continue
		}
		out = append(out, target{w: w, verb: v, del: v == verbRemove || v == verbMove})
	}
	return out
}

// bulkTargets are directories an extraction writes members it does not
// name into.
func bulkTargets(ws []ir.Word) []target {
	out := each(ws, verbWrite)
	for k := range out {
		out[k].bulk = true
	}
	return out
}

// here is the command's own directory, for tools that write into it.
var here = cmdfacts.Literal(".")

func operands(spec cmdfacts.Spec, v verb) extractor {
	return func(args []ir.Word) []target {
		return each(cmdfacts.ParseArgs(args, spec).Operands, v)
	}
}

func firstOperand(spec cmdfacts.Spec, v verb) extractor { return nthOperand(spec, 0, v) }

func nthOperand(spec cmdfacts.Spec, n int, v verb) extractor {
	return func(args []ir.Word) []target {
		ops := cmdfacts.ParseArgs(args, spec).Operands
		if len(ops) <= n {
			return nil
		}
		return each(ops[n:n+1], v)
	}
}

// optionTargets: the values of the named options are written.
func optionTargets(spec cmdfacts.Spec, names ...string) extractor {
	return func(args []ir.Word) []target {
		return each(cmdfacts.ParseArgs(args, spec).Values(names...), verbWrite)
	}
}

// remoteCopyTargets: scp / ditto SRC... DEST, DEST when local.
func remoteCopyTargets(spec cmdfacts.Spec) extractor {
	return func(args []ir.Word) []target {
		p := cmdfacts.ParseArgs(args, spec)
		d, ok := p.Last(2)
		if !ok || cmdfacts.RemoteSpec(d.Value) {
			return nil
		}
		out := each([]ir.Word{d}, verbWrite)
		var local, remote []ir.Word
		for _, s := range p.Operands[:len(p.Operands)-1] {
			if !cmdfacts.RemoteSpec(s.Value) {
				local = append(local, s)
			} else if _, rp, _ := strings.Cut(s.Value, ":"); !s.Unknown && rp != "" {
				remote = append(remote, cmdfacts.Literal(rp))
			}
		}
		if len(local) < len(p.Operands)-1 {
			// What a remote source holds is a remote party's, unseen, as a
			// downloaded archive's members: judged by DEST and the names
			// the sources land under (scp host:x/.claude . creates .claude).
			return append(out, copiedNames(d, append(local, remote...), verbWrite)...)
		}
		// ditto copies a source's contents; scp -r SRC DEST names it below
		// DEST when DEST is a directory.
		out[0].whole, out[0].bulk, out[0].from = true, true, local
		return append(out, copiedNames(d, local, verbWrite)...)
	}
}

// containerCopyTargets: docker / podman / kubectl cp SRC DEST with a local
// DEST (container:path is remote).
func containerCopyTargets(spec cmdfacts.Spec) extractor {
	return func(args []ir.Word) []target {
		if len(args) > 1 && args[0].Value == "container" {
			args = args[1:]
		}
		if len(args) == 0 || args[0].Value != "cp" {
			return nil
		}
		return remoteCopyTargets(spec)(args[1:])
	}
}

var rcloneSpec = syntax("rclone")

// rcloneTargets: copy/sync/move(to) DEST, move's source, and the operands
// of delete/purge/mkdir/rmdir/touch, when local.
func rcloneTargets(args []ir.Word) []target {
	p := cmdfacts.ParseArgs(args, rcloneSpec)
	out := each(p.Values("log-file"), verbWrite)
	if len(p.Operands) == 0 {
		return out
	}
	sub, rest := p.Operands[0].Value, p.Operands[1:]
	local := func(ws []ir.Word, v verb) {
		for _, w := range ws {
			if !cmdfacts.RemoteSpec(w.Value) {
				out = append(out, each([]ir.Word{w}, v)...)
			}
		}
	}
	// rclone copies a source directory's contents into the destination.
	contents := func() {
		if n := len(out); n > 0 && len(rest) >= 2 && !cmdfacts.RemoteSpec(rest[len(rest)-1].Value) {
			out[n-1].bulk, out[n-1].from = true, nil
			for _, s := range rest[:len(rest)-1] {
				if cmdfacts.RemoteSpec(s.Value) {
					return // unknown contents
				}
			}
			out[n-1].from = rest[:len(rest)-1]
			out[n-1].sync = sub == "sync" || sub == "bisync"
		}
	}
	switch sub {
	case "copy", "copyto", "sync", "bisync", "copyurl":
		if len(rest) >= 2 {
			local(rest[len(rest)-1:], verbWrite)
			if sub != "copyurl" {
				contents()
			}
		}
	case "move", "moveto":
		if len(rest) >= 2 {
			local(rest[len(rest)-1:], verbWrite)
			contents()
			local(rest[:len(rest)-1], verbMove)
		}
	case "delete", "purge", "deletefile", "rmdir", "rmdirs", "cleanup":
		local(rest, verbRemove)
	case "mkdir", "touch":
		local(rest, verbWrite)
	}
	return out
}

// posixTable lists c's targets by the POSIX table: for a command
// cmdfacts gives effects (cmdfacts.HasEffects), the targets of its
// Command.Effects, else those of its posixTargets extractor. ok is false
// when the table has no entry for c.Name.
func posixTable(c *ir.Command) (ts []target, ok bool) {
	if cmdfacts.HasEffects(c.Name) {
		return effectTargets(c.Effects), true
	}
	if f := posixTargets[c.Name]; f != nil {
		return f(c.Args[1:]), true
	}
	return nil, false
}

// inPosixTable reports whether the POSIX table has an entry for name.
func inPosixTable(name string) bool { return posixTargets[name] != nil || cmdfacts.HasEffects(name) }

// effectTargets: the targets of a command's effects (Command.Effects). A
// copy, move or link writes its targets; with Into they are directories
// the sources land in (cp -t DIR), else the one target becomes a copy of
// the sources when it does not exist (wholeFrom); either way the names
// the sources land under inside it are judged as protected places
// (copiedNames; see copyTargets). A move also moves its sources away,
// with targets or without (rsync --remove-source-files to a remote host).
func effectTargets(effects []ir.Effect) []target {
	var out []target
	for _, e := range effects {
		switch e.Op {
		case ir.EffectCopy, ir.EffectMove, ir.EffectLink:
			if len(e.Targets) > 0 {
				out = append(out, copyTargets(e)...)
			}
			if e.Op == ir.EffectMove {
				out = append(out, each(e.Sources, verbMove)...)
			}
		default:
			out = append(out, each(e.Targets, effectVerbs[e.Op])...)
		}
	}
	return out
}

// copyTargets: the targets of a copy, move or link effect with targets.
// A sync's (rsync --delete) target also loses what its sources lack; when
// some sources are remote, what the target receives is unknown (bulk, no
// from), and only the local sources' names are judged inside it.
func copyTargets(e ir.Effect) []target {
	var out []target
	if e.Into {
		out = each(e.Targets, verbWrite)
	} else {
		out = wholeFrom(each(e.Targets, verbWrite), 1, e.Sources)
	}
	for k := range out {
		if e.RemoteSources {
			out[k].from, out[k].bulk = nil, true
		}
		out[k].sync = e.Sync
	}
	return append(out, copiedNames(e.Targets[len(e.Targets)-1], e.Sources, verbWrite)...)
}

// effectVerbs are the verbs of the effect ops.
var effectVerbs = map[ir.EffectOp]verb{
	ir.EffectDelete: verbRemove,
	ir.EffectWrite:  verbWrite,
	ir.EffectModify: verbModify,
}

var curlSpec = syntax("curl")

// curlTargets: -o/--output files (under --output-dir), the remote-name
// files of -O/-J (into --output-dir or here), and the files -D, -c,
// --trace, --stderr, --libcurl, --etag-save, --hsts and --alt-svc write.
func curlTargets(args []ir.Word) []target {
	p := cmdfacts.ParseArgs(args, curlSpec)
	var under []ir.Word
	if d := p.Values("output-dir"); len(d) > 0 {
		under = d[len(d)-1:]
	}
	out := each(p.Values("o", "output"), verbWrite)
	if p.Has("O", "remote-name", "remote-name-all", "J", "remote-header-name") {
		out = append(out, named(each([]ir.Word{here}, verbWrite))...)
	}
	for k := range out {
		out[k].under = under
	}
	out = append(out, each(p.Values("D", "dump-header", "c", "cookie-jar", "trace", "trace-ascii", "stderr",
		"libcurl", "etag-save", "hsts", "alt-svc"), verbWrite)...)
	return out
}

var wgetSpec = syntax("wget")

// wgetTargets: -O files (relative to here, not -P), else the -P directory
// (or here) that downloads land in; -o/-a log files; --save-cookies.
func wgetTargets(args []ir.Word) []target {
	p := cmdfacts.ParseArgs(args, wgetSpec)
	out := each(p.Values("o", "output-file", "a", "append-output", "save-cookies"), verbWrite)
	if docs := p.Values("O", "output-document"); len(docs) > 0 {
		return append(out, each(docs, verbWrite)...)
	}
	if p.Has("spider") {
		return out
	}
	if d := p.Values("P", "directory-prefix"); len(d) > 0 {
		return append(out, named(each(d[len(d)-1:], verbWrite))...)
	}
	return append(out, named(each([]ir.Word{here}, verbWrite))...)
}

// named marks targets as directories a downloader writes files it names
// itself into (places.go: createdBefore).
func named(ts []target) []target {
	for k := range ts {
		ts[k].names = true
	}
	return ts
}

// aria2Targets: -o files under -d (or here), the -d directory, -l log.
func aria2Targets(args []ir.Word) []target {
	p := cmdfacts.ParseArgs(args, syntax("aria2c"))
	var under []ir.Word
	if d := p.Values("d", "dir"); len(d) > 0 {
		under = d[len(d)-1:]
	}
	out := each(p.Values("o", "out"), verbWrite)
	if len(out) == 0 {
		out = named(each([]ir.Word{here}, verbWrite))
	}
	for k := range out {
		out[k].under = under
	}
	return append(out, each(p.Values("l", "log"), verbWrite)...)
}

// tarTargets: extraction writes into the -C directories (cumulative) or
// here, unless to stdout (-O); create/append/update/catenate/delete write
// the -f archive. The traditional form (tar xzf a.tgz) takes the values of
// its letters from the following words, in order.
func tarTargets(args []ir.Word) []target {
	p := cmdfacts.ParseTar(args)
	extract, write := false, false
	for _, o := range p.Opts {
		switch o.Name {
		case "x", "extract", "get":
			extract = true
		case "c", "create", "r", "append", "u", "update", "A", "catenate", "concatenate", "delete":
			write = true
		}
	}
	if p.Has("O", "to-stdout", "to-command") {
		extract = false
	}
	out := each(p.Values("index-file"), verbWrite)
	if extract {
		t := target{w: here, under: p.Values("C", "directory"), verb: verbWrite, bulk: true, extract: true}
		if f := p.Values("f", "file"); len(f) > 0 && !(f[len(f)-1].Value == "-" && !f[len(f)-1].Unknown) {
			t.archive = &f[len(f)-1]
		} else {
			t.stdin = true // the archive comes on stdin (or from $TAPE)
		}
		for _, s := range p.Values("strip-components") {
			t.strip = atoiOr(s.Value, 0)
		}
		out = append(out, t)
		out = append(out, memberTargets(p.Operands, t.under, t.strip)...)
	}
	if write {
		out = append(out, each(p.Values("f", "file"), verbWrite)...)
	}
	return out
}

// unzipTargets: the -d directory (or here), unless the archive is only
// listed, tested or piped (-l -t -v -p -c -Z); the archive is the first
// operand.
func unzipTargets(args []ir.Word) []target {
	var dirs, members []ir.Word
	var archive *ir.Word
	excluding := false // the names after -x are left out
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		if w.Unknown || len(v) < 2 || v[0] != '-' {
			if archive == nil {
				archive = &args[i]
			} else if !excluding {
				members = append(members, w)
			}
			continue
		}
		excluding = v == "-x"
	cluster:
		for k := 1; k < len(v); k++ {
			switch v[k] {
			case 'd', 'P':
				var val ir.Word
				if k+1 < len(v) {
					val = cmdfacts.SubWord(w, k+1)
				} else if i+1 < len(args) {
					i++
					val = args[i]
				}
				if v[k] == 'd' {
					dirs = append(dirs, val)
				}
				break cluster
			case 'l', 't', 'v', 'p', 'c', 'Z':
				return nil
			}
		}
	}
	if len(dirs) == 0 {
		dirs = []ir.Word{here}
	}
	out := bulkTargets(dirs[len(dirs)-1:])
	out[0].archive = archive
	out[0].stdin = archive == nil
	out[0].extract = true
	return append(out, memberTargets(members, dirs[len(dirs)-1:], 0)...)
}

// memberTargets are the members an extraction names on its command line
// (tar -xf a.tar .claude, unzip a.zip '.husky/*'), where they land below
// the extraction directory under (with strip leading components removed):
// what an archive whose member list cannot be read is judged by. Only a
// protected path asks (the roots are the extraction directory's).
func memberTargets(members, under []ir.Word, strip int) []target {
	var out []target
	for _, m := range members {
		if strip > 0 && !m.Unknown {
			if m = cmdfacts.Literal(cmdfacts.StripDiffPath(m.Value, strip)); m.Value == "" {
				continue
			}
		}
		if !m.Unknown && strings.HasPrefix(m.Value, "/") {
			m = cmdfacts.Literal(strings.TrimLeft(m.Value, "/")) // extracted below the directory, as tar and unzip do
		}
		out = append(out, target{w: m, under: under, verb: verbWrite, mode: modeProtected})
	}
	return out
}

// sevenZipTargets: 7z x/e write into -oDIR (or here); a/u/d/rn write the
// archive.
func sevenZipTargets(args []ir.Word) []target {
	var cmd string
	var ops, outDirs []ir.Word
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case !w.Unknown && v == "-o" && i+1 < len(args):
			i++
			outDirs = append(outDirs, args[i])
		case !w.Unknown && strings.HasPrefix(v, "-o"):
			outDirs = append(outDirs, cmdfacts.SubWord(w, 2))
		case !w.Unknown && strings.HasPrefix(v, "-"):
		case cmd == "" && !w.Unknown:
			cmd = strings.ToLower(v)
		default:
			ops = append(ops, w)
		}
	}
	switch cmd {
	case "x", "e":
		if len(outDirs) == 0 {
			outDirs = []ir.Word{here}
		}
		out := bulkTargets(outDirs[len(outDirs)-1:])
		out[0].extract = true
		if len(ops) > 0 {
			out[0].archive = &ops[0] // e flattens paths: judged as x would
			out = append(out, memberTargets(ops[1:], outDirs[len(outDirs)-1:], 0)...)
		} else {
			out[0].stdin = true
		}
		return out
	case "a", "u", "d", "rn":
		if len(ops) > 0 {
			return each(ops[:1], verbWrite)
		}
	}
	return nil
}

// zipTargets: zip ARCHIVE FILE... writes ARCHIVE (and -O OUT).
func zipTargets(args []ir.Word) []target {
	p := cmdfacts.ParseArgs(args, cmdfacts.ZipSpec)
	out := each(p.Values("O", "output-file"), verbWrite)
	if len(p.Operands) > 0 {
		out = append(out, each(p.Operands[:1], verbWrite)...)
	}
	return out
}

// findTargets: the start paths when -delete is in the expression, and the
// files of -fprint, -fprint0, -fls and -fprintf. Commands of -exec are
// judged on their own (the analysis runs them with {} replaced by the
// start paths).
func findTargets(args []ir.Word) []target {
	f := cmdfacts.ParseFind(args)
	out := each(f.Outputs, verbWrite)
	if f.Delete {
		roots := each(f.Roots, verbRemove)
		if names := onlyNames(f); len(names) > 0 {
			for k := range roots {
				roots[k].onlyNames = names
			}
		}
		out = append(out, roots...)
	}
	return out
}

// onlyNames returns the patterns of a find expression that picks by base
// name alone (-name/-iname tests, none negated, no alternation, pruning or
// other test), nil otherwise.
func onlyNames(f cmdfacts.Find) []string {
	if !f.Filtered || f.Or || f.Prune || f.ByAttributes || len(f.Names) == 0 || f.Types != "" {
		return nil
	}
	var out []string
	for _, n := range f.Names {
		if n.Negated || n.Pattern.Unknown || n.Test != "-name" && n.Test != "-iname" {
			return nil
		}
		out = append(out, n.Pattern.Value)
	}
	return out
}

// gitWriters are git subcommands that change the repository or work tree
// they run in; with -C, --git-dir or --work-tree that place is judged.
var gitWriters = map[string]bool{
	"add": true, "am": true, "apply": true, "checkout": true, "cherry-pick": true, "clean": true, "commit": true,
	"fetch": true, "gc": true, "merge": true, "mv": true, "pull": true, "rebase": true, "reset": true,
	"restore": true, "revert": true, "rm": true, "stash": true, "switch": true, "tag": true, "branch": true,
	"submodule": true, "config": true, "notes": true, "prune": true, "repack": true, "update-index": true,
	"update-ref": true, "sparse-checkout": true, "lfs": true, "worktree": true, "init": true, "clone": true,
	"checkout-index": true, "read-tree": true, "merge-file": true, "bundle": true, "hash-object": true,
	"unpack-objects": true, "index-pack": true, "fast-import": true, "symbolic-ref": true, "replace": true,
	"filter-branch": true, "filter-repo": true, "commit-tree": true, "write-tree": true, "mktree": true,
	"mktag": true, "pack-refs": true, "maintenance": true, "rerere": true, "remote": true, "reflog": true,
}

var gitCloneSpec = syntax("git clone")

// gitTargets: clone's directory, init's directory, worktree add's path,
// --separate-git-dir; and for a writing subcommand run with -C,
// --git-dir or --work-tree, that directory.
func gitTargets(args []ir.Word, assigns []ir.Assign) []target {
	g := cmdfacts.ParseGit(args, assigns)
	if g.Sub == "" {
		return nil
	}
	under, places := g.Dirs, append(append([]ir.Word(nil), g.GitDir...), g.WorkTree...)
	sub, rest := g.Sub, g.Args
	var out []target
	switch sub {
	case "clone":
		p := cmdfacts.ParseArgs(rest, gitCloneSpec)
		out = each(p.Values("separate-git-dir"), verbWrite)
		dir := here
		switch {
		case len(p.Operands) >= 2:
			dir = p.Operands[1]
			out = append(out, each(p.Operands[1:2], verbWrite)...)
		case len(p.Operands) == 1:
			out = append(out, each([]ir.Word{here}, verbWrite)...)
		}
		out = append(out, gitDirFile(dir, p)...)
	case "init":
		p := cmdfacts.ParseArgs(rest, syntax("git init"))
		out = each(p.Values("separate-git-dir"), verbWrite)
		dir := here
		if len(p.Operands) > 0 {
			dir = p.Operands[0]
			out = append(out, each(p.Operands[:1], verbWrite)...)
		} else {
			out = append(out, each([]ir.Word{here}, verbWrite)...)
		}
		out = append(out, gitDirFile(dir, p)...)
	case "config":
		out = gitConfigTargets(rest)
	case "update-index":
		// Index entries at a place reach the work tree on a later checkout:
		// --cacheinfo MODE,SHA,PATH (or MODE SHA PATH) plants content that
		// exists nowhere on disk; --index-info reads entries from stdin.
		for i := 0; i < len(rest); i++ {
			a := rest[i]
			switch {
			case a.Value == "--index-info" && !a.Unknown:
				out = append(out, target{w: here, verb: verbWrite, bulk: true, stdin: true})
			case a.Value == "--cacheinfo" && i+1 < len(rest):
				if parts := strings.Split(rest[i+1].Value, ","); len(parts) == 3 && !rest[i+1].Unknown {
					out = append(out, each([]ir.Word{cmdfacts.Literal(parts[2])}, verbWrite)...)
					i++
				} else if i+3 < len(rest) {
					out = append(out, each(rest[i+3:i+4], verbWrite)...)
					i += 3
				}
			}
		}
	case "mv":
		// git mv SRC... DEST moves work-tree files like mv (and the index).
		p := cmdfacts.ParseArgs(rest, syntax("git mv"))
		if d, ok := p.Last(2); ok {
			sources := p.Operands[:len(p.Operands)-1]
			out = append(wholeFrom(each([]ir.Word{d}, verbWrite), 1, sources), copiedNames(d, sources, verbWrite)...)
			out = append(out, each(sources, verbMove)...)
		}
	case "archive":
		out = each(cmdfacts.ParseArgs(rest, syntax("git archive")).Values("o", "output"), verbWrite)
	case "worktree":
		if len(rest) > 0 && rest[0].Value == "add" {
			p := cmdfacts.ParseArgs(rest[1:], syntax("git worktree add"))
			if len(p.Operands) > 0 {
				out = each(p.Operands[:1], verbWrite)
			}
		}
	}
	// The places the arguments name (cmdfacts.GitWrites): checkout-index's
	// named paths and --prefix, read-tree -u --prefix, format-patch -o,
	// diff/log/show --output, bundle create FILE, merge-file's current
	// file, worktree move's new path, submodule add's path, ... Without
	// --prefix, checkout-index -a (or --stdin) writes the index entries
	// the work tree lacks (with -f, all of them): what the repository's
	// history or an earlier index write put there, as git checkout and
	// git restore write it, which are not place writes either; the index
	// writes that plant content no commit holds (update-index
	// --cacheinfo/--index-info, apply --cached) are judged where they
	// happen.
	for _, w := range cmdfacts.GitWrites(sub, rest) {
		for _, t := range each([]ir.Word{w.Path}, verbWrite) {
			t.bulk, t.namePrefix = w.Members, w.NamePrefix
			out = append(out, t)
		}
	}
	if len(out) == 0 && gitWriters[sub] && (len(under) > 0 || len(places) > 0) {
		if len(places) > 0 {
			out = each(places, verbWrite)
		} else {
			out = each([]ir.Word{here}, verbWrite)
		}
	}
	for k := range out {
		out[k].under = under
	}
	return out
}

// gitDirFile: with --separate-git-dir, init and clone write DIR/.git as a
// gitdir: file pointing at the separate dir (over an existing .git, init
// moves the repository there): a write of the .git place.
func gitDirFile(dir ir.Word, p cmdfacts.Args) []target {
	if len(p.Values("separate-git-dir")) == 0 || dir.Unknown {
		return nil
	}
	return each([]ir.Word{cmdfacts.Literal(strings.TrimRight(dir.Value, "/") + "/.git")}, verbWrite)
}

// gitConfigTargets: the file a `git config` write changes when it is not
// the repository's own: ~/.gitconfig for --global, /etc/gitconfig for
// --system, the --file / -f file.
func gitConfigTargets(args []ir.Word) []target {
	w, ok := cmdfacts.ParseGitConfigWrite(args)
	if !ok {
		return nil
	}
	switch w.Scope {
	case "global":
		return each([]ir.Word{cmdfacts.Literal("~/.gitconfig")}, verbWrite)
	case "system":
		return each([]ir.Word{cmdfacts.Literal("/etc/gitconfig")}, verbWrite)
	case "file":
		if w.File != nil {
			return each([]ir.Word{*w.File}, verbWrite)
		}
	}
	return nil
}

// splitTargets: split [FILE [PREFIX]] writes PREFIXaa... (xaa... here).
func splitTargets(args []ir.Word) []target {
	p := cmdfacts.ParseArgs(args, syntax("split"))
	if len(p.Operands) >= 2 {
		return each(p.Operands[1:2], verbWrite)
	}
	return each([]ir.Word{here}, verbWrite)
}

// csplitTargets: csplit -f PREFIX (xx00... here by default).
func csplitTargets(args []ir.Word) []target {
	p := cmdfacts.ParseArgs(args, syntax("csplit"))
	if f := p.Values("f", "prefix"); len(f) > 0 {
		return each(f, verbWrite)
	}
	return each([]ir.Word{here}, verbWrite)
}

// patchTargets: the file to patch (or the -d directory the patch's own
// file names are under, or here), -o and -r files, all under -d.
func patchTargets(args []ir.Word) []target {
	p := cmdfacts.ParseArgs(args, syntax("patch"))
	var under []ir.Word
	if d := p.Values("d", "directory"); len(d) > 0 {
		under = d[len(d)-1:]
	}
	out := each(p.Values("o", "output", "r", "reject-file"), verbWrite)
	if len(p.Operands) > 0 {
		out = append(out, each(p.Operands[:1], verbWrite)...)
	} else {
		out = append(out, each([]ir.Word{here}, verbWrite)...)
	}
	for k := range out {
		out[k].under = under
	}
	return out
}

// patchFromStdin stands for a patch text that reaches apply_patch through a
// pipe: the files it names cannot be known.
var patchFromStdin = ir.Word{Raw: "(the patch on its standard input)", Unknown: true}

// applyPatchTargets: every file the patch names (cmdfacts.ParsePatch),
// relative to the command's directory: added and moved-to files written,
// updated ones modified, deleted ones removed, the file of an update that
// moves it moved away. The patch is the heredoc or here-string on stdin,
// else the one argument; an argument with unknown parts, or no text at all
// (a patch piped in), is an unresolved target.
func applyPatchTargets(c *ir.Command) []target {
	text := c.Stdin
	if text == "" {
		if len(c.Args) < 2 {
			return each([]ir.Word{patchFromStdin}, verbWrite)
		}
		if w := c.Args[1]; w.Unknown {
			return each([]ir.Word{w}, verbWrite)
		}
		text = c.Args[1].Value
	}
	var out []target
	for _, f := range cmdfacts.ParsePatch(text) {
		v := verbWrite
		switch f.Op {
		case cmdfacts.PatchUpdate:
			v = verbModify
		case cmdfacts.PatchDelete:
			v = verbRemove
		case cmdfacts.PatchMoveTo:
			if n := len(out); n > 0 && out[n-1].verb == verbModify {
				out[n-1].verb, out[n-1].del = verbMove, true
			}
		}
		out = append(out, target{w: cmdfacts.Literal(f.Path), verb: v, del: v == verbRemove})
	}
	return out
}

// mktempTargets: the file (or directory) mktemp creates when it is not in
// the temp dir: TEMPLATE under -p DIR / --tmpdir=DIR, or a template here.
func mktempTargets(args []ir.Word) []target {
	p := cmdfacts.ParseArgs(args, syntax("mktemp"))
	if p.Has("u", "dry-run") {
		return nil
	}
	var under []ir.Word
	if d := p.Values("p", "tmpdir"); len(d) > 0 {
		under = d[len(d)-1:]
	} else if p.Has("t", "tmpdir") {
		return nil
	}
	var out []target
	switch {
	case len(p.Operands) > 0:
		out = each(p.Operands[:1], verbWrite)
	case len(under) > 0:
		out = each([]ir.Word{here}, verbWrite)
	}
	for k := range out {
		out[k].under = under
	}
	return out
}

// openSSLTargets: the files of -out and -keyout.
func openSSLTargets(args []ir.Word) []target {
	var out []target
	for i := 0; i+1 < len(args); i++ {
		if v := args[i].Value; !args[i].Unknown && (v == "-out" || v == "-keyout") {
			out = append(out, each(args[i+1:i+2], verbWrite)...)
			i++
		}
	}
	return out
}

// compilerTargets: cc/gcc/clang/rustc -o FILE (or -oFILE), -MF FILE (or
// -MFFILE).
func compilerTargets(args []ir.Word) []target {
	var out []target
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w.Unknown:
		case (w.Value == "-o" || w.Value == "-MF") && i+1 < len(args):
			out = append(out, each(args[i+1:i+2], verbWrite)...)
			i++
		case strings.HasPrefix(w.Value, "-o") && len(w.Value) > 2:
			out = append(out, each([]ir.Word{cmdfacts.SubWord(w, 2)}, verbWrite)...)
		case strings.HasPrefix(w.Value, "-MF") && len(w.Value) > 3:
			out = append(out, each([]ir.Word{cmdfacts.SubWord(w, 3)}, verbWrite)...)
		}
	}
	return out
}

// goTargets: go build/test/... -o FILE (or -o=FILE).
func goTargets(args []ir.Word) []target {
	if len(args) == 0 || (args[0].Value != "build" && args[0].Value != "test" && args[0].Value != "install") {
		return nil
	}
	var out []target
	for i := 1; i < len(args); i++ {
		w := args[i]
		switch {
		case w.Unknown:
		case (w.Value == "-o" || w.Value == "--o") && i+1 < len(args):
			out = append(out, each(args[i+1:i+2], verbWrite)...)
			i++
		case strings.HasPrefix(w.Value, "-o="):
			out = append(out, each([]ir.Word{cmdfacts.SubWord(w, 3)}, verbWrite)...)
		}
	}
	return out
}

// compressTargets: every file operand (it is replaced by its compressed
// or uncompressed twin), -o / --output-dir-* files; nothing when the
// output goes to stdout or the files are only tested or listed.
func compressTargets(spec cmdfacts.Spec) extractor {
	return func(args []ir.Word) []target {
		p := cmdfacts.ParseArgs(args, spec)
		out := each(p.Values("o", "output", "output-dir-flat", "output-dir-mirror"), verbWrite)
		if p.Has("c", "stdout", "to-stdout", "t", "test", "l", "list", "h", "help", "V", "version") {
			return out
		}
		return append(out, each(p.Operands, verbWrite)...)
	}
}

// outputNames are long options that name an output file or directory in
// most tools (--output, --out-dir, --target-dir, --log-file ...), compared
// lower-case (tsc's --outDir too).
var outputNames = map[string]bool{
	"output": true, "output-file": true, "outfile": true, "out-file": true, "output-dir": true,
	"output-directory": true, "outdir": true, "out-dir": true, "outputdir": true, "target-dir": true,
	"dest-dir": true, "download-dir": true, "log-file": true,
}

// outputOptions is the fallback for commands the tables do not list: the
// values of their output-like long options (pandoc --output=/x, cargo
// --target-dir /x, tsc --outDir /x). A value that is not a path (--output
// json) reads as a relative name, which is harmless inside the project.
func outputOptions(args []ir.Word) []target {
	var out []target
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w.Unknown || !strings.HasPrefix(w.Value, "--") {
			continue
		}
		name, _, eq := strings.Cut(w.Value[2:], "=")
		if !outputNames[strings.ToLower(name)] {
			continue
		}
		if eq {
			out = append(out, each([]ir.Word{cmdfacts.SubWord(w, 2+len(name)+1)}, verbWrite)...)
		} else if i+1 < len(args) && !cmdfacts.IsOption(args[i+1]) {
			i++
			out = append(out, each(args[i:i+1], verbWrite)...)
		}
	}
	return out
}

// subcommandTargets: shx rm -rf x (a portable command named by its first
// argument).
func subcommandTargets(args []ir.Word) []target {
	if len(args) == 0 || args[0].Unknown {
		return nil
	}
	// The command it runs, made here: its effects are filled as the
	// analysis fills them. Each level consumes a word: no loop.
	inner := ir.Command{Name: ir.CommandName(args[0].Value), Args: args}
	cmdfacts.FillEffects(&inner, inner.Name)
	ts, _ := posixTable(&inner)
	return ts
}

// packageRunner is the extractor of package runner name
// (cmdfacts.PackageRunnerArgs: npx, pnpm dlx, npm exec ...): the targets of
// the command it runs when it runs one, else other's (npm install
// --prefix DIR), if any.
func packageRunner(name string, other extractor) extractor {
	return func(args []ir.Word) []target {
		if inner, ok := cmdfacts.PackageRunnerArgs(name, args); ok {
			return packageRunnerTargets(inner)
		}
		if other != nil {
			return other(args)
		}
		return nil
	}
}

// packageRunnerTargets: [opts] PKG[@version] ARGS after a package runner
// (npx, pnpm dlx ...) run the package's command, judged like that command
// (npx rimraf ~).
func packageRunnerTargets(args []ir.Word) []target {
	p := cmdfacts.ParseArgs(args, syntax("npx"))
	if len(p.Operands) == 0 || p.Operands[0].Unknown {
		return nil
	}
	pkg := p.Operands[0].Value
	if i := strings.LastIndexByte(pkg, '@'); i > 0 {
		pkg = pkg[:i] // rimraf@5, @scope/tool@1
	}
	return subcommandTargets(append([]ir.Word{cmdfacts.Literal(pkg)}, p.Operands[1:]...))
}

var pipSpec = syntax("pip")

// pipTargets: pip install --target/--prefix/--root/--src DIR, pip download
// -d DIR, pip wheel -w DIR, --log and --report files, --cache-dir.
func pipTargets(args []ir.Word) []target {
	p := cmdfacts.ParseArgs(args, pipSpec)
	if len(p.Operands) == 0 {
		return nil
	}
	switch p.Operands[0].Value {
	case "install", "download", "wheel":
		return each(p.Values("t", "target", "prefix", "root", "src", "d", "dest", "w", "wheel-dir", "log", "report", "cache-dir"), verbWrite)
	}
	return nil
}

// uvTargets: uv pip install --target DIR (and the other pip forms).
func uvTargets(args []ir.Word) []target {
	if len(args) > 0 && args[0].Value == "pip" {
		return pipTargets(args[1:])
	}
	return nil
}

// nodeInstallers are npm/pnpm/yarn subcommands that write into the
// package directory.
var nodeInstallers = map[string]bool{"install": true, "i": true, "add": true, "ci": true, "update": true, "up": true,
	"remove": true, "rm": true, "uninstall": true, "un": true, "link": true, "ln": true, "prune": true, "dedupe": true}

// nodePackageTargets: npm/pnpm/yarn install-like subcommands with
// --prefix DIR (npm), -C/--dir DIR (pnpm) or --cwd DIR (yarn) write into
// DIR; and npm pack --pack-destination DIR. Global installs (-g) are not
// path writes and stay silent.
func nodePackageTargets(args []ir.Word) []target {
	p := cmdfacts.ParseArgs(args, syntax("npm"))
	if len(p.Operands) == 0 || p.Has("g", "global") {
		return nil
	}
	sub := p.Operands[0].Value
	if sub == "pack" {
		return each(p.Values("pack-destination"), verbWrite)
	}
	if !nodeInstallers[sub] {
		return nil
	}
	return each(p.Values("prefix", "C", "dir", "cwd"), verbWrite)
}
