package cmdfacts

import (
	"slices"
	"strings"
)

// The coverage catalogue: what the verb × resource tables of this package
// make ask, rendered for the rule reference (core/rules renders it into
// docs/rules.md under "What each rule covers"). It is read from the same
// tables the readers use, so the reference cannot drift from them; the
// conditions that are code rather than table rows (a SQL statement's
// effect, a gh api endpoint, firestore paths) stay in the rules' prose.
// Built only when the reference is rendered; nothing here runs on a call.

// Covered is one command (or a group of its commands) and the command
// paths of it that ask, as a reference shows them.
type Covered struct {
	// CLI names the command, with a leading group when the tool has many
	// ("aws rds"); aliases that share every row are joined ("lxc, incus").
	CLI string
	// Commands are its command paths that ask, sorted; "a/b" lists
	// aliases, and a condition follows the path ("rm --recursive",
	// "delete cluster with --yes"). Empty when every run asks.
	Commands []string
}

// InfraCoverage returns, per command, the table rows of kind k (the
// readers of Infra), sorted by CLI.
func InfraCoverage(k InfraKind) []Covered {
	var out []Covered
	if k == InfraCloud {
		for _, svc := range sortedNames(awsDestructive) {
			out = append(out, Covered{CLI: "aws " + svc, Commands: slices.Clone(awsDestructive[svc])})
		}
		for _, svc := range sortedNames(awsNeeds) {
			var cs []string
			for _, verb := range sortedNames(awsNeeds[svc]) {
				cs = append(cs, verb+" "+awsNeeds[svc][verb])
			}
			out = append(out, Covered{CLI: "aws " + svc, Commands: cs})
		}
		out = append(out, Covered{CLI: "gcloud", Commands: append(joinPaths(gcloudDestructive),
			strings.Join(gcloudRecursiveRm, " ")+" -r/--recursive, gs://B/** or gs://B/*")})
		out = append(out, Covered{CLI: "gsutil", Commands: []string{gsutilRecursiveRm + " -r/-R/--recursive, gs://B/** or gs://B/*"}})
		out = append(out, Covered{CLI: "az", Commands: joinPaths(azDestructive)})
		for _, name := range sortedNames(forgeDestructive) {
			out = append(out, Covered{CLI: name, Commands: joinPaths(forgeDestructive[name])})
		}
	}
	if k == InfraCluster {
		kinds := map[string]bool{}
		for _, kind := range kubeKinds {
			kinds[kind] = true
		}
		var cs []string
		for _, kind := range sortedNames(kinds) {
			var names []string
			for n, kk := range kubeKinds {
				if kk == kind {
					names = append(names, n)
				}
			}
			slices.SortFunc(names, func(a, b string) int {
				if c := len(b) - len(a); c != 0 {
					return c
				}
				return strings.Compare(a, b)
			})
			cs = append(cs, "delete "+strings.Join(names, "/"))
		}
		out = append(out, Covered{CLI: "kubectl, oc", Commands: cs})
	}
	out = append(out, serviceCoverage(k)...)
	return mergeAliases(out)
}

// joinPaths renders command paths, each as its words joined by spaces.
func joinPaths(paths [][]string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		out = append(out, strings.Join(p, " "))
	}
	return out
}

// optsText writes option names as a reference lists them: -a/--all.
func optsText(names []string) string {
	os := make([]string, 0, len(names))
	for _, n := range names {
		os = append(os, optText(n))
	}
	return strings.Join(os, "/")
}

// serviceCoverage returns the service CLIs' paths of kind k.
func serviceCoverage(k InfraKind) []Covered {
	var out []Covered
	for _, name := range sortedNames(serviceCLIs) {
		var cs []string
		found := false
		for _, sp := range serviceCLIs[name].paths {
			if sp.kind != k {
				continue
			}
			found = true
			s := strings.ReplaceAll(sp.path, "|", "/")
			if len(sp.needs) > 0 {
				s = strings.TrimSpace(s + " with " + optsText(sp.needs))
			}
			if s != "" {
				cs = append(cs, s)
			}
		}
		if found {
			out = append(out, Covered{CLI: name, Commands: cs})
		}
	}
	return out
}

// LongTailCoverage returns, per command, the long-tail rows of effect e
// (LongTail's table).
func LongTailCoverage(e TailEffect) []Covered {
	var out []Covered
	for _, name := range sortedNames(tailCLIs) {
		var cs []string
		found := false
		for _, r := range tailCLIs[name].rules {
			if r.effect != e {
				continue
			}
			found = true
			var s []string
			switch {
			case r.path == "*=*":
				s = append(s, "NAME=VALUE")
			case r.path != "":
				s = append(s, strings.ReplaceAll(r.path, "|", "/"))
			}
			if len(r.needs) > 0 {
				s = append(s, optsText(r.needs))
			}
			if len(r.unless) > 0 {
				s = append(s, "(not "+optsText(r.unless)+")")
			}
			if r.device > 0 {
				s = append(s, "onto a /dev device")
			}
			if r.systemUser {
				s = append(s, "of root or a system account")
			}
			if len(s) > 0 {
				cs = append(cs, strings.Join(s, " "))
			}
		}
		if found {
			out = append(out, Covered{CLI: name, Commands: cs})
		}
	}
	if e == TailPublish {
		for _, name := range sortedNames(npmUnpublishers) {
			out = append(out, Covered{CLI: name, Commands: []string{npmUnpublishers[name] + " (not --dry-run)"}})
		}
	}
	return mergeAliases(out)
}

// HostedCoverage returns the hosted platforms' table rows (heroku's
// destroying commands, and the command paths of wrangler, neonctl, turso
// and pscale); the platforms read by code (fly, vercel, netlify,
// firebase) are described in prose.
func HostedCoverage() []Covered {
	var hk []string
	for _, c := range sortedNames(herokuDestroys) {
		hk = append(hk, c)
	}
	out := []Covered{{CLI: "heroku", Commands: hk}}
	for _, name := range sortedNames(hostedPaths) {
		out = append(out, Covered{CLI: name, Commands: joinPaths(hostedPaths[name])})
	}
	return mergeAliases(out)
}

// mergeAliases sorts each row's commands, joins the rows of one CLI, and
// then joins CLIs whose commands are the same ("dnf, dnf4, dnf5, yum"),
// sorted by CLI regardless of case.
func mergeAliases(in []Covered) []Covered {
	byCLI := map[string][]string{}
	for _, c := range in {
		byCLI[c.CLI] = append(byCLI[c.CLI], c.Commands...)
	}
	var out []Covered
	seen := map[string]int{}
	names := sortedNames(byCLI)
	slices.SortStableFunc(names, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	for _, name := range names {
		cs := byCLI[name]
		slices.Sort(cs)
		cs = slices.Compact(cs)
		key := strings.Join(cs, "\x00")
		if i, ok := seen[key]; ok && len(cs) > 0 {
			out[i].CLI += ", " + name
			continue
		}
		seen[key] = len(out)
		out = append(out, Covered{CLI: name, Commands: cs})
	}
	return out
}
