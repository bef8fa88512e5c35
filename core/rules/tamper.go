package rules

// The archivers rule of the Deletes family (danger gate).
var ArchiveDelete = def(&Rule{ID: "DG-ARCHIVE-DELETE", Family: Deletes, PathAdvice: true,
	Doc: "An archiver that deletes its inputs once it has archived them (tar --remove-files, zip -m, 7z a -sdel, rar m, rar a -df; core/cmdfacts.DeletedInputs) with a catastrophic input (home, a system directory, a root).",
	Zh:  "{cmd} {detail} 会在打包后删除 {targets}。",
	En:  "{cmd} {detail} would delete {targets} once archived."})

// Tamper is the danger gate's family about switching the guard itself
// off. Templates may use {cmd}, {detail} (the subcommand or option) and
// {subject} (the plugin, marketplace or variable concerned).
var Tamper = family(&Family{Layer: dangerLayer, Name: "tamper", Title: "Switching the guard off",
	Doc: "The agent could blind or remove zcode-fence through the agent hosts' own CLIs or by running the guard's binary itself. Writes to the files behind them are the fence's protected paths (FN-PROTECTED-*)."})

// The Tamper family.
var (
	TamperPlugin = def(&Rule{ID: "DG-TAMPER-PLUGIN", Family: Tamper,
		Doc: "An agent host's CLI disables, uninstalls or reconfigures zcode-fence, or removes its marketplace: claude plugin disable|uninstall|remove, configure --values-stdin, install --config, plugin marketplace remove|rm; zcode plugins disable|uninstall|configure, plugins marketplace remove; codex plugin remove, plugin marketplace remove; gemini/qwen extensions disable|uninstall; copilot plugin disable|uninstall, plugin marketplace remove. Also when the plugin named is unknown ($P) or every plugin is meant (disable --all).",
		Zh:  "{cmd} {detail} 会停用、卸载或改配 zcode-fence{subject}，之后的操作将不再受保护。",
		En:  "{cmd} {detail} would disable, remove or reconfigure zcode-fence{subject}, leaving later calls unguarded."})
	TamperHooks = def(&Rule{ID: "DG-TAMPER-HOOKS", Family: Tamper,
		Doc: "An agent host's CLI turns hooks off, edits hook or plugin settings, or starts a session without them: claude --bare, --settings with hooks, disableAllHooks or enabledPlugins, --setting-sources without user, claude config set hooks; codex features disable hooks, --disable hooks, -c with hooks or plugins; qwen --safe-mode; gemini/qwen -e/--extensions without zcode-fence.",
		Zh:  "{cmd} {detail} 会关闭或绕开钩子（含 zcode-fence）{subject}。",
		En:  "{cmd} {detail} would turn hooks off or run without them, zcode-fence included{subject}."})
	TamperGuard = def(&Rule{ID: "DG-TAMPER-GUARD", Family: Tamper,
		Doc: "The agent runs the guard's own binary (zcode-fence, zcode-fence-<os>-<arch>, or its launcher through sh) in hook mode (no arguments, or any it does not know), as a layer server, or with an environment that moves its config, data dir, project, home or model transport (ZCODE_FENCE_*, CLAUDE_PLUGIN_OPTION_*, ZCODE_PLUGIN_DATA, CLAUDE_PLUGIN_DATA, HTTP(S)_PROXY, ALL_PROXY, SSL_CERT_FILE ...; core/config.GuardEnv): it could rewrite the session roots, the decision log or the model cache. --eval, --eval-write, --eval-edit, explain, log, version, --help and doctor without such variables stay silent. Also an agent host's CLI (claude, codex, gemini, qwen, copilot, zcode; directly or through npx, bunx, pnpm dlx) started with a variable that changes the guard's settings, state or project (core/config.GuardSettingsEnv; not the proxy and TLS ones): the session's hooks, the guard among them, inherit it.",
		Zh:  "{cmd} {detail} 以钩子模式或改动过的环境运行守卫本身{subject}，可能改写守卫的状态（会话根、日志、缓存）。",
		En:  "{cmd} {detail} runs the guard itself as a hook or with a changed environment{subject}: it could rewrite the guard's state."})
)
