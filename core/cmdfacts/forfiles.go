package cmdfacts

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Forfiles reads forfiles' arguments (after the command word: /P DIR,
// /M MASK, /S, /D DATE, /C COMMAND; switches in any case, with / or -)
// and returns the command line it runs once per file found, with the
// file placeholders @path, @file, @fname and @relpath replaced by DIR\MASK
// in quotes: the files it stands for, as a path the judges can read
// (forfiles /P C:\ /C "cmd /c rd /s /q @path" removes every entry of C:\).
// 0xHH escapes are decoded; unknown parts of a value stay as written, so
// the judges see them as unknown. The default command (cmd /c echo @file)
// runs nothing worth judging: ok is false without /C. Cost: linear in the
// arguments and the command's length.
func Forfiles(args []ir.Word) (cmd string, ok bool) {
	dir, mask := ".", "*"
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := strings.ToLower(a.Value)
		if a.Unknown || len(v) != 2 || v[0] != '/' && v[0] != '-' {
			continue
		}
		if strings.IndexByte("pmcd", v[1]) < 0 || i+1 >= len(args) {
			continue
		}
		i++
		val := args[i].Value // unknown parts stay as written (%USERPROFILE%)
		switch v[1] {
		case 'p':
			dir = val
		case 'm':
			mask = val
		case 'c':
			cmd, ok = val, true
		}
	}
	if !ok {
		return "", false
	}
	sep := `\`
	if strings.HasSuffix(dir, `\`) || strings.HasSuffix(dir, "/") {
		sep = ""
	}
	file := `"` + dir + sep + mask + `"`
	cmd = decodeHexEscapes(cmd)
	r := strings.NewReplacer("@path", file, "@PATH", file, "@file", file, "@FILE", file,
		"@fname", file, "@FNAME", file, "@relpath", file, "@RELPATH", file)
	return r.Replace(cmd), true
}

// decodeHexEscapes decodes forfiles' 0xHH character escapes ("0x22" is a
// double quote).
func decodeHexEscapes(s string) string {
	if !strings.Contains(s, "0x") {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '0' && i+3 < len(s) && s[i+1] == 'x' && isHexDigit(s[i+2]) && isHexDigit(s[i+3]) {
			sb.WriteByte(hexVal(s[i+2])<<4 | hexVal(s[i+3]))
			i += 3
			continue
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

func hexVal(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
