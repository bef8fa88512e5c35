package fence

import (
	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
)

// dotNetTargets returns the targets of a .NET file API call that the
// shell analysis reports as a command named "[system.io.file]::method",
// "[system.io.directory]::method" ([IO.File]::WriteAllText('C:\x', ...))
// or another file call cmdfacts.DotNetFileCall knows,
// with the label to name it by (the call as written). Arguments built at
// run time arrive as Unknown words and are judged as such.
func dotNetTargets(c *ir.Command) (label string, out []target) {
	spec, ok := cmdfacts.DotNetFileCall(c.Name)
	if !ok {
		return "", nil
	}
	args := c.Args[1:]
	for _, a := range spec {
		if a.Index >= len(args) {
			continue
		}
		v := verbWrite
		switch a.Op {
		case cmdfacts.FileDelete:
			v = verbRemove
		case cmdfacts.FileMove:
			v = verbMove
		}
		out = append(out, target{w: args[a.Index], verb: v, del: v != verbWrite})
	}
	return c.Args[0].Raw, out
}
