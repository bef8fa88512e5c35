package analysis

// moreTaskRunners are the task runners besides make (see tasks.go).
var moreTaskRunners = map[string]func(a *analyzer, c ctx, st *state, ex exec){}
