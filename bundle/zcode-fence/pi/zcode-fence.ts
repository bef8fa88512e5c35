// zcode-fence for Pi (@mariozechner/pi-coding-agent): an extension that
// hands every tool call to the guard before it runs. It decides nothing
// itself: the guard (../libexec/zcode-fence, run by ../js/guard.mjs)
// judges the call. An "ask" answer opens Pi's confirmation
// (ctx.ui.confirm) with the guard's reason, and the call runs only if you
// say yes; a "deny" (the guard's no_ask_fallback form, which it gives when
// Pi has no UI: `pi -p`, JSON, RPC) blocks the call with the reason.
//
// Install (README: Install): pi install <unpacked release>/bundle/zcode-fence/pi
import { realpathSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const shared = join(dirname(realpathSync(fileURLToPath(import.meta.url))), "..", "js", "guard.mjs")
let loaded
const guard = () => (loaded ??= import(pathToFileURL(shared).href))

export default function (pi) {
  pi.on("tool_call", async (event, ctx) => {
    const { judge, failed } = await guard()
    const payload = {
      hook_event_name: "tool_call",
      tool_name: event.toolName,
      tool_input: event.input,
      tool_call_id: event.toolCallId,
      cwd: ctx.cwd,
    }
    // The guard is told whether Pi can show a confirmation.
    const env = { ...process.env, ZCODE_FENCE_HEADLESS: ctx.hasUI ? "0" : "1" }
    let answer
    try {
      answer = await judge(payload, ctx.cwd, env)
    } catch (err) {
      return { block: true, reason: failed(err) }
    }
    if (answer.decision === "ask" && ctx.hasUI) {
      const ok = await ctx.ui.confirm("zcode-fence: run this call?", answer.reason)
      return ok ? undefined : { block: true, reason: answer.reason }
    }
    if (answer.decision === "ask" || answer.decision === "deny") return { block: true, reason: answer.reason }
    return undefined
  })
}
