package danger

import (
	"context"
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/secrets"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
	"github.com/zcode-fence/zcode-fence/core/shell/oneliner"
)

// The fourth line (rules.Secrets): credential stores outside the project
// (core/secrets) read, copied or sent by a shell command, printed by a
// password manager or keychain CLI, or read by a host's read tool. The
// catalogue is placed once per call, on the first command that reads a
// file (most calls read none).

// secretsOn reads protect_secrets from the call's options (the host sends
// it normalised; absent means the default, on).
func secretsOn(c *core.Call) bool {
	return c.Option(KeyProtectSecrets, ProtectSecrets.Default) != "false"
}

// secretSet is the catalogue placed for this call.
func (j *judge) secretSet() *secrets.Set {
	if j.secretsAt == nil {
		j.secretsAt = secrets.Resolve(j.plat, j.project.Norm)
	}
	return j.secretsAt
}

// secretHit is one store a word reaches.
type secretHit struct {
	hit
	what string
}

// secretWord judges one word naming a file (tree: read recursively):
// both the shell-resolved value and the raw text, relative ones against
// the command's directory. A word with an unknown part names no store
// that can be shown, and stays silent.
func (v *cmdv) secretWord(w ir.Word, tree bool) []secretHit {
	if w.Unknown && !strings.HasPrefix(w.Value, "~") {
		return nil
	}
	var out []secretHit
	texts := []string{w.Value}
	if v.c.Dialect == ir.Bash && w.LiteralTilde() {
		texts[0] = "./" + w.Value
	}
	if raw, ok := rawPath(w); ok {
		texts = append(texts, raw)
	}
	for _, s := range texts {
		if v.exemptText(s) {
			if v.j.steps != nil {
				v.j.spend(4) // as secretPath would have
			}
			continue
		}
		if h, ok := v.secretText(s, tree); ok {
			out = append(out, h)
			break
		}
	}
	return out
}

// secretText judges one path string.
func (v *cmdv) secretText(s string, tree bool) (secretHit, bool) {
	p, ok := v.absPath(s)
	if !ok {
		return secretHit{}, false
	}
	return v.j.secretPath(p, tree)
}

// exemptText reports whether path string s, relative, stays inside the
// project from the command's directory and names no store for certain
// (secrets.LexicallyExempt): no ".." segment, the directory inside the
// project, real paths lexical. It spares the everyday operand (cat
// src/main.go) the join and the catalogue. Cost: a Normalize and a
// containment test.
func (v *cmdv) exemptText(s string) bool {
	narrow := v.j.narrowProject()
	if !narrow.IsAbs() || v.j.plat.EvalSymlinks != nil {
		return false
	}
	p := v.j.plat.Normalize(s)
	if p.Kind != paths.Relative || hasDotDot(p.Norm) {
		return false
	}
	base, _ := v.baseDir()
	return secrets.LexicallyExempt(v.j.plat, narrow, base)
}

// hasDotDot reports whether a relative path has a ".." segment ("/" or
// "\\" separated).
func hasDotDot(s string) bool {
	for len(s) > 0 {
		i := strings.IndexAny(s, `/\`)
		seg := s
		if i >= 0 {
			seg, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if seg == ".." {
			return true
		}
	}
	return false
}

// narrowProject is the call's project root as the catalogue exempts it,
// computed once per call.
func (j *judge) narrowProject() paths.Path {
	if !j.narrowDone {
		j.narrowDone = true
		j.narrow = secrets.NarrowProject(j.plat, j.project.Norm)
	}
	return j.narrow
}

// secretAbs is word w as an absolute path (ok false when it has an
// unknown part or cannot be placed).
func (v *cmdv) secretAbs(w ir.Word) (paths.Path, bool) {
	if w.Unknown && !strings.HasPrefix(w.Value, "~") {
		return paths.Path{}, false
	}
	return v.absPath(w.Value)
}

// absPath places path string s: ~ and ~user expanded, a relative path in
// the command's directory.
func (v *cmdv) absPath(s string) (paths.Path, bool) {
	if strings.TrimSpace(s) == "" {
		return paths.Path{}, false
	}
	p := v.j.plat.Normalize(s)
	if p.Kind == paths.Unresolved {
		tp, ok := v.j.tildeUser(s)
		if !ok {
			return paths.Path{}, false
		}
		p = tp
	}
	if p.Kind == paths.Relative {
		base, _ := v.baseDir()
		if !base.IsAbs() {
			return paths.Path{}, false
		}
		p = v.j.plat.Join(base, p)
	}
	return p, p.IsAbs()
}

// secretPath judges one absolute path against the catalogue.
func (j *judge) secretPath(p paths.Path, tree bool) (secretHit, bool) {
	if !p.IsAbs() {
		return secretHit{}, false
	}
	if j.steps != nil {
		j.spend(4)
	}
	if secrets.LexicallyExempt(j.plat, j.narrowProject(), p) {
		return secretHit{}, false // inside the project: no catalogue needed
	}
	set := j.secretSet()
	h, ok := set.Read(p)
	if !ok && tree {
		h, ok = set.Holds(p)
	}
	if !ok {
		return secretHit{}, false
	}
	return secretHit{hit: hit{shown: j.homeShort(h.Path)}, what: h.What(!j.en)}, true
}

// homeShort names a path below home as ~/... (shorter in a reason, and
// the way the user knows it).
func (j *judge) homeShort(s string) string {
	home := j.plat.Clean(j.plat.Home)
	if !home.IsAbs() || home.Kind != paths.Unix || home.Norm == "/" {
		return s
	}
	if rest, ok := strings.CutPrefix(s, home.Norm); ok && (rest == "" || rest[0] == '/') {
		return "~" + rest
	}
	return s
}

// secrets judges one command for the fourth line.
func (v *cmdv) secrets() {
	if !v.j.secretsOn {
		return
	}
	sendDone, sendOn := false, false
	send := func() bool { // whether the output reaches a sender, once needed
		if !sendDone {
			sendDone, sendOn = true, v.feedsSender()
		}
		return sendOn
	}
	// Input redirects: whatever the command is, it reads the file.
	for _, r := range v.c.Redirects {
		if r.Op != "<" && r.Op != "<>" {
			continue
		}
		rule := rules.SecretRead
		if send() || cmdfacts.SendsStdin(v.c) {
			rule = rules.SecretSend
		}
		v.reportSecrets(rule, "< ", v.secretWord(r.Target, false))
	}
	// Readers, copiers and senders (none when the command reads no file,
	// or no word can name a store: plainWords).
	if cmdfacts.ReadsFiles(v.c) && !v.plainWords() {
		v.fileSecrets(send)
	}
	// CLIs that print a stored secret.
	if p, ok := cmdfacts.PrintsSecret(v.c); ok && !v.secretUsedQuietly() {
		v.secretPrint(p)
	}
	v.secretVars()
}

// fileSecrets judges the files command v reads, copies or sends
// (cmdfacts.FileReads); send: whether its output reaches a sender.
func (v *cmdv) fileSecrets(send func() bool) {
	for _, fr := range cmdfacts.FileReads(v.c) {
		hs, found := v.foundSecrets(fr.Word)
		if !found {
			hs = v.secretWord(fr.Word, fr.Tree)
		}
		if len(hs) == 0 {
			continue
		}
		if fr.Dest.Value != "" && !fr.Send && len(v.secretWord(fr.Dest, false)) > 0 {
			continue // a copy within the stores (cp ~/.ssh/id_rsa ~/.ssh/id_rsa.bak)
		}
		rule := rules.SecretRead
		if fr.Send || send() {
			rule = rules.SecretSend
		}
		v.reportSecrets(rule, "", hs)
	}
}

// plainWords reports whether no word of command v can name a store: every
// argument (value and text as written) a plain relative path that stays
// inside the project from the command's directory (letters, digits and
// "._+,-/", no ".." and no leading "/"; an option word without "/", so
// an attached value such as -f/x is no such word), no "=", "@", ":",
// "~" or quote that could start a path inside a word, and real paths
// lexical (secrets.LexicallyExempt). Then none of the command's file
// reads can reach a store, and FileReads is not even parsed: the
// everyday reader (cat package.json, head -n 50 src/main.go) costs a
// scan of its words. Cost: linear in the words' bytes, plus baseDir.
func (v *cmdv) plainWords() bool {
	narrow := v.j.narrowProject()
	if !narrow.IsAbs() || v.j.plat.EvalSymlinks != nil || len(v.c.Args) < 2 {
		return false
	}
	for _, w := range v.c.Args[1:] {
		if w.Unknown || !plainRelative(w.Value) || w.Raw != w.Value && !plainRelative(w.Raw) {
			return false
		}
	}
	base, _ := v.baseDir()
	return secrets.LexicallyExempt(v.j.plat, narrow, base)
}

// plainRelative: see plainWords.
func plainRelative(s string) bool {
	if strings.HasPrefix(s, "/") || strings.Contains(s, "..") || strings.HasPrefix(s, "-") && strings.Contains(s, "/") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '.', c == '_', c == '+', c == ',', c == '-', c == '/':
		default:
			return false
		}
	}
	return true
}

// secretPrint adds the finding of a printed secret.
func (v *cmdv) secretPrint(p cmdfacts.SecretPrinter) {
	what := p.What
	if !v.j.en {
		what = p.WhatZh
	}
	v.j.add(finding{rule: rules.SecretPrint, cmd: v.display(), detail: p.Detail, subject: what})
}

// secretVars judges credentials in environment variables: printing one
// by name (echo $AWS_SECRET_ACCESS_KEY, printenv GITHUB_TOKEN) and
// searching a dump of the environment for them (env | grep -i token) ask
// DG-SECRET-PRINT; a dump alone (env, printenv, export -p) is everyday
// diagnostics and stays silent, and so does a variable used as a
// credential (curl -H "Authorization: Bearer $GITHUB_TOKEN", echo
// "$CR_PAT" | docker login --password-stdin).
func (v *cmdv) secretVars() {
	var names []string
	for _, n := range cmdfacts.PrintsVars(v.c) {
		if cmdfacts.SecretVar(n) && !containsString(names, "$"+n) {
			names = append(names, "$"+n)
		}
	}
	if len(names) > 0 && !v.secretUsedQuietly() {
		v.secretPrint(cmdfacts.SecretPrinter{Detail: strings.Join(names, " "), What: cmdfacts.WhatEnvSecret, WhatZh: cmdfacts.WhatEnvSecretZh})
	}
	k := v.c.FeedsInto
	if v.c.Feed == ir.FeedPipe && k >= 0 && k < len(v.j.s.Commands) && cmdfacts.DumpsEnv(v.c) && cmdfacts.SearchesSecrets(&v.j.s.Commands[k]) {
		v.secretPrint(cmdfacts.SecretPrinter{Detail: "| " + v.j.view(k).display(), What: cmdfacts.WhatEnvSecret, WhatZh: cmdfacts.WhatEnvSecretZh})
	}
}

// secretEffects judges what an interpreter one-liner reads (its read
// effects, core/shell/oneliner: open(p), readFileSync, File.read, the
// source of a copy ...): a read whose path reaches a store asks. A read
// whose path is built at run time asks when the code names a store as a
// literal or the command passes one as an argument (python3 -c
// "print(open(sys.argv[1]).read())" ~/.ssh/id_rsa); perl's and ruby's
// operands after the code always count (-n, -p, <> and ARGF read them
// with no read call in the code). A store merely named (print the path)
// is no read. awk's operands are judged as a reader's (cmdfacts).
func (v *cmdv) secretEffects(in cmdfacts.Inline, effects []oneliner.Effect) {
	if !v.j.secretsOn {
		return
	}
	var hs []secretHit
	computed := false
	for _, e := range effects {
		if e.Op != "read" {
			continue
		}
		if e.Path == "" {
			computed = true
			continue
		}
		hs = append(hs, v.secretWord(cmdfacts.Literal(e.Path), e.Tree)...)
	}
	if in.Lang == "perl" || in.Lang == "ruby" {
		for _, w := range in.Files {
			hs = append(hs, v.secretWord(w, false)...)
		}
	}
	if computed && len(hs) == 0 {
		for _, lit := range pathLiterals(in.Code) {
			hs = append(hs, v.secretWord(cmdfacts.Literal(lit), false)...)
		}
		for _, w := range v.args {
			hs = append(hs, v.secretWord(w, false)...)
		}
	}
	v.reportSecretsAs(rules.SecretRead, in.Via, "", hs)
}

// foundSecrets judges a word that stands for what a find finds: {} of
// find's -exec (the command's parent), or xargs's input fed by a find. The
// files read are those below find's start paths that its -name / -iname
// tests pick (all of them with no such test): find ~ -name id_rsa -exec
// cat {} +, find ~/.aws -type f | xargs cat. found is false when w
// stands for no find's findings.
func (v *cmdv) foundSecrets(w ir.Word) (hs []secretHit, found bool) {
	lister := -1
	switch {
	case strings.Contains(w.Raw, "{}") && v.c.Parent >= 0:
		lister = v.c.Parent
	case w.Value == analysis.InputPlaceholder && v.viaLast().Kind == ir.ViaXargs:
		v.j.upstream(v.i, func(k int, kind ir.FeedKind) bool {
			if kind == ir.FeedArgs {
				lister = k
			}
			return lister < 0
		})
	}
	if lister < 0 {
		return nil, false
	}
	lv := v.j.view(lister)
	if lv.name != "find" {
		return nil, false
	}
	f := cmdfacts.ParseFind(lv.args)
	var names []string
	for _, n := range f.Names {
		if n.Negated || n.Pattern.Unknown || (n.Test != "-name" && n.Test != "-iname") {
			continue
		}
		names = append(names, n.Pattern.Value)
	}
	for _, r := range f.Roots {
		if len(names) == 0 {
			hs = append(hs, lv.secretWord(r, true)...)
			continue
		}
		p, ok := lv.secretAbs(r)
		if !ok {
			continue
		}
		if h, ok := v.j.secretSet().HoldsNamed(p, names); ok {
			hs = append(hs, secretHit{hit: hit{shown: v.j.homeShort(h.Path)}, what: h.What(!v.j.en)})
		}
	}
	return hs, true
}

// reportSecrets adds one finding for the stores hs name.
func (v *cmdv) reportSecrets(rule *rules.Rule, detail string, hs []secretHit) {
	v.reportSecretsAs(rule, v.display(), detail, hs)
}

func (v *cmdv) reportSecretsAs(rule *rules.Rule, cmd, detail string, hs []secretHit) {
	if len(hs) == 0 {
		return
	}
	f := finding{rule: rule, cmd: cmd, detail: strings.TrimSpace(detail)}
	var whats []string
	for _, h := range hs {
		f.targets = append(f.targets, h.hit)
		if !containsString(whats, h.what) {
			whats = append(whats, h.what)
		}
	}
	f.subject = strings.Join(whats, ", ")
	v.j.add(f)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// feedsSender reports whether this command's output is piped into a
// command that sends its input off the machine (cat key | nc host 80).
func (v *cmdv) feedsSender() bool {
	k := v.c.FeedsInto
	if k < 0 || k >= len(v.j.s.Commands) || v.c.Feed != ir.FeedPipe {
		return false
	}
	return cmdfacts.SendsStdin(&v.j.s.Commands[k])
}

// secretUsedQuietly reports whether a printer's output is used as a
// credential rather than shown: substituted into an argument of a command
// that does not print it ($(gh auth token) in a curl header), or piped
// into a login that reads it on stdin (docker login --password-stdin).
func (v *cmdv) secretUsedQuietly() bool {
	k := v.c.FeedsInto
	if k < 0 || k >= len(v.j.s.Commands) {
		return false
	}
	into := &v.j.s.Commands[k]
	switch v.c.Feed {
	case ir.FeedSubst:
		if into.Name == "" && len(into.Args) == 0 {
			// t=$(gh auth token): quiet unless a later command prints
			// the variable (echo "$t" > token.txt).
			return !v.substPrinted()
		}
		return !cmdfacts.EchoesArgs(into)
	case ir.FeedPipe:
		return cmdfacts.ConsumesSecret(into)
	}
	return false
}

// substPrinted reports whether this command's output, substituted into a
// variable, is printed by a command of the script: an argument of a
// command that echoes its arguments holds the substitution's text (the
// analysis puts a variable's value in its place).
func (v *cmdv) substPrinted() bool {
	var words []string
	for _, a := range v.c.Args {
		words = append(words, a.Value)
	}
	text := strings.Join(words, " ")
	for i := range v.j.s.Commands {
		c := &v.j.s.Commands[i]
		if i == v.i || !cmdfacts.EchoesArgs(c) {
			continue
		}
		for _, a := range c.Args[1:] {
			if strings.Contains(a.Value, "$("+text+")") || strings.Contains(a.Value, "`"+text+"`") {
				return true
			}
		}
	}
	return false
}

// decideRead judges a host's read tool (core.KindRead): every path it
// reads, relative ones against the cwd, ~ and variables expanded, symlinks
// followed; a search reads its directory recursively.
func (l *Layer) decideRead(ctx context.Context, c *core.Call) core.Verdict {
	if !secretsOn(c) || ctx.Err() != nil {
		return core.SilentVerdict
	}
	plat := l.platform(c.Platform)
	j := &judge{ctx: ctx, plat: plat, en: c.Language() == core.English}
	if c.ProjectRoot != "" {
		j.project = plat.CleanRoot(c.ProjectRoot)
	}
	cwd := plat.Clean(c.Cwd)
	tree := c.Tool == "Grep" || c.Tool == "ReadMany"
	var hs []hit
	var whats []string
	for _, raw := range c.Paths {
		p := plat.Normalize(strings.TrimSpace(raw))
		if p.Kind == paths.Relative && cwd.IsAbs() {
			p = plat.Join(cwd, p)
		}
		h, ok := j.secretPath(p, tree)
		if !ok {
			continue
		}
		hs = append(hs, h.hit)
		if !containsString(whats, h.what) {
			whats = append(whats, h.what)
		}
	}
	if len(hs) == 0 {
		return core.SilentVerdict
	}
	f := finding{rule: rules.SecretReadTool, cmd: c.Tool, subject: strings.Join(whats, ", "), targets: hs}
	return core.AskVerdict(core.Reason{Layer: Name, Rule: f.rule.ID, Message: j.message(f)})
}
