package fence

// isASCIILetter reports whether c is an ASCII letter (a drive letter).
func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
