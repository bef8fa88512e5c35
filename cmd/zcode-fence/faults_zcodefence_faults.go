//go:build zcodefence_faults

package main

import (
	"context"
	"errors"
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/plugins"
)

// A binary built with the zcodefence_faults tag (tests only: release
// builds do not contain this file) makes its built-in deterministic layers
// fail on demand, in both isolation modes, so that the tests can show the
// call then asks (DESIGN §3). A shell command or a file tool's path holding
// "FAULT-<KIND>-<LAYER>" makes that layer, after judging the call for real:
//
//	PANIC  panic;
//	ERROR  return what it found with an error;
//	SLOW   wait for its deadline, then return what it found with the
//	       context's error;
//	HANG   never return, ignoring its deadline.
//
// "FAULT-STALL-HOOK" stalls the hook itself between the call's preparation
// and its chain (as an analysis slowed to a crawl would), and
// "FAULT-PANIC-HOOK" makes the hook panic there.
func init() {
	hookFault = func(c *core.Call) {
		text := c.Command + " " + strings.Join(c.Paths, " ")
		switch {
		case strings.Contains(text, "FAULT-STALL-HOOK"):
			select {}
		case strings.Contains(text, "FAULT-PANIC-HOOK"):
			panic("zcodefence_faults: panic in the hook")
		}
	}
	for i := range plugins.Builtins {
		b := &plugins.Builtins[i]
		if b.Deferred {
			continue
		}
		real := b.New
		name := b.Name
		b.New = func() core.Layer { return &faultyLayer{Layer: real(), marker: "-" + strings.ToUpper(name)} }
	}
}

type faultyLayer struct {
	core.Layer
	marker string
}

func (f *faultyLayer) Decide(ctx context.Context, c *core.Call) (core.Verdict, error) {
	v, err := f.Layer.Decide(ctx, c)
	if c == nil || err != nil {
		return v, err
	}
	text := c.Command + " " + strings.Join(c.Paths, " ")
	switch {
	case strings.Contains(text, "FAULT-PANIC"+f.marker):
		panic("zcodefence_faults: panic in " + f.Name())
	case strings.Contains(text, "FAULT-ERROR"+f.marker):
		return v, errors.New("zcodefence_faults: " + f.Name() + " failed")
	case strings.Contains(text, "FAULT-SLOW"+f.marker):
		<-ctx.Done()
		return v, ctx.Err()
	case strings.Contains(text, "FAULT-HANG"+f.marker):
		select {}
	}
	return v, nil
}
