package cmdfacts

import (
	"maps"
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// The command table: each command's option syntax (syntaxes, one Spec
// per command name, read by ParseArgs) and, for the file commands, what it
// does (effectReaders, EffectsOf). A layer never writes its own option
// list: it calls ParseCommand, EffectsOf or a fact built on them (such as
// PermissionChange), so the danger gate and the fence cannot read one
// command line two ways. Adding a command is an entry here plus its cases
// (docs/contributing.md).

// syntaxes are the option syntaxes, by normalised command name.
var syntaxes = map[string]Spec{
	"rm":        {Flags: "dfirIRv"},
	"rmdir":     {Flags: "pv"},
	"unlink":    {},
	"shred":     {Flags: "fuvxz", Short: "ns", Long: []string{"iterations", "size", "random-source"}},
	"touch":     {Flags: "acfhm", Short: "drt", Long: []string{"date", "reference", "time"}},
	"mkdir":     {Flags: "pvZ", Short: "m", Long: []string{"mode"}},
	"mkfifo":    {Flags: "Z", Short: "m", Long: []string{"mode"}},
	"mknod":     {Flags: "Z", Short: "m", Long: []string{"mode"}},
	"truncate":  {Flags: "co", Short: "sr", Long: []string{"size", "reference"}},
	"fallocate": {Flags: "cdinpxzv", Short: "lo", Long: []string{"length", "offset"}},
	"tee":       {Flags: "aip"},
	"sponge":    {Flags: "a"},
	"cp":        {Flags: "abdfHiLlnPpRrsTuvx", Short: "tS", Long: []string{"target-directory", "suffix"}},
	"mv":        {Flags: "bfinTuv", Short: "tS", Long: []string{"target-directory", "suffix"}},
	"ln":        {Flags: "bdfFinLPrsTv", Short: "tS", Long: []string{"target-directory", "suffix"}},
	"link":      {},
	"install":   {Flags: "bCcDdpsTv", Short: "mogtS", Long: []string{"mode", "owner", "group", "target-directory", "suffix", "strip-program"}},
	"rsync": {Flags: "vqcarRbudlLkKHpEAXogDtUNOJSnWxCzPhi468", Short: "efTBM", Long: []string{"rsh", "filter", "exclude", "include", "exclude-from",
		"include-from", "files-from", "temp-dir", "backup-dir", "partial-dir", "compare-dest", "copy-dest", "link-dest",
		"log-file", "log-file-format", "out-format", "password-file", "chmod", "chown", "usermap", "groupmap", "timeout",
		"contimeout", "port", "sockopts", "bwlimit", "max-size", "min-size", "max-delete", "modify-window", "block-size",
		"rsync-path", "suffix", "compress-level", "compress-choice", "checksum-choice", "iconv", "write-batch",
		"only-write-batch", "read-batch", "protocol", "info", "debug", "outbuf", "remote-option", "address", "config"}},
	"chmod":   {Flags: "RcfvhHLP", Long: []string{"reference"}, ModeDash: true},
	"chown":   {Flags: "cfvhRHLP", Long: []string{"reference", "from"}},
	"chgrp":   {Flags: "cfvhRHLP", Long: []string{"reference", "from"}},
	"chattr":  {Short: "vp", Flags: "RVf", ModeDash: true},
	"setfacl": {Flags: "bkndRLPvt", Short: "mxMX", Long: []string{"modify", "remove", "modify-file", "remove-file", "set", "set-file", "restore"}},
	"srm":     {Flags: "dfilrRsvxzPDE"},
	"chcon":   {Flags: "hRvHLP", Short: "urtl", Long: []string{"user", "role", "type", "range", "reference"}},
	"sed":     {Flags: "inrsuEz", Short: "efl", Long: []string{"expression", "file", "line-length"}},

	// Read by the fence, the danger gate or the analysis for what they
	// write, fetch or run.
	"scp":        {Short: "cDFiJloPSX"},
	"ditto":      {Short: "V", Long: []string{"arch", "bom"}},
	"docker cp":  {},
	"podman cp":  {},
	"kubectl cp": {Short: "cn", Long: []string{"container", "namespace", "context", "kubeconfig", "retries"}},
	"sort":       {Short: "kotTS", Long: []string{"key", "output", "field-separator", "temporary-directory", "buffer-size", "parallel", "batch-size", "compress-program", "files0-from", "random-source", "sort"}},
	"uniq":       {Short: "fsw", Long: []string{"skip-fields", "skip-chars", "check-chars"}},
	"rimraf":     {},
	"mkdirp":     {},
	"rclone": {Long: []string{"config", "exclude", "include", "filter", "exclude-from", "include-from",
		"filter-from", "files-from", "log-file", "log-level", "bwlimit", "max-age", "min-age", "max-size", "min-size",
		"suffix", "backup-dir", "order-by", "retries", "low-level-retries", "timeout", "contimeout", "stats", "user-agent",
		"buffer-size", "max-transfer", "multi-thread-streams", "transfers", "checkers", "compare-dest", "copy-dest"}},
	"curl": {Short: "AbcCdDeEFHKmorTuUwxXyYzPQt", Long: []string{"output", "output-dir", "dump-header",
		"cookie-jar", "trace", "trace-ascii", "stderr", "libcurl", "etag-save", "etag-compare", "hsts", "alt-svc",
		"config", "user-agent", "header", "data", "data-raw", "data-binary", "data-urlencode", "data-ascii", "form",
		"form-string", "request", "user", "proxy", "proxy-user", "referer", "cookie", "cacert", "capath", "cert", "key",
		"cert-type", "key-type", "max-time", "connect-timeout", "retry", "retry-delay", "retry-max-time", "range",
		"upload-file", "write-out", "url", "resolve", "connect-to", "interface", "limit-rate", "continue-at",
		"oauth2-bearer", "json", "variable", "max-filesize", "max-redirs", "speed-limit", "speed-time", "time-cond",
		"local-port", "dns-servers", "unix-socket", "abstract-unix-socket", "noproxy", "preproxy", "proxy-header",
		"request-target", "mail-from", "mail-rcpt", "ftp-port", "quote", "telnet-option", "ciphers", "tls-max",
		"expect100-timeout", "happy-eyeballs-timeout-ms", "parallel-max", "aws-sigv4", "url-query", "create-file-mode"}},
	"wget": {Short: "eoaiBtOTwQPUlARDXI", Long: []string{"output-document", "output-file",
		"append-output", "directory-prefix", "input-file", "base", "tries", "timeout", "wait", "quota", "user-agent",
		"level", "accept", "reject", "domains", "include-directories", "exclude-directories", "execute", "header",
		"post-data", "post-file", "user", "password", "load-cookies", "save-cookies", "referer", "limit-rate",
		"bind-address", "dns-timeout", "connect-timeout", "read-timeout", "waitretry", "http-user", "http-password",
		"ca-certificate", "certificate", "private-key", "restrict-file-names", "default-page", "cut-dirs", "backups"}},
	"aria2c": {Short: "doilxsjU", Long: []string{"dir", "out", "input-file", "log",
		"max-connection-per-server", "split", "max-concurrent-downloads", "user-agent"}},
	"git clone": {Short: "bocuj", Long: []string{"branch", "origin", "config", "depth", "reference",
		"reference-if-able", "upload-pack", "template", "separate-git-dir", "jobs", "filter", "shallow-since",
		"shallow-exclude", "server-option", "bundle-uri", "ref-format", "object-format"}},
	"git init": {Short: "b", Long: []string{"template", "separate-git-dir", "object-format", "ref-format", "initial-branch"}},
	"git apply": {Short: "pC", Long: []string{"directory", "include", "exclude", "whitespace", "build-fake-ancestor",
		"patch-format", "resolvemsg", "quoted-cr"}},
	"git checkout-index": {Long: []string{"prefix", "stage"}},
	"git mv":             {},
	// direnv allow [PATH] and mise trust [PATH] (cmdfacts.EnvTrusts): no option takes a value.
	"direnv": {},
	"git archive": {Short: "o", Long: []string{"output", "format", "prefix",
		"remote", "exec", "add-file", "add-virtual-file"}},
	"git worktree add": {Short: "bB", Long: []string{"reason"}},
	"split":            {Short: "abClnt", Long: []string{"suffix-length", "bytes", "line-bytes", "lines", "number", "separator", "additional-suffix", "filter"}},
	"csplit":           {Short: "fbn", Long: []string{"prefix", "suffix-format", "digits"}},
	"patch": {Short: "oBdDFgiprVYz", Long: []string{"output", "directory", "input", "strip",
		"reject-file", "prefix", "basename-prefix", "ifdef", "fuzz", "get", "version-control", "suffix"}},
	"mktemp": {Short: "p", Long: []string{"suffix"}},
	"npx":    {Short: "pcw", Long: []string{"package", "call", "node-options", "registry", "cache", "userconfig", "prefix", "workspace"}, POSIX: true},
	"pip": {Short: "tdwecri", Long: []string{"target", "prefix", "root", "src", "dest", "wheel-dir",
		"editable", "constraint", "requirement", "index-url", "extra-index-url", "find-links", "cache-dir", "log",
		"python", "platform", "python-version", "implementation", "abi", "progress-bar", "upgrade-strategy", "report"}},
	"npm":  {Short: "C", Long: []string{"prefix", "dir", "cwd", "pack-destination", "registry", "cache", "userconfig", "workspace", "filter"}},
	"head": {Short: "nckt", Long: []string{"lines", "bytes"}},
	"ls":   {Short: "ITw", Long: []string{"ignore", "hide", "tabsize", "width", "format", "sort", "time", "time-style", "color", "indicator-style", "quoting-style", "block-size"}},
	"grep": {Short: "efmABCdD", Long: []string{"regexp", "file", "max-count", "after-context", "before-context", "context", "directories", "devices", "include", "exclude", "exclude-dir", "exclude-from", "label", "color", "colour", "type", "type-not", "glob", "iglob", "max-depth", "threads", "sort", "sortr"}},
	"pkill": {Short: "uUgGPsntFo", Long: []string{"euid", "uid", "user", "pgroup", "group",
		"parent", "session", "ns", "nslist", "terminal", "pidfile", "signal", "older-than", "younger-than", "context"}},
	"cryptsetup": {Short: "cshdlSitTM", Long: []string{"type", "cipher", "key-size", "hash",
		"key-file", "keyfile-size", "keyfile-offset", "key-slot", "iter-time", "pbkdf", "pbkdf-memory",
		"pbkdf-parallel", "pbkdf-force-iterations", "header", "label", "subsystem", "uuid", "sector-size",
		"integrity", "luks2-metadata-size", "luks2-keyslots-size", "master-key-file", "volume-key-file",
		"token-id", "token-type", "align-payload", "offset", "skip", "size", "timeout", "tries", "new-keyfile",
		"new-key-slot", "keyslot-cipher", "keyslot-key-size", "device-size", "reduce-device-size"}},
	// The danger gate's device and system commands.
	"mkfs":    {Short: "tLbNOEUnFcs"},
	"wipefs":  {Short: "otb", Long: []string{"offset", "types", "backup"}},
	"at":      {Short: "qft"},
	"crontab": {Short: "us"},
	"sh":      {Short: "coO"},
	// partitioners is the one table blkdiscard, sgdisk, parted, sfdisk,
	// fdisk, gdisk, cfdisk and nvme are read with (to split per tool).
	"partitioners": {Short: "aolpntcu", Long: []string{"align", "offset", "length", "step", "units"}},
}

// compressors are the in-place compression tools (gzip FILE replaces FILE
// by FILE.gz next to it) with their value options (added to syntaxes).
var compressors = map[string]Spec{
	"gzip": {Short: "Sbp", Long: []string{"suffix", "blocksize", "processes"}}, "gunzip": {Short: "S", Long: []string{"suffix"}},
	"pigz": {Short: "Sbp", Long: []string{"suffix", "blocksize", "processes"}}, "unpigz": {Short: "S"},
	"bzip2": {}, "bunzip2": {}, "pbzip2": {Short: "pb"},
	"xz": {Short: "SFCMT", Long: []string{"suffix", "format", "check", "memlimit", "threads", "block-size"}}, "unxz": {Short: "SFCMT"},
	"lzma": {Short: "S"}, "unlzma": {Short: "S"},
	"zstd": {Short: "oD", Long: []string{"output-dir-flat", "output-dir-mirror"}}, "unzstd": {Short: "oD"},
	"lz4": {}, "unlz4": {}, "compress": {}, "uncompress": {}, "lzip": {}, "brotli": {Short: "oSqw", Long: []string{"output", "suffix"}},
}

// Compressors returns the in-place compression tools' names, sorted.
func Compressors() []string { return slices.Sorted(maps.Keys(compressors)) }

// effectReaders give what a command does to files (EffectsOf), by
// normalised command name: a command listed here is judged by its effects
// in both layers (the danger gate's ruleEffects when it has no rule of
// its own, the fence's table), read by its Syntax above.
var effectReaders = map[string]func(name string, args []ir.Word) []ir.Effect{
	"rm":        deleteEffects,
	"rmdir":     deleteEffects,
	"unlink":    deleteEffects,
	"rimraf":    deleteEffects,
	"srm":       deleteEffects,
	"shred":     writeEffects,
	"touch":     writeEffects,
	"mkdir":     writeEffects,
	"mkfifo":    writeEffects,
	"mkdirp":    writeEffects,
	"truncate":  writeEffects,
	"fallocate": writeEffects,
	"tee":       writeEffects,
	"sponge":    writeEffects,
	"mknod":     firstWriteEffect,
	"chmod":     permissionEffects,
	"chown":     permissionEffects,
	"chgrp":     permissionEffects,
	"chattr":    permissionEffects,
	"setfacl":   permissionEffects,
	"chcon":     permissionEffects,
	"cp":        copyEffects,
	"mv":        copyEffects,
	"ln":        copyEffects,
	"link":      linkEffects,
	"install":   copyEffects,
	"sed":       inPlaceEffects,
	"dd":        ddEffects,
	"rsync":     rsyncEffects,
	"perl":      editEffects,
	"ruby":      editEffects,
}

func init() {
	maps.Copy(syntaxes, compressors)
	syntaxes["tail"] = syntaxes["head"]
	syntaxes["killall"] = syntaxes["pkill"]
}

// Syntax returns the option syntax of command name (a normalised
// Command.Name) and whether this package knows it.
func Syntax(name string) (Spec, bool) {
	s, ok := syntaxes[name]
	return s, ok
}

// SyntaxNames returns the names Syntax knows, sorted.
func SyntaxNames() []string { return slices.Sorted(maps.Keys(syntaxes)) }

// ParseCommand splits args (the words after the command word) by the
// syntax of command name; an unknown name is read with no valued options.
// Cost: that of ParseArgs.
func ParseCommand(name string, args []ir.Word) Args {
	return ParseArgs(args, syntaxes[name])
}

// PermissionChange reads chmod, chown, chgrp, chattr, setfacl and chcon:
// the files whose mode, owner, attributes, ACLs or security context the
// command changes, and whether it changes them recursively (-R,
// --recursive). The mode, owner or context operand is not a file (nor is
// any with --reference=FILE, nor chcon's with -u/-r/-t/-l); chattr's
// modes (+i, -a, =e) are not either. ok is false for other names.
func PermissionChange(name string, args []ir.Word) (files []ir.Word, recursive, ok bool) {
	switch name {
	case "chmod", "chown", "chgrp", "chattr", "setfacl", "chcon":
	default:
		return nil, false, false
	}
	p := ParseArgs(args, syntaxes[name])
	files = p.Operands
	switch name {
	case "chattr":
		files = nil
		for _, w := range p.Operands {
			if w.Unknown || w.Value == "" || !strings.ContainsRune("+-=", rune(w.Value[0])) {
				files = append(files, w)
			}
		}
	case "setfacl":
	case "chcon":
		if !p.Has("reference", "u", "r", "t", "l", "user", "role", "type", "range") && len(files) > 0 {
			files = files[1:]
		}
	default:
		if !p.Has("reference") && len(files) > 0 {
			files = files[1:]
		}
	}
	return files, p.Has("R", "recursive"), true
}
