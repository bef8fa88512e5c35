package main

import (
	"os"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/host"
	"github.com/zcode-fence/zcode-fence/core/integrity"
)

// checkIntegrity verifies this binary against the SHA256SUMS beside it
// (core/integrity: hashed once per installed version, then answered from
// the record in the data dir). On a guarded call whose binary does not
// match, the answer becomes an ask whose first reason says so and how to
// fix it; the layers' own reasons follow. Only hook mode calls it.
func (j *judgement) checkIntegrity() {
	if j.inputErr != nil || j.prep.Skip || j.prep.Call == nil {
		return // nothing is being judged
	}
	exe, err := os.Executable()
	if err != nil {
		j.out.Notes = append(j.out.Notes, "integrity: cannot locate this executable: "+err.Error())
		return
	}
	r := integrity.Check(exe, j.dataDir, core.Version)
	if r.Hashed || r.Asks() || r.RecordErr != nil {
		j.out.Notes = append(j.out.Notes, r.Note())
	}
	if !r.Asks() {
		return
	}
	lang := j.cfg.Get(config.KeyLanguage)
	reason := core.Reason{Layer: "integrity", Rule: "integrity." + string(r.Status), Message: r.Reason(lang)}
	j.out.Verdict = core.Merge(core.AskVerdict(reason), j.out.Verdict)
	j.out.Text = host.FormatReasons(j.out.Verdict, lang)
}
