package fence

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

// psTargets lists what a PowerShell cmdlet writes and deletes, with its
// parameters bound the way PowerShell binds them (winshell.PSCommand.Targets:
// Set-Content, Add-Content, Out-File, New-Item, Copy-Item -Destination,
// Move-Item, Remove-Item, Rename-Item, Expand-Archive -DestinationPath,
// Invoke-WebRequest -OutFile, Tee-Object, Export-Csv, Start-Process
// -RedirectStandardOutput, ...). Nothing under -WhatIf.
func psTargets(c *ir.Command) []target {
	pc := winshell.ParsePowerShellCommand(c.Args)
	deletes, writes := pc.Targets()
	var out []target
	switch pc.Cmdlet {
	case "Rename-Item":
		return each(writes, verbMove) // the same item, renamed in place
	case "Move-Item":
		out = each(deletes, verbMove)
	default:
		out = each(deletes, verbRemove)
	}
	return append(out, each(writes, verbWrite)...)
}

// cmdBuiltins are cmd.exe's own file commands; switches (/s, /q, /y) are
// split off by winshell.CmdSwitches.
var cmdBuiltins = map[string]extractor{
	"copy":   cmdCopy,
	"move":   cmdMove,
	"del":    cmdAll(verbRemove),
	"erase":  cmdAll(verbRemove),
	"rd":     cmdAll(verbRemove),
	"rmdir":  cmdAll(verbRemove),
	"md":     cmdAll(verbWrite),
	"mkdir":  cmdAll(verbWrite),
	"ren":    cmdFirst(verbMove),
	"rename": cmdFirst(verbMove),
	"mklink": cmdFirst(verbWrite),
}

// cmdStyleTargets: on Windows, a command that is both a POSIX tool and a
// cmd.exe file command (rmdir, mkdir), written with cmd.exe's one-letter
// switches in a Bash call (rmdir d /s /q), is read as cmd.exe reads it:
// the switches are switches, not the MSYS drives S:\ and Q:\. ok is false
// for every other command (del, rd, move and the like have no POSIX
// reading to correct).
func cmdStyleTargets(c *ir.Command, windows bool) ([]target, bool) {
	f := cmdBuiltins[c.Name]
	if !windows || f == nil || !inPosixTable(c.Name) || c.Dialect != ir.Bash || len(c.Args) < 2 {
		return nil, false
	}
	for _, a := range c.Args[1:] {
		if winshell.IsCmdSwitch(a) {
			return f(c.Args[1:]), true
		}
	}
	return nil, false
}

// windowsTools are Windows programs with /switches, wherever they run.
var windowsTools = map[string]extractor{
	"xcopy":    cmdXcopy,
	"robocopy": cmdRobocopy,
	"icacls":   cmdFirst(verbModify),
	"cacls":    cmdFirst(verbModify),
	"takeown":  cmdFirst(verbModify),
	"attrib":   cmdAttrib,
}

// cmdOperands returns the non-switch arguments.
func cmdOperands(args []ir.Word) (switches []string, ops []ir.Word) {
	return winshell.CmdSwitches(append([]ir.Word{{}}, args...))
}

func cmdAll(v verb) extractor {
	return func(args []ir.Word) []target {
		_, ops := cmdOperands(args)
		return each(ops, v)
	}
}

func cmdFirst(v verb) extractor {
	return func(args []ir.Word) []target {
		_, ops := cmdOperands(args)
		if len(ops) == 0 {
			return nil
		}
		return each(ops[:1], v)
	}
}

// cmdCopy: copy SRC[+SRC...] [DEST]: DEST, or here.
func cmdCopy(args []ir.Word) []target {
	_, ops := cmdOperands(args)
	switch {
	case len(ops) >= 2:
		return each(ops[len(ops)-1:], verbWrite)
	case len(ops) == 1:
		return each([]ir.Word{here}, verbWrite)
	}
	return nil
}

// cmdMove: move SRC... DEST: DEST written, sources moved away.
func cmdMove(args []ir.Word) []target {
	_, ops := cmdOperands(args)
	if len(ops) < 2 {
		return nil
	}
	return append(each(ops[len(ops)-1:], verbWrite), each(ops[:len(ops)-1], verbMove)...)
}

// cmdXcopy: xcopy SRC [DEST]: DEST, or here.
func cmdXcopy(args []ir.Word) []target {
	_, ops := cmdOperands(args)
	switch {
	case len(ops) >= 2:
		return each(ops[1:2], verbWrite)
	case len(ops) == 1:
		return each([]ir.Word{here}, verbWrite)
	}
	return nil
}

// cmdRobocopy: robocopy SRC DEST [FILES] [/opts]: DEST; SRC too with /MOV
// or /MOVE.
func cmdRobocopy(args []ir.Word) []target {
	sw, ops := cmdOperands(args)
	if len(ops) < 2 {
		return nil
	}
	out := each(ops[1:2], verbWrite)
	for _, s := range sw {
		if s == "mov" || s == "move" {
			out = append(out, each(ops[:1], verbMove)...)
			break
		}
	}
	return out
}

// cmdAttrib: attrib [+r|-r ...] FILE...: the files.
func cmdAttrib(args []ir.Word) []target {
	_, ops := cmdOperands(args)
	var files []ir.Word
	for _, w := range ops {
		if !strings.HasPrefix(w.Value, "+") && !strings.HasPrefix(w.Value, "-") {
			files = append(files, w)
		}
	}
	return each(files, verbModify)
}
