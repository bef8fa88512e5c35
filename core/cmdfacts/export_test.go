package cmdfacts

// Fnmatch and GlobNextBracket open fnmatch.go to the package's external
// tests (fnmatch_test.go).
var (
	Fnmatch         = fnmatch
	GlobNextBracket = globNextBracket
)
