package decisionmodel

import (
	"math"
	"strconv"
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// thresholds[strictness][dimension] is the score at or above which a risk
// dimension asks (DESIGN.md §7). Code execution never asks.
var thresholds = [3][4]float64{
	0: {DataLoss: 0.85, SystemChange: 0.90, ExternalSideEffects: 0.85, DataExfiltration: 0.75},
	1: {DataLoss: 0.70, SystemChange: 0.80, ExternalSideEffects: 0.70, DataExfiltration: 0.60},
	2: {DataLoss: 0.50, SystemChange: 0.60, ExternalSideEffects: 0.50, DataExfiltration: 0.40},
}

// tiePriority lists the risk dimensions from the widest impact down: on an
// equal margin the earlier one names the kind.
var tiePriority = [4]Dimension{DataExfiltration, ExternalSideEffects, DataLoss, SystemChange}

// codeExecutionLabel is the code_execution score from which a silent result
// is labelled "code_execution" instead of "routine".
const codeExecutionLabel = 0.70

// Kinds of a silent result.
const (
	KindRoutine       = "routine"
	KindCodeExecution = "code_execution"
)

// ruleOf is the rule a risk dimension asks with.
var ruleOf = [4]*rules.Rule{
	DataLoss:            rules.ModelDataLoss,
	SystemChange:        rules.ModelSystemChange,
	ExternalSideEffects: rules.ModelExternalSideEffects,
	DataExfiltration:    rules.ModelDataExfiltration,
}

// judgement is what an Answer means at one strictness.
type judgement struct {
	ask       bool
	dimension Dimension // the asking dimension, when ask
	kind      string
}

// judge applies the strictness thresholds to a: any risk dimension at or
// above its threshold asks, and the kind is the one with the largest margin
// (score minus threshold; ties by tiePriority). Margins are compared in
// units of 1e-9 so that float noise (0.8-0.7 vs 0.7-0.6) cannot break a tie.
func judge(a Answer, strictness int) judgement {
	th := thresholds[strictness]
	best := judgement{}
	var bestMargin int64
	for _, d := range tiePriority {
		if a[d].Score < th[d] {
			continue
		}
		margin := int64(math.Round((a[d].Score - th[d]) * 1e9))
		if !best.ask || margin > bestMargin {
			best = judgement{ask: true, dimension: d, kind: d.String()}
			bestMargin = margin
		}
	}
	if best.ask {
		return best
	}
	if a[CodeExecution].Score >= codeExecutionLabel {
		return judgement{kind: KindCodeExecution}
	}
	return judgement{kind: KindRoutine}
}

// verdictFor turns a judgement into the layer's verdict, with annotations
// for the decision log.
func verdictFor(s *settings, call *core.Call, a Answer, j judgement, cached bool, latencyMS int64) core.Verdict {
	ann := map[string]string{
		"kind":       j.kind,
		"strictness": strconv.Itoa(s.strictness),
		"cached":     strconv.FormatBool(cached),
		"latency_ms": strconv.FormatInt(latencyMS, 10),
	}
	for d := range numDimensions {
		ann[d.String()+".score"] = strconv.FormatFloat(a[d].Score, 'f', -1, 64)
		ann[d.String()+".why"] = a[d].Why
	}
	if len(s.notes) > 0 {
		ann["notes"] = strings.Join(s.notes, "; ")
	}
	if !j.ask {
		return core.Verdict{Decision: core.Silent, Annotations: ann}
	}
	reason := core.Reason{
		Layer:   LayerName,
		Rule:    ruleOf[j.dimension].ID,
		Message: askMessage(s.language, call, j.dimension, a[j.dimension], thresholds[s.strictness][j.dimension]),
	}
	v := core.AskVerdict(reason)
	v.Annotations = ann
	return v
}
