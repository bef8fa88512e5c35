// zcode-fence for opencode and Kilo CLI: a plugin that hands every tool
// call to the guard before it runs, and stops the call when the guard
// answers. It decides nothing itself: the guard (../libexec/zcode-fence,
// the launcher of this plugin's binaries) judges the call and, since these
// hosts cannot show a confirmation from a plugin, answers with its
// no_ask_fallback form: a deny with the reason, or nothing.
//
// Install (README: Install): put this file in ~/.config/opencode/plugins/
// (Kilo: ~/.config/kilo/plugins/) as a symbolic link to it in an unpacked
// release, or name it in the "plugin" list of opencode.json / kilo.json as
// file://<release>/bundle/zcode-fence/opencode/zcode-fence.js. The plugin
// finds the launcher next to its real location.
import { spawn } from "node:child_process"
import { realpathSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

// The launcher, found from this file's real path (a link in the host's
// plugins folder points here).
const here = dirname(realpathSync(fileURLToPath(import.meta.url)))
const launcher = join(here, "..", "libexec", process.platform === "win32" ? "zcode-fence.cmd" : "zcode-fence")

// The guard answers within its own budget (4.5 s); this bounds a guard that
// cannot start at all (a machine loaded far past its cores).
const timeoutMs = 30000

// judge runs the guard on one payload and returns its stdout.
function judge(payload, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(launcher, [], { cwd, stdio: ["pipe", "pipe", "inherit"], windowsHide: true })
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

export const ZcodeFence = async ({ directory, worktree }) => ({
  "tool.execute.before": async (input, output) => {
    const payload = {
      hook_event_name: "tool.execute.before",
      tool_name: input.tool,
      tool_input: output.args,
      session_id: input.sessionID,
      call_id: input.callID,
      cwd: directory,
      worktree,
    }
    let answer
    try {
      answer = await judge(payload, directory)
    } catch (err) {
      // The guard could not run: the call is stopped, as the launcher
      // stops every call when it finds no binary.
      throw new Error(`[zcode-fence] the guard could not judge this call (${err.message}); it was stopped. Reinstall zcode-fence (README: Install).`)
    }
    const line = answer.trim()
    if (line === "") return
    let decision, reason
    try {
      const v = JSON.parse(line).hookSpecificOutput || {}
      decision = v.permissionDecision
      reason = v.permissionDecisionReason
    } catch {
      throw new Error(`[zcode-fence] the guard's answer is not JSON: ${line.slice(0, 200)}`)
    }
    if (decision === "deny" || decision === "ask") throw new Error(reason)
  },
})
