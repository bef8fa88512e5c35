package ir

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ViaKind classifies a Via entry by the context layers test for. Most
// wrappers and contexts (sudo, bash -c, eval, find -exec, docker run,
// powershell -Command, ...) have no kind of their own: they are ViaOther
// and carry their meaning in Text.
type ViaKind uint8

const (
	// ViaOther is any context without a kind of its own.
	ViaOther ViaKind = iota
	// ViaXargs: run by xargs on the items it reads ("xargs").
	ViaXargs
	// ViaParallel: run by GNU parallel on its items ("parallel").
	ViaParallel
	// ViaFdExec: run by fd -x/-X (--exec, --exec-batch) on the paths fd
	// finds ("fd -x", "fd --exec-batch", ...).
	ViaFdExec
	// ViaFunction: the body of a shell function being called ("function
	// NAME"; Via.Function returns NAME).
	ViaFunction
	// ViaSubst: a command or process substitution ("$()", "<()", ">()").
	ViaSubst
	// ViaScriptInput: run with the whole text of a script file on its
	// standard input ("psql < db/schema.sql": a database client's script
	// file, psql -f FILE, psql < FILE, \i FILE). The command's Stdin is
	// the file's text and its Origin the file, so line N of Stdin is line
	// N of that file.
	ViaScriptInput
)

// viaKindNames names the kinds (ViaKind.String).
var viaKindNames = [...]string{
	ViaOther:    "other",
	ViaXargs:    "xargs",
	ViaParallel: "parallel",
	ViaFdExec:   "fd-exec",
	ViaFunction: "function",
	ViaSubst:    "subst",

	ViaScriptInput: "script-input",
}

// String names the kind ("fd-exec", "other", ...).
func (k ViaKind) String() string {
	if int(k) < len(viaKindNames) {
		return viaKindNames[k]
	}
	return "ViaKind(" + strconv.Itoa(int(k)) + ")"
}

// Via is one wrapper or context that leads to a command (Command.Via).
// Text is the analysis's wording, kept exactly: it is what the layer wire
// format carries and what messages show; Kind is derived from Text by
// ParseVia.
type Via struct {
	Kind ViaKind
	Text string
}

// ParseVia is the one place that reads a Via text into its kind: analysis
// uses it when it records a context, and the layer wire conversion uses it
// when it reads a Command back. It never fails: unrecognised text is
// ViaOther.
func ParseVia(text string) Via {
	v := Via{Kind: ViaOther, Text: text}
	switch {
	case text == "xargs":
		v.Kind = ViaXargs
	case text == "parallel":
		v.Kind = ViaParallel
	case strings.HasPrefix(text, "fd -"):
		v.Kind = ViaFdExec
	case strings.HasPrefix(text, "function "):
		v.Kind = ViaFunction
	case text == "$()" || text == "<()" || text == ">()":
		v.Kind = ViaSubst
	case strings.Contains(text, " < "):
		v.Kind = ViaScriptInput
	}
	return v
}

// String returns the context's text, as analysis wrote it.
func (v Via) String() string { return v.Text }

// MarshalJSON writes the Via as its text: JSON output (the layer
// protocol's test data, logs, --eval output) keeps the list-of-strings form.
func (v Via) MarshalJSON() ([]byte, error) { return json.Marshal(v.Text) }

// UnmarshalJSON reads a Via text and derives its kind with ParseVia.
func (v *Via) UnmarshalJSON(data []byte) error {
	var text string
	if err := json.Unmarshal(data, &text); err != nil {
		return fmt.Errorf("shell.Via: want a JSON string: %w", err)
	}
	*v = ParseVia(text)
	return nil
}

// RunsItems reports a context that runs the command once per input item
// it reads or finds (xargs, parallel, fd -x/-X): an unknown argument there
// stands for an item.
func (v Via) RunsItems() bool {
	return v.Kind == ViaXargs || v.Kind == ViaParallel || v.Kind == ViaFdExec
}

// Function returns the function's name for a ViaFunction entry, else "".
func (v Via) Function() string {
	if v.Kind != ViaFunction {
		return ""
	}
	return strings.TrimPrefix(v.Text, "function ")
}

// ViaTexts returns the texts of vias, in order (nil for none).
func ViaTexts(vias []Via) []string {
	if vias == nil {
		return nil
	}
	out := make([]string, len(vias))
	for i, v := range vias {
		out[i] = v.Text
	}
	return out
}
