package cmdfacts

import (
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

func TestPackageRunnerArgs(t *testing.T) {
	for _, tc := range []struct {
		line string
		want string // the words returned, joined; "-" when it runs no package
	}{
		{"npx -y rimraf@5 dist", "-y rimraf@5 dist"},
		{"bunx rimraf dist", "rimraf dist"},
		{"pnpx rimraf dist", "rimraf dist"},
		{"pnpm dlx rimraf dist", "rimraf dist"},
		{"pnpm exec rimraf dist", "rimraf dist"},
		{"yarn dlx rimraf dist", "rimraf dist"},
		{"npm exec -- rimraf dist", "-- rimraf dist"},
		{"npm x -p rimraf -- rimraf dist", "-p rimraf -- rimraf dist"},
		{"npm --yes exec rimraf /srv", "rimraf /srv"},
		{"pnpm -C sub dlx rimraf /srv", "rimraf /srv"},
		{"yarn --cwd x dlx -p rimraf rimraf /srv", "-p rimraf rimraf /srv"},
		{"npm --prefix vendor install rimraf", "-"},
		{"npm install rimraf", "-"},
		{"pnpm install --frozen-lockfile", "-"},
		{"yarn", "-"},
		{"npm run build", "-"},
		{"make dist", "-"},
	} {
		f := strings.Fields(tc.line)
		var args []ir.Word
		for _, w := range f[1:] {
			args = append(args, Literal(w))
		}
		got, ok := PackageRunnerArgs(f[0], args)
		s := "-"
		if ok {
			var vs []string
			for _, w := range got {
				vs = append(vs, w.Value)
			}
			s = strings.Join(vs, " ")
		}
		if s != tc.want {
			t.Errorf("%s: %q, want %q", tc.line, s, tc.want)
		}
	}
	unknown := []ir.Word{{Value: "", Raw: "$SUB", Unknown: true}, Literal("rimraf")}
	if _, ok := PackageRunnerArgs("pnpm", unknown); ok {
		t.Error("pnpm $SUB rimraf: an unknown subcommand read as a runner")
	}
}
