package oneliner

import (
	"strconv"
	"strings"
)

// roleKind says what a library call does with its arguments: the API
// tables (apis, anyReceiver) map a call's name to a role, and call and
// applyValues turn the role into effects.
type roleKind uint8

// The role kinds. "Indexed" kinds read the argument at role.arg; the
// others ignore it (it is 0).
const (
	roleNone          roleKind = iota
	roleDelete                 // indexed: the argument is a path, deleted
	roleWrite                  // indexed: the argument is a path, written (1 also accepts dst/dest/target keywords)
	roleDeleteAll              // every argument is a path, deleted
	roleWriteAll               // every argument is a path, written
	roleMove                   // argument 0 deleted, argument 1 written
	roleOpen                   // indexed: the argument is the mode of opening argument 0
	roleOSOpen                 // indexed: path at the argument, flags after it (os.open, sysopen)
	roleDenoOpen               // Deno.open: path, then an options object
	roleExec                   // indexed: the argument is a command string or argv list
	roleExecProg               // a program, then an argument list
	roleExecShell              // a quoted program, then arguments the shell reads as written (R's system2)
	roleExecAll                // all arguments form the command
	roleExecVar                // indexed: the arguments from this one form the argv
	roleExecList               // indexed: the argument is an argv list
	roleObjCmd                 // {cmd: [...]} (Bun.spawn, Deno.run)
	roleDenoCmd                // new Deno.Command(prog, {args: [...]})
	rolePowerOff               // powers the machine off
	roleReboot                 // reboots the machine
	roleCallback               // indexed: a function name, its arguments after it
	roleCallbackArr            // indexed: a function name, its arguments in the list after it
	roleMapCallback            // indexed: a function name applied to each element of the lists after it
	roleWalkCallback           // indexed: a function name applied to each element of argument 0
	roleCode                   // the argument is code in the same language
	roleShellRm                // shelljs.rm: the operands are deleted
	roleShellWrite             // shelljs.mkdir/touch: the operands are written
	roleShellMv                // shelljs.mv: all but the last deleted, the last written
	roleShellCp                // shelljs.cp: the last operand written
	roleSelfDelete             // the receiver is deleted
	roleSelfWrite              // the receiver is written
	roleSelfMove               // the receiver is deleted, argument 0 written
	roleSelfOpen               // the receiver is opened with the mode at argument 0
	rolePerlOpen               // Perl's open (two- and three-argument forms)
	roleRubyOpen               // Ruby's Kernel#open ("|cmd" runs a command)
	roleExecWords              // indexed: a string split at blanks into an argv without a shell (Java's Runtime.exec), or an argv list
	roleSelfExecWords          // the receiver run as roleExecWords runs its argument (Groovy's "cmd".execute(), [argv].execute())
	roleRead                   // indexed: the argument is a path (or a list of paths), read
	roleCopy                   // argument 0 read (a tree: copytree, cp_r), argument 1 written (copies and links)
	roleSelfRead               // the receiver is read
	roleKinds                  // number of kinds; not a kind
)

// roleKindInfo is the one declaration of each kind's name and whether it
// reads an argument index.
var roleKindInfo = [roleKinds]struct {
	name    string
	indexed bool
}{
	roleNone:          {"none", false},
	roleDelete:        {"delete", true},
	roleWrite:         {"write", true},
	roleDeleteAll:     {"deleteall", false},
	roleWriteAll:      {"writeall", false},
	roleMove:          {"move", false},
	roleOpen:          {"open", true},
	roleOSOpen:        {"osopen", true},
	roleDenoOpen:      {"denoopen", false},
	roleExec:          {"exec", true},
	roleExecProg:      {"execprog", false},
	roleExecShell:     {"execshell", false},
	roleExecAll:       {"execall", false},
	roleExecVar:       {"execvar", true},
	roleExecList:      {"execlist", true},
	roleObjCmd:        {"objcmd", false},
	roleDenoCmd:       {"denocmd", false},
	rolePowerOff:      {"poweroff", false},
	roleReboot:        {"reboot", false},
	roleCallback:      {"callback", true},
	roleCallbackArr:   {"callbackarr", true},
	roleMapCallback:   {"mapcb", true},
	roleWalkCallback:  {"walkcb", true},
	roleCode:          {"code", false},
	roleShellRm:       {"shrm", false},
	roleShellWrite:    {"shwrite", false},
	roleShellMv:       {"shmv", false},
	roleShellCp:       {"shcp", false},
	roleSelfDelete:    {"selfdelete", false},
	roleSelfWrite:     {"selfwrite", false},
	roleSelfMove:      {"selfmove", false},
	roleSelfOpen:      {"selfopen", false},
	rolePerlOpen:      {"perlopen", false},
	roleRubyOpen:      {"rubyopen", false},
	roleExecWords:     {"execwords", true},
	roleSelfExecWords: {"selfexecwords", false},
	roleRead:          {"read", true},
	roleCopy:          {"copy", false},
	roleSelfRead:      {"selfread", false},
}

// maxRoleArg bounds role.arg: no table entry reads past the third argument.
const maxRoleArg = 2

// role is what a call does: a kind and, for indexed kinds, the argument it
// reads. The zero role means "not a known call".
type role struct {
	kind roleKind
	arg  int
}

// at is an indexed role reading argument n.
func at(k roleKind, n int) role { return role{kind: k, arg: n} }

// only is a role whose kind reads no argument index.
func only(k roleKind) role { return role{kind: k} }

// valid reports a role the evaluator knows: a declared kind, an index in
// range for indexed kinds and 0 for the others.
func (r role) valid() bool {
	if r.kind == roleNone || r.kind >= roleKinds {
		return false
	}
	if !roleKindInfo[r.kind].indexed {
		return r.arg == 0
	}
	return r.arg >= 0 && r.arg <= maxRoleArg
}

// String shows the role as "kind" or "kind:N" (for tests and messages).
func (r role) String() string {
	if r.kind >= roleKinds {
		return "role(" + strconv.Itoa(int(r.kind)) + ")"
	}
	info := roleKindInfo[r.kind]
	if !info.indexed {
		return info.name
	}
	return info.name + ":" + strconv.Itoa(r.arg)
}

// self reports kinds that act on the call's receiver.
func (k roleKind) self() bool {
	return k == roleSelfDelete || k == roleSelfWrite || k == roleSelfMove || k == roleSelfOpen || k == roleSelfExecWords ||
		k == roleSelfRead
}

// pathOp is the effect op of the path kinds: "delete" or "write".
func (k roleKind) pathOp() string {
	switch k {
	case roleDelete, roleDeleteAll, roleSelfDelete, roleShellRm:
		return "delete"
	}
	return "write"
}

// apiEntry gives one role to the space-separated call names in names.
type apiEntry struct {
	role  role
	names string
}

// apiTable is one language family's table, written as role → names.
type apiTable []apiEntry

// index maps each call name of the table to its role; a later entry wins
// over an earlier one for the same name.
func (t apiTable) index() map[string]role {
	m := map[string]role{}
	for _, e := range t {
		for _, k := range strings.Fields(e.names) {
			m[k] = e.role
		}
	}
	return m
}
