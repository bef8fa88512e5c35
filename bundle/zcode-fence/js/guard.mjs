// The part the bundle's JS plugins share (opencode/zcode-fence.js for
// opencode and Kilo, pi/zcode-fence.ts for Pi, openclaw/index.js for
// OpenClaw): run the guard's launcher
// (../libexec/zcode-fence) on one payload and read its answer. It decides
// nothing: the guard judges; the plugins map its answer to their host.
import { spawn } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

// launcherIn is the launcher of the plugin folder dir (bundle/zcode-fence).
export function launcherIn(dir) {
  return join(dir, "libexec", process.platform === "win32" ? "zcode-fence.cmd" : "zcode-fence")
}

const launcher = launcherIn(join(dirname(fileURLToPath(import.meta.url)), ".."))

// The guard answers within its own budget (4.5 s); this bounds a guard that
// cannot start at all (a machine loaded far past its cores).
const timeoutMs = 30000

// judge runs the guard (the launcher beside this module, or exe) on
// payload in cwd with env and resolves to its answer: {decision, reason},
// decision "" for none. It rejects when the guard cannot run, does not
// answer in time, or answers what is not JSON.
export function judge(payload, cwd, env, exe = launcher) {
  return new Promise((resolve, reject) => {
    const child = spawn(exe, [], { cwd, env, stdio: ["pipe", "pipe", "inherit"], windowsHide: true })
    let out = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`zcode-fence did not answer within ${timeoutMs / 1000} s`))
    }, timeoutMs)
    child.stdout.setEncoding("utf8")
    child.stdout.on("data", (d) => { out += d })
    child.on("error", (err) => { clearTimeout(timer); reject(err) })
    child.on("close", () => {
      clearTimeout(timer)
      const line = out.trim()
      if (line === "") return resolve({ decision: "", reason: "" })
      try {
        const v = JSON.parse(line).hookSpecificOutput || {}
        resolve({ decision: v.permissionDecision || "", reason: v.permissionDecisionReason || "" })
      } catch {
        reject(new Error(`its answer is not JSON: ${line.slice(0, 200)}`))
      }
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(payload))
  })
}

// failed is the reason a call is stopped with when the guard could not
// judge it: as the launcher stops every call when it finds no binary.
export function failed(err) {
  return `[zcode-fence] the guard could not judge this call (${err.message}); it was stopped. Reinstall zcode-fence (README: Install).`
}
