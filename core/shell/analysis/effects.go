package analysis

import (
	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

// attachEffects fills the Effects of every command of out, once, when the
// analysis is done (cmdfacts.FillEffects, under effectName). Cost: a map
// lookup per command, and a ParseArgs for the file commands cmdfacts
// gives effects.
func attachEffects(out *ir.Script) {
	for i := range out.Commands {
		c := &out.Commands[i]
		cmdfacts.FillEffects(c, effectName(c))
	}
}

// effectName is the name command c's effects are read under: the name it
// runs as (Name, else NameIfEmpty), "" for a PowerShell cmdlet or an alias
// of one, which binds its own parameters.
func effectName(c *ir.Command) string {
	if c.Dialect == ir.PowerShell && len(c.Args) > 0 && !c.Args[0].Unknown {
		if _, cmdlet := winshell.PowerShellCmdlet(c.Args[0].Value); cmdlet {
			return ""
		}
	}
	if c.Name != "" {
		return c.Name
	}
	return c.NameIfEmpty
}
