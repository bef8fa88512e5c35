package cmdfacts

// EnvTrust is a command that makes a tool load a file's settings into the
// user's shell from then on (direnv allow, mise trust): a guard setting in
// that file reaches every later session started from that shell.
type EnvTrust struct {
	// Sub is the subcommand ("allow"); Aliases are its other spellings.
	Sub     string
	Aliases []string
	// Files are the names the tool loads in a directory (the operand's,
	// else the current one), in the order it looks.
	Files []string
}

// EnvTrusts are the commands, by name, whose subcommand trusts a file of
// environment settings.
var EnvTrusts = map[string]EnvTrust{
	"direnv": {Sub: "allow", Aliases: []string{"permit", "grant"}, Files: []string{".envrc"}},
	"mise":   {Sub: "trust", Files: []string{"mise.toml", ".mise.toml", "mise.local.toml", ".mise/config.toml", ".config/mise.toml", ".tool-versions"}},
	"rtx":    {Sub: "trust", Files: []string{".rtx.toml", "rtx.toml"}},
}

// LoadsSettings reports whether a file of this base name is one that a
// host or a shell loads environment settings from at start: .env (Gemini
// CLI and Qwen Code read the project's .env, and .gemini/.env,
// .qwen/.env), and the files of EnvTrusts (.envrc, mise.toml ...).
func LoadsSettings(base string) bool {
	if base == ".env" {
		return true
	}
	for _, et := range EnvTrusts {
		for _, f := range et.Files {
			// a name in a directory of its own (.mise/config.toml) is no bare name
			if f == base {
				return true
			}
		}
	}
	return false
}

// SettingsFiles lists the names LoadsSettings knows as paths below a
// project root (".env", ".envrc", "mise.toml", ...), sorted, each once.
func SettingsFiles() []string {
	set := map[string]bool{".env": true}
	for _, et := range EnvTrusts {
		for _, f := range et.Files {
			set[f] = true
		}
	}
	return sortedNames(set)
}
