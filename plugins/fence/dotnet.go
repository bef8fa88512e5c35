package fence

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/shell"
)

// dotNetArgs says which arguments of a [System.IO.File] /
// [System.IO.Directory] method are targets, and how: "w" written, "d"
// deleted, "m" moved away, "-" not a target.
var dotNetArgs = map[string]string{
	"writealltext": "w", "writealllines": "w", "writeallbytes": "w", "appendalltext": "w", "appendalllines": "w",
	"create": "w", "createtext": "w", "appendtext": "w", "openwrite": "w", "setattributes": "w",
	"setcreationtime": "w", "setlastwritetime": "w", "setlastaccesstime": "w", "encrypt": "w", "decrypt": "w",
	"createdirectory": "w", "createsymboliclink": "w", "delete": "d", "copy": "-w", "move": "mw", "replace": "-ww",
}

// dotNetTargets returns the targets of a .NET file API call that the
// shell analysis reports as a command named "[system.io.file]::method" or
// "[system.io.directory]::method" ([IO.File]::WriteAllText('C:\x', ...)),
// with the label to name it by (the call as written). Arguments built at
// run time arrive as Unknown words and are judged as such.
func dotNetTargets(c *shell.Command) (label string, out []target) {
	typ, method, ok := strings.Cut(c.Name, "]::")
	if !ok || (typ != "[system.io.file" && typ != "[system.io.directory") {
		return "", nil
	}
	spec, ok := dotNetArgs[method]
	if !ok {
		return "", nil
	}
	args := c.Args[1:]
	for n, how := range spec {
		if n >= len(args) || how == '-' {
			continue
		}
		v := verbWrite
		switch how {
		case 'd':
			v = verbRemove
		case 'm':
			v = verbMove
		}
		out = append(out, target{w: args[n], verb: v, del: v != verbWrite})
	}
	return c.Args[0].Raw, out
}
