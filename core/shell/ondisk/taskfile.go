package ondisk

import (
	"path"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Task (taskfile.dev), as far as it decides which command lines run: the
// Taskfile's tasks (a map, a list of commands or one command string), each
// task's deps (run first), cmds (strings, {cmd: ...}, {task: NAME} calls),
// dir, and the {{.VAR}} templates of vars given as strings (global and the
// task's), env, and the special variables TASKFILE_DIR, ROOT_DIR,
// USER_WORKING_DIR, TASK and CLI_ARGS; a var given as {sh: CMD} runs CMD
// (judged) and is unknown; any other template is unknown. Included
// Taskfiles are not followed.

// TaskfileNames are the Taskfile names task looks for, in order.
var TaskfileNames = []string{"Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml",
	"Taskfile.dist.yml", "taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yaml"}

// TaskOptions describe one run of task.
type TaskOptions struct {
	File, Cwd string
	Tasks     []string // "default" when none
	CLIArgs   Text     // the words after --
	Vars      map[string]Text
}

type taskDef struct {
	cmds []*yaml.Node
	deps []*yaml.Node
	dir  string
	vars map[string]*yaml.Node
	line int
}

type taskRun struct {
	opt   TaskOptions
	tasks map[string]*taskDef
	vars  map[string]*yaml.Node
	lines []JustLine
	ran   map[string]bool
}

// Taskfile parses text and returns the command lines task runs. ok is false
// when the text is not a Taskfile.
func Taskfile(text string, opt TaskOptions) ([]JustLine, bool) {
	var doc yaml.Node
	if hasControl(text) || yaml.Unmarshal([]byte(text), &doc) != nil || len(doc.Content) == 0 {
		return nil, false
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, false
	}
	t := &taskRun{opt: opt, tasks: map[string]*taskDef{}, vars: map[string]*yaml.Node{}, ran: map[string]bool{}}
	if v := mapGet(root, "vars"); v != nil && v.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(v.Content); i += 2 {
			t.vars[v.Content[i].Value] = v.Content[i+1]
		}
	}
	tasks := mapGet(root, "tasks")
	if tasks == nil || tasks.Kind != yaml.MappingNode {
		return nil, true
	}
	for i := 0; i+1 < len(tasks.Content); i += 2 {
		name, body := tasks.Content[i].Value, tasks.Content[i+1]
		d := &taskDef{line: tasks.Content[i].Line, vars: map[string]*yaml.Node{}}
		switch body.Kind {
		case yaml.ScalarNode:
			d.cmds = []*yaml.Node{body}
		case yaml.SequenceNode:
			d.cmds = body.Content
		case yaml.MappingNode:
			if c := mapGet(body, "cmds"); c != nil && c.Kind == yaml.SequenceNode {
				d.cmds = c.Content
			}
			if c := mapGet(body, "cmd"); c != nil {
				d.cmds = append(d.cmds, c)
			}
			if c := mapGet(body, "deps"); c != nil && c.Kind == yaml.SequenceNode {
				d.deps = c.Content
			}
			if c := mapGet(body, "dir"); c != nil && c.Kind == yaml.ScalarNode {
				d.dir = c.Value
			}
			if v := mapGet(body, "vars"); v != nil && v.Kind == yaml.MappingNode {
				for k := 0; k+1 < len(v.Content); k += 2 {
					d.vars[v.Content[k].Value] = v.Content[k+1]
				}
			}
		}
		t.tasks[name] = d
	}
	names := opt.Tasks
	if len(names) == 0 {
		names = []string{"default"}
	}
	for _, n := range names {
		t.run(n, nil, 0)
	}
	return t.lines, true
}

// mapGet returns the value of key in mapping node m.
func mapGet(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// run runs task name (call vars override its own).
func (t *taskRun) run(name string, call map[string]*yaml.Node, depth int) {
	d := t.tasks[name]
	if d == nil || t.ran[name] || depth > maxMakeDepth || len(t.ran) > maxMakeTargets {
		return
	}
	t.ran[name] = true
	scope := map[string]*yaml.Node{}
	for k, v := range t.vars {
		scope[k] = v
	}
	for k, v := range d.vars {
		scope[k] = v
	}
	for k, v := range call {
		scope[k] = v
	}
	dir := path.Dir(t.opt.File)
	for _, dep := range d.deps {
		n, vars := taskCall(dep)
		t.run(n, vars, depth+1)
	}
	if d.dir != "" {
		dd := t.render(d.dir, scope, name, dir, d.line).String()
		if strings.HasPrefix(dd, "/") {
			dir = path.Clean(dd)
		} else {
			dir = path.Join(dir, dd)
		}
	}
	for _, c := range d.cmds {
		switch c.Kind {
		case yaml.ScalarNode:
			t.emit(t.render(c.Value, scope, name, dir, c.Line), c.Line, name, dir)
		case yaml.MappingNode:
			if n, vars := taskCall(c); n != "" {
				t.run(n, vars, depth+1)
				continue
			}
			if cmd := mapGet(c, "cmd"); cmd != nil && cmd.Kind == yaml.ScalarNode {
				t.emit(t.render(cmd.Value, scope, name, dir, cmd.Line), cmd.Line, name, dir)
			}
		}
	}
}

// taskCall reads a deps entry or a {task: NAME, vars: ...} command.
func taskCall(n *yaml.Node) (string, map[string]*yaml.Node) {
	if n.Kind == yaml.ScalarNode {
		return n.Value, nil
	}
	if n.Kind != yaml.MappingNode {
		return "", nil
	}
	tk := mapGet(n, "task")
	if tk == nil {
		return "", nil
	}
	vars := map[string]*yaml.Node{}
	if v := mapGet(n, "vars"); v != nil && v.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(v.Content); i += 2 {
			vars[v.Content[i].Value] = v.Content[i+1]
		}
	}
	return tk.Value, vars
}

func (t *taskRun) emit(text Text, line int, task, dir string) {
	if len(t.lines) < maxMakeLines {
		t.lines = append(t.lines, JustLine{Text: text, Line: line, Recipe: task, Dir: dir})
	}
}

// render expands {{.NAME}} templates; other templates are unknown.
func (t *taskRun) render(s string, scope map[string]*yaml.Node, task, dir string, line int) Text {
	var out Text
	for depth := 0; ; depth++ {
		i := strings.Index(s, "{{")
		if i < 0 {
			break
		}
		end := strings.Index(s[i:], "}}")
		if end < 0 {
			break
		}
		out = append(out, Seg{Text: s[:i]})
		expr := strings.TrimSpace(s[i+2 : i+end])
		out = append(out, t.value(expr, scope, task, dir, line, depth)...)
		s = s[i+end+2:]
	}
	return append(out, Seg{Text: s})
}

// value is the value of one template expression.
func (t *taskRun) value(expr string, scope map[string]*yaml.Node, task, dir string, line, depth int) Text {
	unknown := Text{{Text: "{{" + expr + "}}", Unknown: true}}
	name, ok := strings.CutPrefix(expr, ".")
	if !ok || !isTaskVar(name) {
		return unknown
	}
	switch name {
	case "TASKFILE_DIR", "ROOT_DIR", "ROOT_TASKFILE":
		if name == "ROOT_TASKFILE" {
			return Known(t.opt.File)
		}
		return Known(path.Dir(t.opt.File))
	case "USER_WORKING_DIR":
		return Known(t.opt.Cwd)
	case "TASK":
		return Known(task)
	case "CLI_ARGS":
		return t.opt.CLIArgs
	}
	if v, ok := t.opt.Vars[name]; ok {
		return v
	}
	n := scope[name]
	if n == nil {
		return nil // task renders an undefined variable as nothing
	}
	if n.Kind == yaml.ScalarNode && depth < 8 {
		return t.render(n.Value, scope, task, dir, line)
	}
	if n.Kind == yaml.MappingNode {
		if sh := mapGet(n, "sh"); sh != nil && sh.Kind == yaml.ScalarNode {
			t.emit(t.render(sh.Value, scope, task, dir, sh.Line), sh.Line, task, dir)
		}
	}
	return unknown
}

func isTaskVar(s string) bool {
	for _, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
