//go:build zcodefence_sim

package paths

import "os"

// SimulateEnv names the variable that, in a binary built with the
// zcodefence_sim tag, selects the OS whose path rules the binary judges
// with ("linux", "darwin" or "windows"). Such a binary also never touches
// the real file system for real paths (they are lexical), so the golden
// test's simulated worlds give the same answers on every machine. Release
// builds do not contain this file.
const SimulateEnv = "ZCODE_FENCE_SIM_OS"

func init() {
	simulate = func(p *Platform) {
		p.EvalSymlinks = nil
		goos := os.Getenv(SimulateEnv)
		if goos == "" || goos == p.OS {
			return
		}
		p.OS = goos
		p.TempDir = ""
		if goos == "windows" {
			p.Lookup = foldedLookup(os.LookupEnv, os.Environ)
		}
	}
}
