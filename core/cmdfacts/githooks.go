package cmdfacts

import "github.com/zcode-fence/zcode-fence/core/ir"

// gitHookTable lists the client-side hooks a git subcommand runs when
// they are present and executable in the active hooks directory (git's
// githooks documentation), and which of them --no-verify (-n for commit)
// skips. reference-transaction runs on every ref update and
// post-index-change whenever the index is written, so they are listed for
// the subcommands that do either.
var gitHookTable = map[string]struct {
	hooks, verify []string
}{
	"commit":      {[]string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-rewrite", "reference-transaction", "post-index-change"}, []string{"pre-commit", "commit-msg"}},
	"merge":       {[]string{"pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-merge", "reference-transaction", "post-index-change"}, []string{"pre-merge-commit", "commit-msg"}},
	"pull":        {[]string{"pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-merge", "pre-rebase", "post-rewrite", "post-checkout", "reference-transaction", "post-index-change"}, []string{"pre-merge-commit", "commit-msg"}},
	"push":        {[]string{"pre-push", "reference-transaction"}, []string{"pre-push"}},
	"checkout":    {[]string{"post-checkout", "reference-transaction", "post-index-change"}, nil},
	"switch":      {[]string{"post-checkout", "reference-transaction", "post-index-change"}, nil},
	"rebase":      {[]string{"pre-rebase", "post-rewrite", "post-checkout", "prepare-commit-msg", "commit-msg", "reference-transaction", "post-index-change"}, []string{"pre-rebase"}},
	"am":          {[]string{"applypatch-msg", "pre-applypatch", "post-applypatch", "reference-transaction", "post-index-change"}, []string{"applypatch-msg", "pre-applypatch"}},
	"cherry-pick": {[]string{"prepare-commit-msg", "commit-msg", "post-commit", "reference-transaction", "post-index-change"}, nil},
	"revert":      {[]string{"prepare-commit-msg", "commit-msg", "post-commit", "reference-transaction", "post-index-change"}, nil},
	"worktree":    {[]string{"post-checkout"}, nil},
	"fetch":       {[]string{"reference-transaction"}, nil},
	"reset":       {[]string{"reference-transaction", "post-index-change"}, nil},
	"branch":      {[]string{"reference-transaction"}, nil},
	"tag":         {[]string{"reference-transaction"}, nil},
	"stash":       {[]string{"reference-transaction", "post-index-change"}, nil},
	"add":         {[]string{"post-index-change"}, nil},
	"rm":          {[]string{"post-index-change"}, nil},
	"mv":          {[]string{"post-index-change"}, nil},
	"restore":     {[]string{"post-index-change"}, nil},
	"update-ref":  {[]string{"reference-transaction"}, nil},
	"gc":          {[]string{"pre-auto-gc"}, nil},
}

// GitHooksRun returns the hooks git subcommand g runs from the hooks
// directory (pre-commit, post-checkout, pre-push ...), without those its
// --no-verify skips. Cost: linear in the arguments.
func GitHooksRun(g Git) []string {
	t, ok := gitHookTable[g.Sub]
	if !ok {
		return nil
	}
	noVerify := false
	for _, w := range g.Args {
		if w.Value == "--" {
			break
		}
		noVerify = noVerify || w.Value == "--no-verify" || w.Value == "-n" && g.Sub == "commit"
	}
	if g.Sub == "gc" && !hasWord(g.Args, "--auto") {
		return nil
	}
	if g.Sub == "worktree" && (len(g.Args) == 0 || g.Args[0].Value != "add") {
		return nil
	}
	var out []string
	for _, h := range t.hooks {
		skipped := false
		if noVerify {
			for _, v := range t.verify {
				skipped = skipped || v == h
			}
		}
		if !skipped {
			out = append(out, h)
		}
	}
	return out
}

func hasWord(ws []ir.Word, v string) bool {
	for _, w := range ws {
		if w.Value == v {
			return true
		}
	}
	return false
}
