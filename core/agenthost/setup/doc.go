// Package setup reads what a person's machine says about how zcode-fence
// is installed in each agent host, for `zcode-fence doctor` and the bundle
// tools: the installed plugin copies (FindPlugins), whether each is
// switched on (Enabled), the hooks registered in the hosts' files
// (ReadHooks, with a small TOML reader for Codex's config.toml), hook
// switches and trust records (HooksSwitchedOff, Trusted), and the bundle's
// generated hooks files (HooksFiles).
//
// The facts it reads by (where each host keeps its files, how it enables a
// plugin, its hook events and timeouts) are the adapters' Install in
// core/agenthost; this package holds only the readers, so the hook path
// (core/agenthost, core/config, core/protect, core/host) does not import
// it. Every reader reads at most a few small files per call (4 MiB each at
// most) and writes nothing.
package setup
