package rules

// The decision model's rules (layer "decisionmodel"): one per risk
// dimension that can ask. Templates may use {score} ("data_loss 0.91 ≥
// 0.70"), {why} (the model's reason) and {subject} (the command, path or
// tool, redacted).

// The decision model's one family.
var Model = family(&Family{Layer: "decisionmodel", Name: "model", Title: "Decision model",
	Doc: "Off by default. Asked only when every deterministic layer was silent; a dimension asks when its score is at or above the threshold of decision_model_strictness."})

// modelZh and modelEn are the decision model's message around the name of
// the risk dimension.
func modelZh(kind string) string {
	return "[zcode-fence: 决策模型] 模型判定此调用有" + kind + "风险（{score}）：{why}。调用：{subject}。请向用户说明并请求确认；不要原样重试，也不要绕过。"
}

func modelEn(kind string) string {
	return "[zcode-fence: decision model] The model rates this call as a " + kind + " risk ({score}): {why}. Call: {subject}. Explain this to the user and ask for confirmation; do not retry it unchanged or work around it."
}

// The Model family.
var (
	ModelDataLoss = def(&Rule{ID: "DM-DATA-LOSS", Family: Model,
		Doc: "The model rates the call as deleting, overwriting or corrupting data, history, remote objects, databases, backups or volumes that are hard to recover.",
		Zh:  modelZh("数据损失"),
		En:  modelEn("data loss")})
	ModelSystemChange = def(&Rule{ID: "DM-SYSTEM-CHANGE", Family: Model,
		Doc: "The model rates the call as changing machine or user level state: services, persistence, storage, global package installs.",
		Zh:  modelZh("系统变更"),
		En:  modelEn("system change")})
	ModelExternalSideEffects = def(&Rule{ID: "DM-EXTERNAL-SIDE-EFFECTS", Family: Model,
		Doc: "The model rates the call as acting outside the machine: publishing, deploying, force/mirror/delete pushes, remote deletes or overwrites, uploads, remote API writes.",
		Zh:  modelZh("外部副作用"),
		En:  modelEn("external side effects")})
	ModelDataExfiltration = def(&Rule{ID: "DM-DATA-EXFILTRATION", Family: Model,
		Doc: "The model rates the call as sending keys, credentials, private keys or private data off the machine.",
		Zh:  modelZh("数据外带"),
		En:  modelEn("data exfiltration")})
)
