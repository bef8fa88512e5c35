// zcode-fence for opencode and Kilo CLI: a plugin that hands every tool
// call to the guard before it runs, and stops the call when the guard
// answers. It decides nothing itself: the guard (../libexec/zcode-fence,
// run by ../js/guard.mjs) judges the call and, since these hosts cannot
// show a confirmation from a plugin, answers with its no_ask_fallback
// form: a deny with the reason, or nothing.
//
// Install (README: Install): link this file into ~/.config/opencode/plugins/
// (Kilo: ~/.config/kilo/plugins/) from an unpacked release, or name it in
// the "plugin" list of opencode.json / kilo.json as a file:// URL. The
// shared module is found from this file's real path.
import { realpathSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const shared = join(dirname(realpathSync(fileURLToPath(import.meta.url))), "..", "js", "guard.mjs")
let loaded
const guard = () => (loaded ??= import(pathToFileURL(shared).href))

export const ZcodeFence = async ({ directory, worktree }) => ({
  "tool.execute.before": async (input, output) => {
    const { judge, failed } = await guard()
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
      answer = await judge(payload, directory, process.env)
    } catch (err) {
      throw new Error(failed(err))
    }
    if (answer.decision === "deny" || answer.decision === "ask") throw new Error(answer.reason)
  },
})
