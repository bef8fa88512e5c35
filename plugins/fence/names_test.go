package fence

import (
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

// TestTableNamesJudged checks that every command name the fence's tables
// read is one cmdfacts.Judged knows, so that it is judged after an
// unknown command word too ($W tar -xf x.tar -C /).
func TestTableNamesJudged(t *testing.T) {
	for _, table := range []map[string]extractor{posixTargets, windowsTools, cmdBuiltins} {
		for name := range table {
			if !cmdfacts.Judged(name) {
				t.Errorf("%q is read by the fence but cmdfacts.Judged does not know it", name)
			}
		}
	}
}
