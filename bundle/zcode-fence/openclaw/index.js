// zcode-fence for OpenClaw: a plugin whose before_tool_call hook hands
// every tool call to the guard before it runs. It decides nothing itself:
// the guard (../libexec/zcode-fence, run by ../js/guard.mjs) judges the
// call. An "ask" answer becomes an OpenClaw plugin approval request with
// the guard's reason (the call runs only if you allow it once; with no
// approval surface connected, as in `openclaw agent --local`, OpenClaw
// blocks it); a "deny" (the guard's no_ask_fallback form) blocks the call
// with the reason.
//
// Install (README: Install), linked so that it finds ../js and ../libexec:
//   openclaw plugins install --link <unpacked release>/bundle/zcode-fence/openclaw
import { realpathSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

// OpenClaw runs copies of this folder and of the modules it imports (a
// capture under ~/.openclaw/tmp/plugin-captures), but names the folder it
// was installed from as api.rootDir: guard.mjs and the launcher are found
// from there, the launcher by its path in the release.
let loaded
const pluginDir = (api) => join(api.rootDir || dirname(realpathSync(fileURLToPath(import.meta.url))), "..")
const guard = (api) => (loaded ??= import(pathToFileURL(join(pluginDir(api), "js", "guard.mjs")).href))

// The directory the agent's tools run in: its workspace, as OpenClaw
// resolves it; the process's directory when that cannot be had.
function workspace(api, agentId) {
  try {
    const dir = api.runtime.agent.resolveAgentWorkspaceDir(api.runtime.config.current(), agentId || "main")
    if (typeof dir === "string" && dir !== "") return dir
  } catch {}
  return process.cwd()
}

// OpenClaw blocks a call whose hook has not settled in 15 s unless the
// hook asks for more; the guard answers within its own budget, and
// guard.mjs gives up on it after 30 s with a reason of its own.
const hookTimeoutMs = 35000

export default {
  id: "zcode-fence",
  name: "zcode-fence",
  description: "Runs the zcode-fence guard before every tool call.",
  register(api) {
    api.on("before_tool_call", async (event, ctx) => {
      // (when guard.mjs cannot be loaded this throws: OpenClaw blocks the call)
      const { judge, failed, launcherIn } = await guard(api)
      const cwd = workspace(api, ctx?.agentId)
      const payload = {
        hook_event_name: "before_tool_call",
        tool_name: event.toolName,
        tool_input: event.params,
        tool_call_id: event.toolCallId ?? ctx?.toolCallId,
        session_id: ctx?.sessionId,
        session_key: ctx?.sessionKey,
        agent_id: ctx?.agentId,
        cwd,
      }
      let answer
      try {
        answer = await judge(payload, cwd, process.env, launcherIn(pluginDir(api)))
      } catch (err) {
        return { block: true, blockReason: failed(err) }
      }
      if (answer.decision === "ask") {
        return {
          requireApproval: {
            title: "zcode-fence: run this call?",
            description: answer.reason,
            severity: "critical",
            allowedDecisions: ["allow-once", "deny"],
          },
        }
      }
      if (answer.decision === "deny") return { block: true, blockReason: answer.reason }
      return undefined
    }, { timeoutMs: hookTimeoutMs })
  },
}
