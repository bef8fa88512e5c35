package paths_test

import (
	"testing"

	"github.com/zcode-fence/zcode-fence/core/paths"
)

var benchInputs = []struct{ name, in string }{
	{"clean", "/home/alice/proj/src/main.go"},
	{"dirty", "/home/alice/proj/./src//../lib/x.go/"},
	{"relative", "src/../lib/x.go"},
	{"tilde", "~/proj/out.txt"},
	{"var", "$HOME/.cache/x"},
	{"drive", "C:/Users/alice/proj/x.txt"},
	{"msys", "/c/Users/alice/proj/x.txt"},
}

func benchPlatform() paths.Platform {
	return paths.Simulated("linux", "/home/alice", map[string]string{"HOME": "/home/alice"})
}

func BenchmarkNormalize(b *testing.B) {
	p := benchPlatform()
	for _, in := range benchInputs {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.Normalize(in.in)
			}
		})
	}
}

// BenchmarkNormalizeContains is the fence's lexical hot path: one target
// normalised and checked against four roots.
func BenchmarkNormalizeContains(b *testing.B) {
	p := benchPlatform()
	roots := p.WritableRoots("/home/alice/proj", "")
	for _, in := range benchInputs {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				x := p.Normalize(in.in)
				for _, r := range roots {
					if p.Contains(r, x) {
						break
					}
				}
			}
		})
	}
}

func BenchmarkContains(b *testing.B) {
	p := paths.Simulated("darwin", "/Users/alice", nil)
	root, target := p.Clean("/Users/alice/proj"), p.Clean("/Users/Alice/PROJ/src/main.go")
	b.ReportAllocs()
	for b.Loop() {
		p.Contains(root, target)
	}
}

func BenchmarkIsCatastrophic(b *testing.B) {
	p := benchPlatform()
	for _, in := range []string{"/home/alice/proj/build", "/etc/*", `C:\Users\alice\Documents`, "/e*"} {
		x := p.Normalize(in)
		b.Run(in, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.IsCatastrophic(x)
			}
		})
	}
}

// BenchmarkIsWritableNative includes the (cached) real-path walk on this
// machine's file system.
func BenchmarkIsWritableNative(b *testing.B) {
	p := paths.Native()
	dir := b.TempDir()
	roots := p.WritableRoots(dir, "")
	target := p.Clean(dir + "/new/file.txt")
	b.ReportAllocs()
	for b.Loop() {
		p.IsWritable(target, roots)
	}
}
