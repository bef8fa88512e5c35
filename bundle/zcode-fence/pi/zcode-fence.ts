// zcode-fence for Pi (@mariozechner/pi-coding-agent): an extension that
// hands every tool call to the guard before it runs. It decides nothing
// itself: the guard (../libexec/zcode-fence, the launcher of this plugin's
// binaries) judges the call. An "ask" answer opens Pi's confirmation
// (ctx.ui.confirm) with the guard's reason, and the call runs only if you
// say yes; a "deny" (the guard's no_ask_fallback form, which it gives when
// Pi has no UI: `pi -p`, RPC) blocks the call with the reason.
//
// Install (README: Install): pi install <unpacked release>/bundle/zcode-fence/pi
import { spawn } from "node:child_process"
import { realpathSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const here = dirname(realpathSync(fileURLToPath(import.meta.url)))
const launcher = join(here, "..", "libexec", process.platform === "win32" ? "zcode-fence.cmd" : "zcode-fence")

// The guard answers within its own budget (4.5 s); this bounds a guard that
// cannot start at all.
const timeoutMs = 30000

// judge runs the guard on one payload and returns its stdout. The guard is
// told whether Pi can show a confirmation (ZCODE_FENCE_HEADLESS).
function judge(payload, cwd, hasUI) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ZCODE_FENCE_HEADLESS: hasUI ? "0" : "1" }
    const child = spawn(launcher, [], { cwd, env, stdio: ["pipe", "pipe", "inherit"], windowsHide: true })
    let out = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`zcode-fence did not answer within ${timeoutMs / 1000} s`))
    }, timeoutMs)
    child.stdout.setEncoding("utf8")
    child.stdout.on("data", (d) => { out += d })
    child.on("error", (err) => { clearTimeout(timer); reject(err) })
    child.on("close", () => { clearTimeout(timer); resolve(out) })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(payload))
  })
}

export default function (pi) {
  pi.on("tool_call", async (event, ctx) => {
    const payload = {
      hook_event_name: "tool_call",
      tool_name: event.toolName,
      tool_input: event.input,
      tool_call_id: event.toolCallId,
      cwd: ctx.cwd,
    }
    let answer
    try {
      answer = await judge(payload, ctx.cwd, ctx.hasUI)
    } catch (err) {
      // The guard could not run: the call is stopped, as the launcher
      // stops every call when it finds no binary.
      return { block: true, reason: `[zcode-fence] the guard could not judge this call (${err.message}); it was stopped. Reinstall zcode-fence (README: Install).` }
    }
    const line = answer.trim()
    if (line === "") return undefined
    let decision, reason
    try {
      const v = JSON.parse(line).hookSpecificOutput || {}
      decision = v.permissionDecision
      reason = v.permissionDecisionReason
    } catch {
      return { block: true, reason: `[zcode-fence] the guard's answer is not JSON: ${line.slice(0, 200)}` }
    }
    if (decision === "ask" && ctx.hasUI) {
      const ok = await ctx.ui.confirm("zcode-fence: run this call?", reason)
      return ok ? undefined : { block: true, reason }
    }
    if (decision === "ask" || decision === "deny") return { block: true, reason }
    return undefined
  })
}
