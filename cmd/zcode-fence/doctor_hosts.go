package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"mvdan.cc/sh/v3/shell"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/agenthost/setup"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/host"
	"github.com/zcode-fence/zcode-fence/core/integrity"
)

// versionTimeout bounds one `<hook command> version` run.
const versionTimeout = 20 * time.Second

// hostCheck is doctor's check of one agent host whose config dir exists.
type hostCheck struct {
	r    *doctorReport
	env  config.Env
	h    setup.HostInstall
	dir  string // the host's config dir
	area string
	cwd  string
	// versions caches the version line of each command already run.
	versions map[string]string
}

// checkHosts checks zcode-fence in every agent host agenthost knows
// (setup.Installs). A host whose config dir does not exist is reported
// once as not found, which is not a problem. For each host found: every
// installed copy of the plugin (switched on for the current directory; its
// launcher, a binary for this platform matching SHA256SUMS, its hooks
// file) and every hook registered by hand in the host's settings whose
// command names zcode-fence; for each such hook, its event, whether its
// matcher covers the host's shell, file and read tools, whether its command
// runs (executed with `version`, through no shell) and whether its
// timeout leaves the guard its budget. Then the host's hazards: every
// hook switched off, a host that cannot ask with no_ask_fallback=silent,
// a hook the host runs only once reviewed. No registration at all is a
// problem. Cost: a few small file reads per host, one process per
// distinct hook command.
func (r *doctorReport) checkHosts(env config.Env, cfg config.Config, present map[string]bool) {
	cwd, _ := os.Getwd()
	fallback := cfg.Get(config.KeyNoAskFallback)
	versions := map[string]string{}
	for _, h := range setup.Installs() {
		area := h.Adapter.Name()
		dir := h.ConfigDir(env.Home, env.Lookup)
		if !present[area] {
			r.ok(area, "%s: not found (no %s)", h.Label, dir)
			continue
		}
		c := &hostCheck{r: r, env: env, h: h, dir: dir, area: area, cwd: cwd, versions: versions}
		c.check(fallback)
	}
}

// hostsPresent says, per host name, whether the host's config dir holds
// anything but the guard's own data dir (plugins/data, which a guarded
// call or doctor's trial call creates below ZCode's dir even where ZCode
// is not installed). Doctor takes it before its trial call.
func hostsPresent(env config.Env) map[string]bool {
	out := map[string]bool{}
	for _, h := range setup.Installs() {
		dir := h.ConfigDir(env.Home, env.Lookup)
		out[h.Adapter.Name()] = holdsMore(dir, strings.Split(agenthost.PluginData, "/"))
	}
	return out
}

// holdsMore reports whether dir exists and holds an entry other than the
// path skip (relative, as segments).
func holdsMore(dir string, skip []string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if len(skip) == 0 || e.Name() != skip[0] {
			return true
		}
		if len(skip) > 1 && holdsMore(filepath.Join(dir, e.Name()), skip[1:]) {
			return true
		}
	}
	return false
}

func (c *hostCheck) check(fallback string) {
	h, r, area := c.h, c.r, c.area
	if off, file := setup.HooksSwitchedOff(h.Install, c.dir); off {
		r.problem(area, "remove "+h.HooksOff+" from "+file+" (or set it to the other value), then start a new session",
			"%s: every hook is switched off (%s = %s in %s): the guard never runs", h.Label, h.HooksOff, h.HooksOffValue, file)
	}
	found, guarded := 0, 0
	for _, p := range setup.FindPlugins(h.Install, c.dir) {
		found++
		if c.plugin(p) {
			guarded++
		}
	}
	for _, f := range h.HookFiles {
		file := filepath.Join(c.dir, filepath.FromSlash(f.Rel))
		entries, err := setup.ReadHooks(h.Install, file, f.Format)
		if err != nil {
			r.problem(area, "fix the file (the host cannot read its hooks either)", "%s: %v", h.Label, err)
			continue
		}
		for _, e := range entries {
			if !strings.Contains(e.Command, core.PluginName) {
				continue
			}
			found++
			if c.entry(e, "", h.Label+":") {
				guarded++
			}
		}
	}
	if found == 0 {
		r.problem(area, h.InstallHow, "%s: zcode-fence is not registered as a %s hook (no plugin installed, none in its settings): its tool calls are not guarded",
			h.Label, strings.Join(h.Events, "/"))
		return
	}
	if guarded == 0 {
		return // each registration found reported its problem
	}
	switch {
	case h.CannotAsk && fallback == agenthost.FallbackSilent:
		r.problem(area, "set "+config.KeyNoAskFallback+" to "+agenthost.FallbackDeny+" (README: Configuration)",
			"%s cannot ask, and %s=%s: every call the guard would ask about runs", h.Label, config.KeyNoAskFallback, fallback)
	case h.CannotAsk:
		r.ok(area, "%s cannot ask: each ask becomes a deny carrying the reason (%s=%s)", h.Label, config.KeyNoAskFallback, fallback)
	case h.HeadlessAskHangs && fallback == agenthost.FallbackSilent:
		r.advice(area, "set "+config.KeyNoAskFallback+" to "+agenthost.FallbackDeny+" if you run it headless",
			"%s hangs on an ask when headless; with %s=%s the guard stays silent there and the call runs", h.Label, config.KeyNoAskFallback, fallback)
	}
	if h.TrustTable != "" {
		if trusted, _ := setup.Trusted(h.Install, c.dir); trusted {
			r.ok(area, "%s: a review of the zcode-fence hook is recorded in %s (after an update %s asks again: /hooks)", h.Label, filepath.Join(c.dir, h.TrustFile), h.Label)
		} else {
			r.advice(area, "start "+h.Adapter.Name()+", open /hooks and trust zcode-fence's "+h.Events[0]+" hook",
				"%s skips a hook nobody reviewed, silently; %s records no review naming zcode-fence", h.Label, filepath.Join(c.dir, h.TrustFile))
		}
	}
}

// plugin checks one installed copy: switched on, its files, its hooks
// file's registrations. It reports whether the copy guards the host.
func (c *hostCheck) plugin(p setup.InstalledPlugin) bool {
	h, r, area := c.h, c.r, c.area
	what := h.Label + " " + p.Root
	if on, why := setup.Enabled(h.Install, c.dir, p, c.cwd); !on {
		r.problem(area, "enable zcode-fence in "+h.Label+"'s plugin settings, then start a new session", "%s: %s", what, why)
		return false
	}
	reinstall := "reinstall the plugin (" + h.InstallHow + ")"
	launcher := filepath.Join(p.Plugin, "libexec", core.PluginName)
	binName := core.PluginName + "-" + runtime.GOOS + "-" + runtime.GOARCH
	if runtime.GOOS == "windows" {
		binName += ".exe"
	}
	bin := filepath.Join(p.Plugin, "libexec", binName)
	if _, err := os.Stat(launcher); err != nil {
		r.problem(area, reinstall, "%s: no launcher libexec/%s", what, core.PluginName)
		return false
	}
	if _, err := os.Stat(bin); err != nil {
		r.problem(area, "install a release that has a binary for "+runtime.GOOS+"/"+runtime.GOARCH+" (every guarded call asks meanwhile)",
			"%s: no binary libexec/%s for this platform", what, binName)
		return false
	}
	if res := integrity.Check(bin, "", core.Version); res.Asks() {
		r.problem(area, reinstall, "%s: %s", what, res.Note())
		return false
	}
	if pf := h.Adapter.Packaging().PluginFile; pf != "" {
		return c.jsPlugin(p, launcher, what, reinstall)
	}
	hooksFile := setup.HooksFileOf(p.Root)
	entries, err := setup.ReadHooks(h.Install, hooksFile, agenthost.HooksJSON)
	if err != nil {
		r.problem(area, reinstall, "%s: %v", what, err)
		return false
	}
	if len(entries) == 0 {
		r.problem(area, reinstall, "%s: hooks/hooks.json has no %s command hook", what, strings.Join(h.Events, "/"))
		return false
	}
	ok := true
	for _, e := range entries {
		ok = c.entry(e, p.Root, what) && ok
	}
	return ok
}

// entry checks one hook registration: its matcher, its command (run with
// `version`), its timeout. root is the installed plugin's root that the
// host substitutes into the command ("" for a hook written by hand). It
// reports whether the registration guards the host.
func (c *hostCheck) entry(e setup.HookEntry, root, what string) bool {
	h, r, area := c.h, c.r, c.area
	rel := e.File
	if root != "" {
		if x, err := filepath.Rel(root, e.File); err == nil {
			rel = filepath.ToSlash(x)
		}
	}
	if !strings.HasSuffix(what, ":") {
		what += ":"
	}
	hook := fmt.Sprintf("%s %s hook in %s", what, e.Event, rel)
	good := true
	tools := setup.GuardedToolNames(h.Adapter)
	if miss := setup.MatcherMisses(e.Matcher, tools); len(miss) > 0 {
		r.problem(area, `set its matcher to "`+strings.Join(tools, "|")+`" (or "*")`,
			"%s: matcher %q misses %s: those calls are not guarded", hook, e.Matcher, strings.Join(miss, ", "))
		good = false
	}
	if e.Timeout > 0 && e.Timeout < host.Budget {
		f := h.Timeout.Fields[0]
		r.problem(area, fmt.Sprintf("set %q to %d (%s), or remove it", f.Key, int64(agenthost.HookTimeout/f.Unit), unitName(f.Unit)),
			"%s: timeout %v is shorter than the guard's %v budget: the host stops the guard and runs the call", hook, e.Timeout, host.Budget)
		good = false
	}
	command := e.Command
	if root != "" {
		command = setup.ResolveCommand(h.Adapter.Packaging(), command, root)
	}
	version, problem, fix := c.run(command)
	switch {
	case problem != "" && fix == "":
		r.advice(area, "run it by hand with `version` to check it", "%s: %s", hook, problem)
	case problem != "":
		r.problem(area, fix, "%s: %s", hook, problem)
		good = false
	}
	if good && problem == "" {
		timeout := fmt.Sprintf("timeout %v", e.Timeout)
		if !e.TimeoutSet {
			timeout += " (the host's default)"
		}
		if e.Timeout == 0 {
			timeout = "the host's default timeout"
		}
		r.ok(area, "%s runs %s; matcher covers %d guarded tools (shell, file and read); %s", hook, version, len(tools), timeout)
	}
	return good
}

// run executes a hook command's program with the single argument
// `version` (no shell: the command is split into words, $HOME and set
// variables expanded, command substitution refused) and returns the
// version line; problem says what is wrong, with fix, or, with no fix,
// why it was not checked.
func (c *hostCheck) run(command string) (version, problem, fix string) {
	var unset []string
	words, err := shell.Fields(command, func(k string) string {
		switch k {
		case "HOME":
			return c.env.Home
		case "IFS": // the expander asks; the shell's default
			return " \t\n"
		}
		v, ok := c.env.Lookup(k)
		if !ok {
			unset = append(unset, "$"+k)
		}
		return v
	})
	switch {
	case err != nil:
		return "", fmt.Sprintf("its command %q cannot be read without a shell (%v): not run", command, err), ""
	case len(unset) > 0:
		return "", fmt.Sprintf("its command %q uses %s, unset here: not run", command, strings.Join(unset, ", ")), ""
	case len(words) == 0:
		return "", "its command is empty", "give it the path of zcode-fence"
	}
	exe := words[0]
	if v, ok := c.versions[exe]; ok {
		return v, "", ""
	}
	fixPath := "point it at an installed zcode-fence (README: Install)"
	path, err := exec.LookPath(exe)
	if err != nil {
		return "", fmt.Sprintf("its command %s is not a runnable file: %v", exe, err), fixPath
	}
	ctx, cancel := context.WithTimeout(context.Background(), versionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "version")
	cmd.Env = os.Environ()
	out, err := cmd.Output()
	line := strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	switch {
	case err != nil:
		return "", fmt.Sprintf("%s version failed: %v", exe, err), fixPath
	case !strings.HasPrefix(line, core.PluginName+" "):
		return "", fmt.Sprintf("%s version did not print zcode-fence's version (%.80q): not the guard, or no binary for this platform", exe, line), fixPath
	}
	c.versions[exe] = line
	return line, "", ""
}

// unitName names a timeout unit for a fix line.
func unitName(u time.Duration) string {
	if u == time.Millisecond {
		return "milliseconds"
	}
	return "seconds"
}

// jsPlugin checks a JS plugin registration (opencode, Kilo, Pi): the plugin
// file is in the installed plugin, and the launcher beside it runs.
func (c *hostCheck) jsPlugin(p setup.InstalledPlugin, launcher, what, reinstall string) bool {
	h, r, area := c.h, c.r, c.area
	rel := h.PluginFile
	if _, err := os.Stat(filepath.Join(p.Plugin, filepath.FromSlash(rel))); err != nil {
		r.problem(area, reinstall, "%s: %s (loaded from %s) is missing", what, rel, p.Installed)
		return false
	}
	version, problem, fix := c.run(shellQuote(launcher))
	if problem != "" {
		if fix == "" {
			fix = reinstall
		}
		r.problem(area, fix, "%s: %s", what, problem)
		return false
	}
	r.ok(area, "%s: its %s plugin %s runs %s before every tool call", what, h.Events[0], p.Installed, version)
	return true
}
