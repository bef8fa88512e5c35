// Package paths turns the path strings found in tool calls into typed,
// comparable values, and answers the three questions the danger gate, the
// project fence and the host ask about them:
//
//   - what does this string name?            Platform.Normalize, Platform.Clean
//   - is it inside that directory?           Platform.Contains, Platform.IsWritable
//   - would deleting it be a catastrophe?    Platform.IsCatastrophic
//
// plus the helpers around them: Platform.RealPath (symlink-aware ancestor
// walk), Platform.WritableRoots (the fence's roots), Platform.Join and
// Platform.ChangeDir (cd tracking).
//
// # Platforms
//
// Every function is a method of Platform, a plain value that says which
// operating system's rules apply, where home is, how variables are looked up
// and (optionally) how symlinks are resolved. Native describes the running
// process; Simulated and ForOS give Windows or macOS semantics on any host,
// which is how the tests cover all three on Linux.
//
// # Kinds
//
// The shape of a path is a fact about the call, not about the host: drive
// letters (C:\x, C:/x, bare C:), MSYS and Cygwin paths (/c/x,
// /cygdrive/c/x) and UNC paths (\\srv\share, //srv/share) are absolute
// Windows paths on every platform. So on Linux "C:/Users/x" is a Drive path
// that lies outside every Unix root, never a relative file under the
// current directory.
//
// An undefined variable ($NOPE, ${NOPE}, %NOPE%, $env:NOPE) makes the
// result Unresolved: it is never expanded to the empty string, because
// "$NOPE/x" is not "/x". Callers treat Unresolved as "unknown": the fence
// asks about unknown write targets; the catastrophe test does not claim to
// know either way (it answers false and the gate decides).
//
// # Costs
//
// Normalize, Clean, Contains and IsCatastrophic are pure string work: no
// regular expressions, no system calls, at most a few small allocations,
// well under a microsecond for ordinary paths (see the benchmarks).
// RealPath and IsWritable do system calls on native platforms (one
// EvalSymlinks per missing trailing component, cached per process);
// WritableRoots does a handful of them. Nothing here panics on any input.
package paths
