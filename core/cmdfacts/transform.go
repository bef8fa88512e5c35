package cmdfacts

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Commands whose output is their input decoded or rewritten: text that
// reaches a shell through one of them hides what the shell runs.

// TextChange says how a command's output relates to its input.
type TextChange int

const (
	// Unchanged: not a decoder nor a rewriter (or not in a form that is).
	Unchanged TextChange = iota
	// Decoded: base64 -d, base32 -d, basenc -d, xxd -r, uudecode, openssl
	// enc/base64 -d, PowerShell's [Convert]::FromBase64String (and
	// FromBase64CharArray, FromHexString), and the decompressors (gzip -d, zcat, bzcat, xz -d,
	// zstd -d, lz4 -d, brotli -d, uncompress ...).
	Decoded
	// Rewritten: rev, tac, tr, sed, iconv, recode; printf and echo -e
	// writing hex, octal or Unicode escapes; an interpreter one-liner
	// (awk, perl, python, node, ruby, php ...) printing what it computes.
	Rewritten
)

// decompressors are the commands that always decompress, and those that do
// with -d / --decompress (the value).
var decompressors = map[string]bool{
	"gunzip": true, "zcat": true, "gzcat": true, "bunzip2": true, "bzcat": true, "unxz": true, "xzcat": true,
	"unlzma": true, "lzcat": true, "unzstd": true, "zstdcat": true, "lz4cat": true, "uncompress": true,
	"unlz4": true, "gzip": false, "bzip2": false, "xz": false, "lzma": false, "zstd": false, "lz4": false,
	"brotli": false, "pigz": false, "pbzip2": false, "lzip": false, "compress": false,
}

// rewriters always rewrite their input.
var rewriters = map[string]bool{"rev": true, "tac": true, "tr": true, "sed": true,
	"iconv": true, "recode": true}

// TextChangeOf says whether command c (Name normalised, wrappers
// stripped) decodes or rewrites the text it outputs. Cost: linear in the
// arguments.
func TextChangeOf(c *ir.Command) TextChange {
	if c == nil || len(c.Args) == 0 {
		return Unchanged
	}
	name, args := c.Name, c.Args[1:]
	switch name {
	case "base64", "basenc", "gbase64", "base32", "gbase32":
		if HasShort(args, "dD") || HasLong(args, "--decode") {
			return Decoded
		}
		return Unchanged
	case "xxd":
		if HasShort(args, "r") || HasLong(args, "--revert", "-revert") {
			return Decoded
		}
		return Unchanged
	case "uudecode", "[system.convert]::frombase64string", "[system.convert]::frombase64chararray",
		"[system.convert]::fromhexstring":
		return Decoded // PowerShell's [Convert] decoders too
	case "openssl":
		sub := ""
		for _, a := range args {
			if !a.Unknown && !strings.HasPrefix(a.Value, "-") {
				sub = strings.ToLower(a.Value)
				break
			}
		}
		decrypt := false
		for _, a := range args {
			decrypt = decrypt || a.Value == "-d" || a.Value == "-decrypt"
		}
		if decrypt && (sub == "enc" || sub == "base64" || strings.HasPrefix(sub, "aes") || strings.HasPrefix(sub, "des") ||
			strings.HasPrefix(sub, "chacha") || strings.HasPrefix(sub, "camellia")) {
			return Decoded
		}
		return Unchanged
	case "printf":
		i := printfFormat(args)
		if i < 0 {
			return Unchanged
		}
		if hasCodeEscape(args[i].Value) {
			return Rewritten
		}
		if strings.Contains(args[i].Value, "%b") {
			for _, a := range args[i+1:] {
				if hasCodeEscape(a.Value) {
					return Rewritten // printf %b expands its argument's escapes
				}
			}
		}
		return Unchanged
	case "echo":
		if echoEscapes(args) {
			return Rewritten
		}
		return Unchanged
	}
	if always, ok := decompressors[name]; ok {
		if always || HasShort(args, "d") || HasLong(args, "--decompress", "--uncompress") {
			return Decoded
		}
		return Unchanged
	}
	if rewriters[name] {
		return Rewritten
	}
	if InterpreterLang(name) != "" && len(InlineScripts(c)) > 0 {
		return Rewritten
	}
	return Unchanged
}

// printfFormat is the index of printf's format argument, or -1.
func printfFormat(args []ir.Word) int {
	i := 0
	if i < len(args) && args[i].Value == "--" {
		i++
	}
	if i < len(args) && args[i].Value == "-v" {
		return -1
	}
	if i < len(args) {
		return i
	}
	return -1
}

// hasCodeEscape reports a backslash escape that writes a character by its
// code (\xHH, \NNN, \0NNN, \uHHHH, \UHHHHHHHH), the form that hides text.
func hasCodeEscape(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		switch c := s[i+1]; {
		case c == '\\':
			i++
		case (c == 'x' || c == 'u' || c == 'U') && i+2 < len(s) && isHexDigit(s[i+2]):
			return true
		case c >= '0' && c <= '7':
			return true
		}
	}
	return false
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// echoEscapes reports echo -e (or an echo without -E, which sh and zsh
// read alike) whose text holds code escapes.
func echoEscapes(args []ir.Word) bool {
	i := 0
	noEsc := false
	for ; i < len(args); i++ {
		v := args[i].Value
		if len(v) < 2 || v[0] != '-' || strings.Trim(v[1:], "neE") != "" {
			break
		}
		noEsc = noEsc || strings.Contains(v, "E") && !strings.Contains(v, "e")
	}
	if noEsc {
		return false
	}
	for _, a := range args[i:] {
		if hasCodeEscape(a.Value) {
			return true
		}
	}
	return false
}
