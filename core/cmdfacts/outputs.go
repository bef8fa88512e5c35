package cmdfacts

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Output options of common tools: the files and directories a command
// writes because an option names them (-o, --output, -f, -out, -w, -d,
// -B ...), or because of where its output operand stands (ffmpeg, magick,
// script). The project fence judges them as write targets.

// outputWriter says how one command names what it writes.
type outputWriter struct {
	// opts are the output options as written: "-o" (also -oFILE),
	// "--output" (also --output=FILE), "-out" (one dash, a long name:
	// also -out=FILE).
	opts []string
	// sub, when set, are the subcommands (first operands, lower-case)
	// under which opts apply: docker save, terraform plan.
	sub []string
	// groups are management commands a subcommand may follow (docker
	// image save, docker buildx build).
	groups []string
	// reads are options that make the command only read (ssh-keygen -l).
	reads []string
	// spaced: the tool takes a short option's value only as the next word
	// (javac -d DIR), so -deprecation is not -d eprecation.
	spaced bool
}

// outputWriters are the known writers, by command name.
var outputWriters = map[string]outputWriter{
	"pg_dump":       {opts: []string{"-f", "--file"}},
	"pg_dumpall":    {opts: []string{"-f", "--file"}},
	"pg_basebackup": {opts: []string{"-D", "--pgdata"}},
	"mysqldump":     {opts: []string{"-r", "--result-file"}},
	"mongodump":     {opts: []string{"-o", "--out", "--archive"}},
	"pandoc":        {opts: []string{"-o", "--output"}},
	"gpg":           {opts: []string{"-o", "--output"}},
	"gpg2":          {opts: []string{"-o", "--output"}},
	"age":           {opts: []string{"-o", "--output"}},
	"tcpdump":       {opts: []string{"-w"}},
	"tshark":        {opts: []string{"-w"}},
	"nmap":          {opts: []string{"-oN", "-oX", "-oG", "-oS", "-oA"}},
	"yt-dlp":        {opts: []string{"-o", "--output", "-P", "--paths"}},
	"youtube-dl":    {opts: []string{"-o", "--output"}},
	"terraform":     {opts: []string{"-out"}, sub: []string{"plan"}},
	"tofu":          {opts: []string{"-out"}, sub: []string{"plan"}},
	"javac":         {opts: []string{"-d", "-s", "-h"}, spaced: true},
	"kotlinc":       {opts: []string{"-d"}, spaced: true},
	"cmake":         {opts: []string{"-B", "--prefix"}},
	"webpack":       {opts: []string{"-o", "--output-path"}},
	"rollup":        {opts: []string{"-o", "--file", "-d", "--dir"}},
	"babel":         {opts: []string{"-o", "--out-file", "-d", "--out-dir"}},
	"iconv":         {opts: []string{"-o", "--output"}},
	"ld":            {opts: []string{"-o"}},
	"as":            {opts: []string{"-o"}},
	"mkisofs":       {opts: []string{"-o"}},
	"genisoimage":   {opts: []string{"-o"}},
	// ssh-keygen -f names the key it writes, except when it only prints,
	// tests or verifies (-l fingerprint, -y public key, -F find, -Y
	// verify/check-novalidate/find-principals read their -f file).
	"ssh-keygen": {opts: []string{"-f"}, reads: []string{"-l", "-y", "-F", "-B", "-D", "-e", "-i", "-L", "-Q", "-Y"}},
	"docker":     {opts: []string{"-o", "--output"}, sub: []string{"save", "export", "build"}, groups: []string{"image", "container", "buildx", "builder"}},
	"podman":     {opts: []string{"-o", "--output"}, sub: []string{"save", "export", "build"}, groups: []string{"image", "container", "buildx"}},
	"nerdctl":    {opts: []string{"-o", "--output"}, sub: []string{"save", "export", "build"}, groups: []string{"image", "container", "builder"}},
	"go": {opts: []string{"-coverprofile", "-cpuprofile", "-memprofile", "-blockprofile", "-mutexprofile", "-trace", "-outputdir"},
		sub: []string{"test"}},
	"dotnet":     {opts: []string{"-o", "--output"}, sub: []string{"build", "publish", "pack", "new", "restore", "test"}},
	"dot":        {opts: []string{"-o"}},
	"plantuml":   {opts: []string{"-o", "-output"}},
	"mmdc":       {opts: []string{"-o", "--output"}},
	"terser":     {opts: []string{"-o", "--output"}},
	"uglifyjs":   {opts: []string{"-o", "--output"}},
	"age-keygen": {opts: []string{"-o"}},
	"mkcert":     {opts: []string{"-cert-file", "-key-file", "-p12-file"}},
	"nasm":       {opts: []string{"-o"}},
	"swiftc":     {opts: []string{"-o"}},
	"ghc":        {opts: []string{"-o", "-outputdir", "-odir", "-hidir"}, spaced: true},
	"strip":      {opts: []string{"-o"}},
	"gs":         {opts: []string{"-o", "-sOutputFile"}},
	"pdflatex":   {opts: []string{"-output-directory"}},
	"xelatex":    {opts: []string{"-output-directory"}},
	"lualatex":   {opts: []string{"-output-directory"}},
	"latexmk":    {opts: []string{"-outdir", "-output-directory", "-auxdir"}},
	"helm":       {opts: []string{"-d", "--destination"}, sub: []string{"package", "pull", "fetch"}},
}

// OutputFiles returns the files and directories command name (normalised)
// writes because of its output options or output operands, as written;
// nil for commands it does not know. A value "-" (stdout) is returned
// as written: callers skip it. Cost: linear in the arguments.
func OutputFiles(name string, args []ir.Word) []ir.Word {
	switch name {
	case "ffmpeg":
		return ffmpegOutputs(args)
	case "magick", "convert", "montage", "composite", "compare", "import", "mogrify", "stream":
		return magickOutputs(name, args)
	case "script":
		return scriptOutputs(args)
	case "protoc":
		return protocOutputs(args)
	}
	w, ok := outputWriters[name]
	if !ok {
		return nil
	}
	if len(w.sub) > 0 && !hasSubcommand(args, w.sub, w.groups) {
		return nil
	}
	for _, a := range args {
		for _, r := range w.reads {
			if !a.Unknown && a.Value == r {
				return nil
			}
		}
	}
	var out []ir.Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Unknown {
			continue
		}
		if a.Value == "--" {
			break
		}
		v := a.Value
		for _, o := range w.opts {
			long := len(o) > 2
			if long && o[1] != '-' && strings.HasPrefix(v, "-"+o) {
				v = v[1:] // a one-dash long option also reads with two (Go's flag: --coverprofile)
			}
			switch {
			case v == o && i+1 < len(args):
				out = append(out, outputValue(args[i+1]))
				i++
			case long && strings.HasPrefix(v, o+"="):
				out = append(out, outputValue(SubWord(a, len(a.Value)-len(v)+len(o)+1)))
			case !long && !w.spaced && strings.HasPrefix(v, o) && len(v) > 2 && !strings.HasPrefix(v, "--"):
				out = append(out, outputValue(SubWord(a, 2)))
			default:
				continue
			}
			break
		}
	}
	return out
}

// outputValue reads a BuildKit output (type=local,dest=DIR) as its
// destination; any other value is the file itself.
func outputValue(w ir.Word) ir.Word {
	if w.Unknown || !strings.Contains(w.Value, "dest=") {
		return w
	}
	for _, f := range strings.Split(w.Value, ",") {
		if d, ok := strings.CutPrefix(f, "dest="); ok {
			return Literal(d)
		}
	}
	return w
}

// hasSubcommand reports whether the first operand is one of subs, or the
// second one when the first is a management group (docker image save,
// docker buildx build) or may be a global option's value (docker
// --context prod save).
func hasSubcommand(args []ir.Word, subs, groups []string) bool {
	for i, a := range args {
		if a.Unknown {
			return false
		}
		if strings.HasPrefix(a.Value, "-") {
			continue
		}
		if slices.Contains(subs, strings.ToLower(a.Value)) {
			return true
		}
		afterOption := i > 0 && strings.HasPrefix(args[i-1].Value, "-") && !strings.Contains(args[i-1].Value, "=")
		if !slices.Contains(groups, strings.ToLower(a.Value)) && !afterOption {
			return false
		}
		for _, b := range args[i+1:] {
			if b.Unknown {
				return false
			}
			if !strings.HasPrefix(b.Value, "-") {
				return slices.Contains(subs, strings.ToLower(b.Value))
			}
		}
		return false
	}
	return false
}

// ffmpegFlags are ffmpeg's options that take no value; every other
// option takes one.
var ffmpegFlags = map[string]bool{"-y": true, "-n": true, "-hide_banner": true, "-nostdin": true,
	"-stats": true, "-nostats": true, "-an": true, "-vn": true, "-sn": true, "-dn": true, "-shortest": true,
	"-re": true, "-copyts": true, "-start_at_zero": true, "-accurate_seek": true, "-noaccurate_seek": true,
	"-benchmark": true, "-benchmark_all": true, "-dump": true, "-hex": true, "-xerror": true,
	"-ignore_unknown": true, "-copy_unknown": true, "-report": true, "-autorotate": true,
	"-noautorotate": true, "-version": true, "-h": true, "-help": true, "-formats": true, "-codecs": true}

// ffmpegOutputs: every operand that is not an option's value (inputs
// come with -i): ffmpeg's output files; "-" (stdout) is not a file.
func ffmpegOutputs(args []ir.Word) []ir.Word {
	var out []ir.Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.Unknown && !strings.HasPrefix(a.KnownPrefix, "-"):
			out = append(out, a)
		case a.Value == "-":
		case strings.HasPrefix(a.Value, "-"):
			if !ffmpegFlags[a.Value] {
				i++ // its value (the input of -i too)
			}
		default:
			out = append(out, a)
		}
	}
	return out
}

// magickReaders are the ImageMagick tools that write no image file.
var magickReaders = map[string]bool{"identify": true, "display": true, "animate": true, "conjure": true}

// magickOutputs: ImageMagick writes its last operand (convert, magick,
// montage, composite, compare, import, stream; magick TOOL ... the same), every
// -write FILE, and mogrify rewrites every input in place. An output with
// a coder prefix (PNG:/x.png) is the file after it; a pseudo-output
// (info:, null:, png:-) writes no file.
func magickOutputs(name string, args []ir.Word) []ir.Word {
	if name == "magick" && len(args) > 0 && !args[0].Unknown && !strings.HasPrefix(args[0].Value, "-") {
		switch t := strings.ToLower(args[0].Value); {
		case magickReaders[t]:
			return nil
		case t == "mogrify" || t == "montage" || t == "composite" || t == "compare" || t == "import" || t == "convert" || t == "stream":
			name, args = t, args[1:]
		}
	}
	var out []ir.Word
	var operands []ir.Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.Unknown && !strings.HasPrefix(a.KnownPrefix, "-") && !strings.HasPrefix(a.KnownPrefix, "+"):
			operands = append(operands, a)
		case a.Unknown:
		case a.Value == "-write" && i+1 < len(args):
			out = append(out, args[i+1])
			i++
		case (strings.HasPrefix(a.Value, "-") || strings.HasPrefix(a.Value, "+")) && len(a.Value) > 1:
		default:
			operands = append(operands, a)
		}
	}
	switch {
	case name == "mogrify":
		out = append(out, operands...)
	case len(operands) >= 2 || (name == "import" && len(operands) == 1):
		out = append(out, operands[len(operands)-1])
	}
	kept := out[:0]
	for _, w := range out {
		if f, ok := magickFile(w); ok {
			kept = append(kept, f)
		}
	}
	return kept
}

// magickFile strips a coder prefix (PNG:out.png, png:-); ok is false for
// a pseudo-output that writes no file (info:, null:, x:, png:-).
func magickFile(w ir.Word) (ir.Word, bool) {
	if w.Unknown {
		return w, true
	}
	k := strings.IndexByte(w.Value, ':')
	if k < 2 || strings.ContainsAny(w.Value[:k], "/\\.") {
		return w, true // no coder, or C:\x.png (one letter)
	}
	rest := w.Value[k+1:]
	if rest == "" || rest == "-" || strings.HasPrefix(rest, "fd:") {
		return w, false
	}
	return SubWord(w, k+1), true
}

// scriptOutputs: script [options] [FILE] writes its typescript to FILE
// and its logs to -I/-O/-B/-T (--log-in, --log-out, --log-io,
// --log-timing).
func scriptOutputs(args []ir.Word) []ir.Word {
	p := ParseArgs(args, Spec{Short: "cEIOBTmo", Long: []string{"command", "echo", "log-in", "log-out", "log-io",
		"log-timing", "logging-format", "output-limit"}})
	out := p.Values("I", "O", "B", "T", "log-in", "log-out", "log-io", "log-timing")
	if len(p.Operands) > 0 {
		out = append(out, p.Operands[0])
	}
	return out
}

// protocOutputs: protoc --LANG_out=[OPTIONS:]DIR (and --LANG_out DIR).
func protocOutputs(args []ir.Word) []ir.Word {
	var out []ir.Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Unknown || !strings.HasPrefix(a.Value, "--") {
			continue
		}
		name, val, eq := strings.Cut(a.Value[2:], "=")
		if !strings.HasSuffix(name, "_out") && name != "descriptor_set_out" {
			continue
		}
		w := SubWord(a, 3+len(name))
		if !eq {
			if i+1 >= len(args) {
				continue
			}
			i++
			w, val = args[i], args[i].Value
		}
		if k := strings.LastIndexByte(val, ':'); k >= 0 && !(k == 1 && len(val) > 2 && (val[2] == '\\' || val[2] == '/')) {
			w = SubWord(w, k+1)
		}
		out = append(out, w)
	}
	return out
}
