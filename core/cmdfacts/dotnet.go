package cmdfacts

// FileOp is what a call does to the file or directory one of its
// arguments names.
type FileOp uint8

const (
	// FileWrite creates, writes, changes or links the item.
	FileWrite FileOp = iota + 1
	// FileDelete deletes it.
	FileDelete
	// FileMove moves it away (it is gone from where it was).
	FileMove
)

// FileArg is one argument of a file call and what the call does with it.
type FileArg struct {
	Index int // in the call's arguments
	Op    FileOp
}

// dotNetFileCalls are the .NET static methods PowerShell can call
// ([IO.File]::WriteAllText('C:\x', ...)) that delete, move or write files
// and directories, keyed as the shell analysis names the call (see
// ir.Command.Name): lower-case full type name and method.
var dotNetFileCalls = func() map[string][]FileArg {
	w0 := []FileArg{{0, FileWrite}}
	d0 := []FileArg{{0, FileDelete}}
	m := map[string][]FileArg{
		"[system.io.file]::delete":                                   d0,
		"[system.io.file]::move":                                     {{0, FileMove}, {1, FileWrite}},
		"[system.io.file]::copy":                                     {{1, FileWrite}},
		"[system.io.file]::replace":                                  {{1, FileWrite}, {2, FileWrite}},
		"[system.io.directory]::delete":                              d0,
		"[system.io.directory]::move":                                {{0, FileMove}, {1, FileWrite}},
		"[microsoft.visualbasic.fileio.filesystem]::deletedirectory": d0,
		"[microsoft.visualbasic.fileio.filesystem]::deletefile":      d0,
	}
	for _, method := range [...]string{"writealltext", "writealllines", "writeallbytes", "appendalltext",
		"appendalllines", "appendtext", "create", "createtext", "openwrite", "setattributes", "encrypt", "decrypt"} {
		m["[system.io.file]::"+method] = w0
	}
	for _, method := range [...]string{"createdirectory"} {
		m["[system.io.directory]::"+method] = w0
	}
	for _, method := range [...]string{"createsymboliclink", "setcreationtime", "setlastwritetime", "setlastaccesstime"} {
		m["[system.io.file]::"+method] = w0
		m["[system.io.directory]::"+method] = w0
	}
	return m
}()

// DotNetFileCall returns what the .NET call named name does to its
// arguments, and false when it is not a known file call.
func DotNetFileCall(name string) ([]FileArg, bool) {
	args, ok := dotNetFileCalls[name]
	return args, ok
}

// DotNetFileCalls returns the names of the known .NET file calls, for
// tables keyed by command name.
func DotNetFileCalls() []string {
	out := make([]string, 0, len(dotNetFileCalls))
	for n := range dotNetFileCalls {
		out = append(out, n)
	}
	return out
}
