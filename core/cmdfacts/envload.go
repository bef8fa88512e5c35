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
