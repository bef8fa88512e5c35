package paths

import "strings"

// IsWideRoot reports whether x is too wide to serve as a project root: the
// filesystem root, a drive root, a network share root, the home directory,
// an ancestor of home, or a whole user profile (/home/<one>,
// /Users/<one>, X:\Users\<one>). The label says which (one of the Label*
// constants). A fence whose project root is that wide fences almost
// nothing, so the session lock never records such a root and explain and
// the decision log flag it. Lexical, like IsCatastrophic (pass a RealPath
// result to see through symlinks); globs are not roots and never match.
// Cost: that of IsCatastrophic.
func (p Platform) IsWideRoot(x Path) (bool, string) {
	if strings.ContainsAny(x.Norm, "*?[") {
		return false, ""
	}
	ok, label := p.IsCatastrophic(x)
	if !ok {
		return false, ""
	}
	switch label {
	case LabelRoot, LabelDriveRoot, LabelShareRoot, LabelHome, LabelHomeAncestor, LabelProfile:
		return true, label
	}
	return false, ""
}
