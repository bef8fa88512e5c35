package cmdfacts

import (
	"slices"
	"strings"
	"sync"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// What commands read, copy and send, and which CLIs print stored secrets:
// the command knowledge the fourth line (core/secrets, the danger gate's
// secrets family) judges with. Each table is data, one entry per command,
// so that a typed "read"/"send" effect can be built from it.

// FileRead is one file or directory a command reads.
type FileRead struct {
	Word ir.Word
	// Tree: the command reads the directory recursively (grep -r, tar,
	// cp -r, rsync), so a store below it is read.
	Tree bool
	// Send: the command sends what it reads off the machine (curl -F @f,
	// scp, rsync to host:, gh gist create).
	Send bool
	// Dest is where a copy puts it (cp's last operand, -t DIR); Value ""
	// when the command is no copy.
	Dest ir.Word
}

// reader says how one command names the files it reads.
type reader struct {
	// valued are the options (as written) that take a value, so their
	// values are not taken for operands; nil reads the command by its
	// Syntax (see spec).
	valued []string
	// skip is how many leading operands are no files (grep's pattern,
	// jq's filter, awk's program) unless one of given is present.
	skip  int
	given []string
	// files are options whose value is a file read (openssl -in, gpg
	// --import); at are options whose value reads the file after an @
	// (curl -d @f, -F name=@f, --data-binary @f).
	files, at []string
	// last: the last operand is the destination, not read (cp, scp); dest
	// options (-t DIR) make every operand a source.
	last bool
	dest []string
	// tree is when the read is recursive: "*" always, else any of these
	// options (short letters as "-r").
	tree []string
	// send: it sends what it reads; with remote, only when the
	// destination names a remote (host:path).
	send   bool
	remote bool
	// sub: only under these first operands (gh gist create: "gist create").
	sub []string
	// noOps: only option values are read, no operand (curl, wget).
	noOps bool
	// pre is how many leading operands (after sub) are no files: zip's
	// archive, 7z's command and archive.
	pre int
	// dir are options whose value is the directory the relative operands
	// are in (tar -C DIR).
	dir []string
}

// fileReaders are the commands that read files into their output, copy
// them elsewhere, or send them, by normalised command name. The names of
// one show share one reader: the map holds pointers (a reader is 200-odd
// bytes), sized for the table, so building it at start-up costs one small
// table, not a value table grown several times.
var fileReaders = make(map[string]*reader, 192)

func init() {
	show := func(r reader, names ...string) {
		for _, n := range names {
			fileReaders[n] = &r
		}
	}
	// Print, page or encode a file's content.
	show(reader{}, "cat", "tac", "less", "more", "most", "rev", "view", "vis", "uuencode", "lz4cat", "zcat", "bzcat",
		"xzcat", "zstdcat", "type", "get-content", "gc", "certutil", "strings", "expand", "unexpand", "paste", "column", "uniq")
	show(reader{valued: []string{"-n", "--lines", "-c", "--bytes", "-s", "--sleep-interval", "--pid"}}, "head", "tail")
	show(reader{valued: []string{"-w", "--wrap"}}, "base64", "base32", "basenc", "fold", "fmt")
	show(reader{valued: []string{"-c", "-g", "-l", "-s", "-o", "-C", "--cols", "--len", "--seek"}}, "xxd")
	show(reader{valued: []string{"-A", "-j", "-N", "-t", "-w", "--address-radix", "--skip-bytes", "--read-bytes", "--format", "--width"}}, "od")
	show(reader{valued: []string{"-e", "-f", "-n", "-s"}}, "hexdump", "hd")
	show(reader{valued: []string{"-b", "-v", "-i", "-w", "-s", "-l"}}, "nl")
	show(reader{valued: []string{"-d", "-f", "-c", "-b", "--delimiter", "--fields", "--characters", "--bytes"}}, "cut")
	show(reader{}, "sort") // by its Syntax
	show(reader{valued: []string{"-f", "-t", "--from-code", "--to-code", "-o", "--output"}}, "iconv")
	show(reader{valued: []string{"-l", "--language", "-H", "--highlight-line", "--theme", "-r", "--line-range", "--style"}}, "bat", "batcat")
	show(reader{valued: []string{"-h", "-l", "-o", "-w"}}, "pr")
	// PowerShell and cmd.exe copies.
	show(reader{valued: []string{"-destination", "-filter", "-include", "-exclude"}, last: true, dest: []string{"-destination"},
		tree: []string{"-recurse"}}, "copy-item", "copy", "xcopy", "robocopy")
	show(reader{valued: []string{"-e", "--regexp", "-f", "--file", "-m", "--max-count", "-A", "-B", "-C", "--context",
		"--include", "--exclude", "--exclude-dir", "-g", "--glob", "-t", "--type"}, skip: 1,
		given: []string{"-e", "--regexp", "-f", "--file"}, tree: []string{"-r", "-R", "--recursive", "--dereference-recursive"}},
		"grep", "egrep", "fgrep", "zgrep")
	// ripgrep, ag and ack search directories recursively.
	show(reader{valued: []string{"-e", "--regexp", "-f", "--file", "-m", "-A", "-B", "-C", "-g", "--glob", "-t", "--type",
		"-T", "--type-not", "-j", "--threads", "-M", "--max-columns"}, skip: 1, given: []string{"-e", "--regexp", "-f", "--file"},
		tree: []string{"*"}}, "rg", "ag", "ack", "ack-grep")
	show(reader{valued: []string{"-f", "--from-file", "--arg", "--argjson", "--slurpfile", "--rawfile", "--indent"}, skip: 1,
		given: []string{"-f", "--from-file", "-n", "--null-input"}}, "jq", "gojq", "yq")
	show(reader{valued: []string{"-f", "-v", "-F"}, skip: 1, given: []string{"-f"}}, "awk", "gawk", "mawk", "nawk")
	show(reader{skip: 1, given: []string{"-e", "--expression", "-f", "--file"}}, "sed")
	show(reader{valued: []string{"-I", "--ignore-matching-lines", "-x", "--exclude"}, tree: []string{"-r", "--recursive"}}, "diff", "colordiff")
	show(reader{noOps: true}, "openssl") // one-dash long options: opensslReads
	show(reader{noOps: true}, "dd")      // if=FILE: ddReads
	show(reader{}, "gzip", "bzip2", "xz", "zstd", "lz4", "brotli", "pigz")
	// Copies: the sources are read.
	show(reader{last: true, dest: []string{"-t", "--target-directory"}, tree: []string{"-r", "-R", "-a", "--recursive", "--archive"}},
		"cp", "install", "ln")
	show(reader{last: true, dest: []string{"-t", "--target-directory"}, tree: []string{"*"}}, "mv")
	show(reader{valued: []string{"-t", "--target-directory", "-S", "--suffix"}, last: true, dest: []string{"-t", "--target-directory"},
		tree: []string{"*"}}, "move")
	show(reader{last: true, tree: []string{"-r"}, send: true, remote: true}, "scp")
	show(reader{last: true, tree: []string{"*"}, send: true, remote: true}, "rsync")
	// Archivers: every operand after the archive.
	show(reader{valued: []string{"-f", "--file", "-C", "--directory", "-T", "--files-from", "-X", "--exclude-from",
		"--exclude", "-b", "--blocking-factor", "-I", "--use-compress-program"}, files: []string{"-T", "--files-from"}, tree: []string{"*"},
		dir: []string{"-C", "--directory"}}, "tar", "bsdtar")
	show(reader{valued: []string{"-b", "-n", "-t", "-tt", "-x", "-i", "-P", "--password", "-O", "--output-file"}, pre: 1,
		tree: []string{"-r", "--recurse-paths", "-R"}}, "zip")
	show(reader{valued: []string{"-o", "-p", "-w", "-x", "-i", "-t", "-m", "-v"}, pre: 2, tree: []string{"*"}}, "7z", "7za", "7zz", "rar")
	show(reader{valued: []string{"-o", "--output", "-r", "--recipient", "-u", "--local-user", "--default-key"}}, "gpg", "gpg2", "age")
	// Senders.
	show(reader{valued: []string{"-o", "--output", "-H", "--header", "-X", "--request", "-u", "--user", "-A", "--user-agent",
		"-e", "--referer", "-b", "--cookie", "-c", "--cookie-jar", "-x", "--proxy", "-w", "--write-out", "-m", "--max-time",
		"--connect-timeout", "-K", "--config", "--url", "-E", "--cert", "--key", "--cacert", "-r", "--range", "-Y", "-y",
		"--resolve", "--data-raw"},
		files: []string{"-T", "--upload-file", "-K", "--config"},
		at:    []string{"-d", "--data", "--data-binary", "--data-ascii", "--data-urlencode", "-F", "--form", "--json"},
		noOps: true, send: true}, "curl")
	show(reader{valued: []string{"-O", "--output-document", "-o", "--output-file", "-P", "--directory-prefix", "--header",
		"--post-data", "--body-data", "--method", "-U", "--user-agent", "--user", "--password"},
		files: []string{"--post-file", "--body-file"}, noOps: true, send: true}, "wget")
	show(reader{sub: []string{"gist create", "gist edit", "release upload", "secret set", "ssh-key add", "gpg-key add"},
		valued: []string{"-d", "--desc", "-f", "--filename", "-R", "--repo", "-b", "--body", "-e", "--env", "-o", "--org",
			"--app", "-t", "--title", "-v", "--visibility"}, files: []string{"-F", "--body-file"}, send: true}, "gh")
	show(reader{sub: []string{"s3 cp", "s3 sync", "s3 mv"}, valued: []string{"--profile", "--region", "--endpoint-url",
		"--exclude", "--include", "--acl", "--storage-class"}, last: true, tree: []string{"--recursive"}, send: true}, "aws")
	show(reader{sub: []string{"cp", "rsync", "mv"}, last: true, tree: []string{"-r", "-R"}, send: true}, "gsutil")
	show(reader{sub: []string{"storage cp", "storage rsync", "storage mv"}, last: true, tree: []string{"-r", "--recursive"}, send: true}, "gcloud")
	show(reader{sub: []string{"copy", "copyto", "sync", "move", "moveto"}, valued: []string{"--config", "--exclude", "--include",
		"--filter"}, last: true, tree: []string{"*"}, send: true}, "rclone")
	show(reader{sub: []string{"cp"}, valued: []string{"-c", "--container", "-n", "--namespace", "--context"}, last: true,
		tree: []string{"*"}, send: true}, "kubectl", "oc")
	show(reader{sub: []string{"cp"}, last: true, tree: []string{"*"}, send: true}, "docker", "podman")
	show(reader{valued: []string{"-s", "--subject", "-c", "-b", "-r", "-a", "--attach", "-A", "--attach-file"},
		files: []string{"-a", "--attach", "-A", "--attach-file"}, noOps: true, send: true}, "mail", "mailx", "mutt", "s-nail")
	show(reader{send: true}, "xclip", "xsel", "pbcopy", "wl-copy", "clip")
}

// readerSpecs are the reader specs built so far, by command name (at
// most one per name of fileReaders).
var readerSpecs sync.Map // string -> Spec

// readerSpec is r.spec(name), built once per name and process. Cost: one
// map look-up after the first.
func readerSpec(name string, r *reader) Spec {
	if s, ok := readerSpecs.Load(name); ok {
		return s.(Spec)
	}
	s := r.spec(name)
	readerSpecs.Store(name, s)
	return s
}

// spec is the option syntax r reads command name with: the command's
// Syntax when r lists no valued options of its own, with r's files and at
// options added (they take values too); else r's own lists.
func (r reader) spec(name string) Spec {
	s, ok := syntaxes[name]
	if !ok || r.valued != nil {
		return SpecFor(append(append(slices.Clip(r.valued), r.files...), r.at...)...)
	}
	extra := SpecFor(append(slices.Clip(r.files), r.at...)...)
	s.Short += extra.Short
	s.Long = append(slices.Clip(s.Long), extra.Long...)
	return s
}

// ReadsFiles reports whether FileReads can list anything for command c:
// whether its name is in the table of readers. It spares a caller the
// scan of the words of a command that reads no file (git status, make).
// Cost: one map lookup.
func ReadsFiles(c *ir.Command) bool {
	if c == nil || len(c.Args) < 1 {
		return false
	}
	_, ok := fileReaders[c.Name]
	return ok
}

// FileReads lists the files and directories command c reads, copies or
// sends, by the table of readers: the operands of a printer (cat, base64,
// xxd, less ...), of a search after its pattern (grep, rg), the sources of
// a copy (cp, scp, rsync, mv, install, ln), the inputs of an archiver
// (tar, zip, 7z), and the files an option reads (curl -T F, -d @F, -F
// x=@F, wget --post-file F, openssl -in F, dd if=F, gh gist create F, aws
// s3 cp F s3://...). Input redirects (< F) are not here: every command
// reads those. Unknown commands give nil. Cost: linear in the arguments.
func FileReads(c *ir.Command) []FileRead {
	if c == nil || len(c.Args) < 1 {
		return nil
	}
	r, ok := fileReaders[c.Name]
	if !ok {
		return nil
	}
	args := c.Args[1:]
	subTree := false
	if len(r.sub) > 0 {
		n := matchSub(args, r.sub)
		if n == 0 {
			return nil
		}
		// A sync (aws s3 sync, gsutil rsync) copies whole trees.
		subTree = strings.HasSuffix(strings.ToLower(args[n-1].Value), "sync")
		args = args[n:]
	}
	switch c.Name {
	case "dd":
		return ddReads(args)
	case "openssl":
		return opensslReads(args)
	}
	parsed := ParseArgs(args, readerSpec(c.Name, r))
	tree := slices.Contains(r.tree, "*") || subTree
	for _, o := range parsed.Opts {
		if hasOpt(r.tree, o.Name) {
			tree = true
		}
	}
	send := r.send && !r.remote
	var out []FileRead
	var dest ir.Word
	add := func(w ir.Word) { out = append(out, FileRead{Word: w, Tree: tree, Send: send}) }
	for _, o := range parsed.Opts {
		if o.Val == nil {
			continue
		}
		if hasOpt(r.files, o.Name) {
			add(*o.Val)
		}
		if hasOpt(r.at, o.Name) {
			if w, ok := atFile(*o.Val); ok {
				add(w)
			}
		}
	}
	if r.noOps {
		return out
	}
	ops := parsed.Operands
	if r.skip > 0 && !givenAny(parsed.Opts, r.given) {
		ops = ops[min(r.skip, len(ops)):]
	}
	ops = ops[min(r.pre, len(ops)):]
	if r.last {
		if len(ops) < 2 && !givenAny(parsed.Opts, r.dest) {
			return out
		}
		if !givenAny(parsed.Opts, r.dest) {
			dest = ops[len(ops)-1]
			ops = ops[:len(ops)-1]
			if r.remote && RemoteSpec(dest.Value) {
				send = true
			}
		} else if d := optValue(parsed.Opts, r.dest); d != nil {
			dest = *d
		}
	}
	in := optValue(parsed.Opts, r.dir)
	for _, w := range ops {
		if r.remote && RemoteSpec(w.Value) {
			continue // a remote source is read there, not here
		}
		add(inDir(in, w))
	}
	for i := range out {
		out[i].Send = out[i].Send || send
		out[i].Dest = dest
	}
	return out
}

// optValue is the value of the last of the options names given (nil when
// none is).
func optValue(opts []Opt, names []string) *ir.Word {
	var v *ir.Word
	for _, o := range opts {
		if o.Val != nil && hasOpt(names, o.Name) {
			v = o.Val
		}
	}
	return v
}

// inDir is operand w read in directory dir (tar -C DIR x): DIR/x for a
// relative w when both are known; w itself otherwise.
func inDir(dir *ir.Word, w ir.Word) ir.Word {
	if dir == nil || dir.Unknown || w.Unknown || w.Value == "" || strings.ContainsAny(w.Value[:1], `/\~$`) {
		return w
	}
	return Literal(strings.TrimSuffix(dir.Value, "/") + "/" + w.Value)
}

// matchSub returns how many leading words of args match one of subs
// ("gist create"), 0 for none.
func matchSub(args []ir.Word, subs []string) int {
	var first [2]string // the first two operands: no allocation per call
	words := first[:0]
	for _, a := range args {
		if IsOption(a) {
			continue
		}
		words = append(words, strings.ToLower(a.Value))
		if len(words) == 2 {
			break
		}
	}
	for _, s := range subs {
		n, match := 0, true
		for f := range strings.FieldsSeq(s) {
			if n >= len(words) || words[n] != f {
				match = false
				break
			}
			n++
		}
		if match {
			// the index just past the last matched word
			seen, k := 0, 0
			for k < len(args) && seen < n {
				if !IsOption(args[k]) {
					seen++
				}
				k++
			}
			return k
		}
	}
	return 0
}

func hasOpt(list []string, name string) bool {
	for _, o := range list {
		if strings.TrimLeft(o, "-") == name {
			return true
		}
	}
	return false
}

func givenAny(opts []Opt, names []string) bool {
	for _, o := range opts {
		if hasOpt(names, o.Name) {
			return true
		}
	}
	return false
}

// atFile is the file of a curl data or form value that reads one: "@F",
// "name=@F", "name=<F" (form), "name@F" (data-urlencode); "@-" is stdin.
func atFile(w ir.Word) (ir.Word, bool) {
	v := w.Value
	i := strings.IndexAny(v, "@<")
	if i < 0 || i+1 >= len(v) {
		return ir.Word{}, false
	}
	if i > 0 && v[i] == '@' && v[i-1] != '=' && !isFormName(v[:i]) {
		return ir.Word{}, false
	}
	f := SubWord(w, i+1)
	if cut := strings.IndexByte(f.Value, ';'); cut >= 0 { // -F f=@file;type=text/plain
		f.Value = f.Value[:cut]
		f.KnownPrefix = f.Value
	}
	if f.Value == "-" || f.Value == "" {
		return ir.Word{}, false
	}
	return f, true
}

// isFormName: the name part of name@file (--data-urlencode).
func isFormName(s string) bool {
	for _, c := range s {
		if !(c == '_' || c == '-' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// opensslReads: openssl's one-dash file options (-in, -inkey, -key), as
// the next word or after "=".
func opensslReads(args []ir.Word) []FileRead {
	var out []FileRead
	for i, a := range args {
		for _, o := range []string{"-in", "-inkey", "-key"} {
			switch {
			case a.Value == o && i+1 < len(args):
				out = append(out, FileRead{Word: args[i+1]})
			case strings.HasPrefix(a.Value, o+"="):
				out = append(out, FileRead{Word: SubWord(a, len(o)+1)})
			}
		}
	}
	return out
}

// ddReads: dd's if=FILE.
func ddReads(args []ir.Word) []FileRead {
	var out []FileRead
	for _, a := range args {
		if strings.HasPrefix(a.Value, "if=") {
			out = append(out, FileRead{Word: SubWord(a, 3)})
		}
	}
	return out
}

// SecretPrinter is a CLI call that prints a stored secret (a password
// manager's entry, a keychain item, a login token).
type SecretPrinter struct {
	// Detail names the subcommand or option that prints it.
	Detail string
	// What names the secret in English and Chinese.
	What, WhatZh string
}

// printer is one entry of the printers table.
type printer struct {
	cmd string
	// sub are the leading operands, lower-case ("find-generic-password");
	// "*" matches any one operand (pass NAME).
	sub []string
	// needs: one of these options must be given (security -w); empty:
	// always. Short letters as "-w".
	needs []string
	// unless: none of these may be given.
	unless []string
	// quiet: the subcommands of sub that store rather than print (pass
	// otp insert, append, validate).
	quiet      []string
	what, whZh string
}

const (
	whatPassword   = "a password"
	whatPasswordZh = "密码管理器中的条目"
	whatKeychain   = "a keychain secret"
	whatKeychainZh = "钥匙串或密钥环中的密钥"
	whatToken      = "a login token"
	whatTokenZh    = "登录令牌或已存凭据"
	whatPrivate    = "private keys"
	whatPrivateZh  = "私钥"
	// WhatEnvSecret names a credential held in an environment variable.
	WhatEnvSecret   = "a secret environment variable"
	WhatEnvSecretZh = "保存凭据的环境变量"
)

// printers are the CLI calls that print stored secrets.
var printers = []printer{
	{cmd: "security", sub: []string{"find-generic-password"}, needs: []string{"-w", "-g"}, what: whatKeychain, whZh: whatKeychainZh},
	{cmd: "security", sub: []string{"find-internet-password"}, needs: []string{"-w", "-g"}, what: whatKeychain, whZh: whatKeychainZh},
	{cmd: "security", sub: []string{"dump-keychain"}, needs: []string{"-d"}, what: whatKeychain, whZh: whatKeychainZh},
	{cmd: "security", sub: []string{"export"}, what: whatKeychain, whZh: whatKeychainZh},
	{cmd: "secret-tool", sub: []string{"lookup"}, what: whatKeychain, whZh: whatKeychainZh},
	{cmd: "secret-tool", sub: []string{"search"}, what: whatKeychain, whZh: whatKeychainZh},
	{cmd: "keyring", sub: []string{"get"}, what: whatKeychain, whZh: whatKeychainZh},
	{cmd: "kwallet-query", needs: []string{"-r", "--read-password"}, what: whatKeychain, whZh: whatKeychainZh},
	{cmd: "pass", sub: []string{"show"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "pass", sub: []string{"grep"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "pass", sub: []string{"otp"}, quiet: otpQuiet, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "gopass", sub: []string{"show"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "gopass", sub: []string{"cat"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "gopass", sub: []string{"otp"}, quiet: otpQuiet, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "op", sub: []string{"read"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "op", sub: []string{"inject"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "op", sub: []string{"item", "get"}, needs: []string{"--reveal", "--fields", "--otp", "--format"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "op", sub: []string{"document", "get"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "bw", sub: []string{"get", "password"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "bw", sub: []string{"get", "totp"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "bw", sub: []string{"get", "notes"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "bw", sub: []string{"get", "item"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "bw", sub: []string{"get", "attachment"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "bw", sub: []string{"list", "items"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "bw", sub: []string{"export"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "lpass", sub: []string{"show"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "lpass", sub: []string{"export"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "keepassxc-cli", sub: []string{"show"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "keepassxc-cli", sub: []string{"export"}, what: whatPassword, whZh: whatPasswordZh},
	{cmd: "gh", sub: []string{"auth", "token"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "gh", sub: []string{"auth", "status"}, needs: []string{"-t", "--show-token"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "glab", sub: []string{"auth", "status"}, needs: []string{"-t", "--show-token"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "aws", sub: []string{"configure", "export-credentials"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "aws", sub: []string{"configure", "get", "aws_secret_access_key"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "aws", sub: []string{"configure", "get", "aws_session_token"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "gcloud", sub: []string{"auth", "print-access-token"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "gcloud", sub: []string{"auth", "print-identity-token"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "gcloud", sub: []string{"auth", "application-default", "print-access-token"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "az", sub: []string{"account", "get-access-token"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "heroku", sub: []string{"auth:token"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "fly", sub: []string{"auth", "token"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "flyctl", sub: []string{"auth", "token"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "vault", sub: []string{"print", "token"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "kubectl", sub: []string{"config", "view"}, needs: []string{"--raw"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "git", sub: []string{"credential", "fill"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "git", sub: []string{"credential-store", "get"}, what: whatToken, whZh: whatTokenZh},
	{cmd: "gpg", needs: []string{"--export-secret-keys", "--export-secret-subkeys"}, what: whatPrivate, whZh: whatPrivateZh},
	{cmd: "gpg2", needs: []string{"--export-secret-keys", "--export-secret-subkeys"}, what: whatPrivate, whZh: whatPrivateZh},
}

// otpQuiet are pass-otp's subcommands that store a one-time-password
// URI or check one without printing a secret (pass otp uri and pass otp
// [code] NAME print).
var otpQuiet = []string{"insert", "append", "validate"}

// passOthers are pass's and gopass's subcommands that print no secret; any
// other first operand is an entry's name, which they show.
var passOthers = []string{"ls", "list", "find", "search", "insert", "add", "edit", "generate", "rm", "remove", "delete",
	"mv", "rename", "cp", "copy", "git", "init", "help", "version", "sync", "setup", "config", "audit", "fsck", "mounts",
	"recipients", "templates", "alias", "env", "fscopy", "fsmove", "update", "completion", "create", "new", "clone", "link"}

// PrintsSecret reports whether command c prints a stored secret: a
// password manager's show (pass show X, pass X, gopass X, op read, op item
// get --reveal, bw get password, lpass show), a keychain lookup (security
// find-generic-password -w, secret-tool lookup, keyring get), a CLI's
// login token (gh auth token, gcloud auth print-access-token, az account
// get-access-token, aws configure export-credentials, kubectl config view
// --raw, git credential fill), a secret key export (gpg
// --export-secret-keys), a Docker credential helper's get. Listing and
// status calls (pass ls, op item list, gh auth status, kubectl config
// view) do not. Cost: linear in the arguments.
func PrintsSecret(c *ir.Command) (SecretPrinter, bool) {
	if c == nil || len(c.Args) == 0 {
		return SecretPrinter{}, false
	}
	own, named := printersByName()[c.Name]
	if !named && !strings.HasPrefix(c.Name, "docker-credential-") {
		return SecretPrinter{}, false
	}
	args := c.Args[1:]
	var ops []string
	for _, a := range args {
		if !IsOption(a) {
			ops = append(ops, strings.ToLower(a.Value))
		}
	}
	if strings.HasPrefix(c.Name, "docker-credential-") && len(ops) > 0 && ops[0] == "get" {
		return SecretPrinter{Detail: "get", What: whatToken, WhatZh: whatTokenZh}, true
	}
	if (c.Name == "pass" || c.Name == "gopass") && len(ops) > 0 && !slices.Contains(passOthers, ops[0]) {
		if _, known := printerSub(c.Name, ops); !known {
			return SecretPrinter{Detail: ops[0], What: whatPassword, WhatZh: whatPasswordZh}, true
		}
	}
	for _, p := range own {
		if len(ops) < len(p.sub) || !slices.Equal(ops[:len(p.sub)], p.sub) {
			continue
		}
		if len(p.needs) > 0 && !hasAnyOption(args, p.needs) {
			continue
		}
		if len(ops) > len(p.sub) && slices.Contains(p.quiet, ops[len(p.sub)]) {
			continue
		}
		return SecretPrinter{Detail: strings.Join(p.sub, " "), What: p.what, WhatZh: p.whZh}, true
	}
	return SecretPrinter{}, false
}

// printersByName indexes printers by command, in table order; pass and
// gopass are there even with no printer of their own. These are the
// command names PrintsSecret looks further at. Built once on first use.
var printersByName = sync.OnceValue(func() map[string][]printer {
	m := map[string][]printer{"pass": nil, "gopass": nil}
	for _, p := range printers {
		m[p.cmd] = append(m[p.cmd], p)
	}
	return m
})

// printerSub reports whether ops start with one of cmd's printer
// subcommands.
func printerSub(cmd string, ops []string) (printer, bool) {
	for _, p := range printers {
		if p.cmd == cmd && len(p.sub) > 0 && len(ops) >= len(p.sub) && slices.Equal(ops[:len(p.sub)], p.sub) {
			return p, true
		}
	}
	return printer{}, false
}

// hasAnyOption: one of names ("-w", "--reveal", "--fields") is given, as a
// word of its own, in a short cluster (-gw) or with =value.
func hasAnyOption(args []ir.Word, names []string) bool {
	for _, n := range names {
		if strings.HasPrefix(n, "--") {
			if HasLong(args, n) {
				return true
			}
			continue
		}
		if HasShort(args, n[1:]) {
			return true
		}
	}
	return false
}

// secretConsumers take a secret on their standard input and print none of
// it: a printer piped into one of them is a credential used through its
// own tool (aws ecr get-login-password | docker login --password-stdin).
var secretConsumers = map[string][]string{
	"docker": {"--password-stdin"}, "podman": {"--password-stdin"}, "nerdctl": {"--password-stdin"},
	"helm": {"--password-stdin"}, "oras": {"--password-stdin"}, "skopeo": {"--password-stdin"},
	"buildah": {"--password-stdin"}, "crane": {"--password-stdin"},
	"gh": {"--with-token"}, "glab": {"--stdin"},
}

// ConsumesSecret reports whether c takes a secret on its standard input
// without printing it (docker login --password-stdin, gh auth login
// --with-token).
func ConsumesSecret(c *ir.Command) bool {
	if c == nil {
		return false
	}
	opts, ok := secretConsumers[c.Name]
	if !ok || len(c.Args) < 2 {
		return false
	}
	return HasLong(c.Args[1:], opts...)
}

// stdinSenders send what they read on standard input off the machine:
// network clients, remote shells, mailers, clipboard tools.
var stdinSenders = []string{"nc", "ncat", "netcat", "socat", "telnet", "ssh", "sftp", "ftp", "curl", "wget", "openssl",
	"mail", "mailx", "sendmail", "mutt", "s-nail", "xclip", "xsel", "pbcopy", "wl-copy", "clip", "http", "https", "xh"}

// SendsStdin reports whether c sends its standard input off the machine
// (nc host 80 < FILE, cat FILE | ssh host 'cat > x', ... | pbcopy).
func SendsStdin(c *ir.Command) bool {
	return c != nil && slices.Contains(stdinSenders, c.Name)
}

// EchoesArgs reports whether c prints its arguments (echo, printf):
// a secret substituted into them is shown, not used.
func EchoesArgs(c *ir.Command) bool {
	if c == nil {
		return false
	}
	switch c.Name {
	case "echo", "printf", "print", "write-output", "write-host", "cat", "tee":
		return true
	}
	return false
}

// secretVarNames are environment variables that hold a credential by
// their whole name; secretVarSuffixes by their ending.
var (
	secretVarNames = []string{"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "GITHUB_TOKEN", "GH_TOKEN",
		"GH_ENTERPRISE_TOKEN", "GITLAB_TOKEN", "GL_TOKEN", "NPM_TOKEN", "NODE_AUTH_TOKEN", "TWINE_PASSWORD",
		"CARGO_REGISTRY_TOKEN", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY",
		"AZURE_CLIENT_SECRET", "ARM_CLIENT_SECRET", "DIGITALOCEAN_ACCESS_TOKEN", "HCLOUD_TOKEN", "VAULT_TOKEN",
		"HEROKU_API_KEY", "PGPASSWORD", "MYSQL_PWD", "SSH_PRIVATE_KEY", "GOOGLE_CREDENTIALS"}
	secretVarSuffixes = []string{"_TOKEN", "_SECRET", "_SECRET_KEY", "_API_KEY", "_APIKEY", "_PASSWORD", "_PASSWD",
		"_PAT", "_ACCESS_KEY", "_PRIVATE_KEY", "_CREDENTIALS"}
)

// SecretVar reports whether the environment variable name holds a
// credential: a known name (AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN,
// ANTHROPIC_API_KEY, PGPASSWORD ...) or a credential's ending (_TOKEN,
// _SECRET, _API_KEY, _PASSWORD, _PAT, _PRIVATE_KEY ...), in any case.
func SecretVar(name string) bool {
	n := strings.ToUpper(name)
	if slices.Contains(secretVarNames, n) {
		return true
	}
	for _, s := range secretVarSuffixes {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

// VarRefs lists the environment variables a word's source text refers to:
// $NAME, ${NAME...}, $env:NAME (PowerShell) and %NAME% (cmd.exe).
func VarRefs(raw string) []string {
	var out []string
	name := func(s string) string {
		i := 0
		for i < len(s) && (s[i] == '_' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 'a' && s[i] <= 'z' || i > 0 && s[i] >= '0' && s[i] <= '9') {
			i++
		}
		return s[:i]
	}
	for i := 0; i < len(raw); i++ {
		var n string
		switch {
		case raw[i] == '$' && strings.HasPrefix(strings.ToLower(raw[i+1:]), "env:"):
			n = name(raw[i+5:])
		case raw[i] == '$' && i+1 < len(raw) && raw[i+1] == '{':
			n = name(raw[i+2:])
		case raw[i] == '$':
			n = name(raw[i+1:])
		case raw[i] == '%':
			if n = name(raw[i+1:]); !strings.HasPrefix(raw[i+1+len(n):], "%") {
				n = ""
			}
		}
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// PrintsVars lists the environment variables command c prints: those
// referred to in the arguments of a command that prints its arguments
// (echo, printf, Write-Output; EchoesArgs, cat and tee aside: their
// arguments are files), and printenv's operands.
func PrintsVars(c *ir.Command) []string {
	if c == nil || len(c.Args) < 2 {
		return nil
	}
	var out []string
	switch {
	case c.Name == "printenv":
		for _, w := range c.Args[1:] {
			if !IsOption(w) {
				out = append(out, w.Value)
			}
		}
	case EchoesArgs(c) && c.Name != "cat" && c.Name != "tee":
		for _, w := range c.Args[1:] {
			out = append(out, VarRefs(w.Raw)...)
		}
	}
	return out
}

// DumpsEnv reports whether c prints the whole environment: env or
// printenv without operands, export -p, set, declare -x / -p and typeset
// without names, PowerShell's Get-ChildItem env:.
func DumpsEnv(c *ir.Command) bool {
	if c == nil || len(c.Args) == 0 {
		return false
	}
	switch c.Name {
	case "env", "printenv", "export", "declare", "typeset":
		return len(Operands(c.Args[1:])) == 0
	case "set":
		return len(c.Args) == 1
	case "get-childitem", "gci", "dir", "ls":
		ops := Operands(c.Args[1:])
		return len(ops) == 1 && strings.EqualFold(strings.TrimSuffix(ops[0].Value, `\`), "env:")
	}
	return false
}

// secretSearchWords are what a search of the environment looks for when
// it looks for credentials (env | grep -i token).
var secretSearchWords = []string{"token", "secret", "passw", "pwd", "key", "credential", "auth", "aws_", "gh_",
	"github", "npm_", "anthropic", "openai"}

// SearchesSecrets reports whether c is a search (grep, rg, findstr,
// Select-String) whose pattern names a credential word (token, secret,
// password, key, auth, aws_ ...).
func SearchesSecrets(c *ir.Command) bool {
	if c == nil || len(c.Args) < 2 {
		return false
	}
	switch c.Name {
	case "grep", "egrep", "fgrep", "rg", "ag", "findstr", "select-string", "sls":
	default:
		return false
	}
	for _, w := range c.Args[1:] {
		v := strings.ToLower(w.Value)
		if strings.HasPrefix(v, "-") && !strings.Contains(v, "=") {
			continue
		}
		for _, s := range secretSearchWords {
			if strings.Contains(v, s) {
				return true
			}
		}
	}
	return false
}
