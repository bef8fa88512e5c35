package oneliner

import "strings"

// Decoded payloads: a one-liner that runs a command (or evaluates code)
// it builds at run time, where the code also decodes text (base64,
// hex, character codes, a reversed string, rot13, zlib ...), runs
// whatever the decoding gives: os.system(base64.b64decode(...).decode()),
// exec(bytes.fromhex(...)), execSync(Buffer.from(x, 'base64').toString()),
// system(pack("H*", ...)), eval(atob(...)), os.system(''.join(chr(c) for
// c in ...)), os.system(s[::-1]). Such an exec effect is marked Decoded.

// decoderCalls are the function and method names that decode text, per
// language family ("*" for every family).
var decoderCalls = map[string]string{
	"b64decode": "*", "b32decode": "*", "b16decode": "*", "b85decode": "*", "a85decode": "*",
	"urlsafe_b64decode": "*", "standard_b64decode": "*", "decodebytes": "*", "decodestring": "*",
	"unhexlify": "*", "a2b_base64": "*", "a2b_hex": "*", "fromhex": "*", "chr": "*", "unichr": "*",
	"atob": "*", "fromCharCode": "*", "fromCodePoint": "*", "decode_base64": "*", "decode64": "*",
	"strict_decode64": "*", "urlsafe_decode64": "*", "unpack1": "*", "base64_decode": "*",
	"hex2bin": "*", "str_rot13": "*", "gzinflate": "*", "gzuncompress": "*", "gzdecode": "*",
	"strrev": "*", "decompress": "*", "inflateSync": "*", "gunzipSync": "*", "reversed": "*",
	"reverse": "*", "rot13": "*", "unpack": "lr", "pack": "lrh", "Decode": "*", "DecodeString": "*",
}

// codecNames are string arguments that make a generic call a decoder:
// Buffer.from(x, 'base64'), codecs.decode(x, 'rot13'), x.decode('hex').
var codecNames = map[string]bool{"base64": true, "hex": true, "rot13": true, "rot_13": true,
	"base32": true, "zlib": true, "bz2": true, "base64url": true, "uu": true, "ascii85": true}

// decodes reports whether the code of p decodes text somewhere.
func (p *parser) decodes() bool {
	for i, t := range p.toks {
		switch t.kind {
		case tkIdent:
			if fams, ok := decoderCalls[t.text]; ok && (fams == "*" || strings.IndexByte(fams, p.fam) >= 0) {
				return true
			}
		case tkString:
			if codecNames[strings.ToLower(t.text)] {
				return true
			}
		case tkPunct:
			// s[::-1]
			if t.text == "[" && i+4 < len(p.toks) && p.toks[i+1].text == ":" && p.toks[i+2].text == ":" &&
				p.toks[i+3].text == "-" && p.toks[i+4].text == "1" {
				return true
			}
			if t.text == "[" && i+3 < len(p.toks) && p.toks[i+1].text == "::" && p.toks[i+2].text == "-" &&
				p.toks[i+3].text == "1" {
				return true
			}
		}
	}
	return false
}
