package analysis

// taskRunners are the task runners whose task files are read from disk
// (tasks.go, githooks.go), by command name.
var taskRunners = map[string]func(a *analyzer, c ctx, st *state, ex exec){}
