package cmdfacts

import "strings"

// fetchers are the commands whose output (or the files they write) is
// content from the network.
var fetchers = map[string]bool{
	"curl": true, "wget": true, "aria2c": true, "fetch": true, "http": true, "https": true, "xh": true, "nc": true, "ncat": true,
	"netcat": true, "socat": true, "invoke-webrequest": true, "invoke-restmethod": true,
}

// IsFetcher reports whether the command named name (as the analysis
// reports it, lower-cased for PowerShell cmdlets) fetches content from the
// network: its output, or the files it writes (curl -O, wget), are a
// remote party's, not the local file system's.
func IsFetcher(name string) bool { return fetchers[strings.ToLower(name)] }

// IsStreamFilter reports whether the command named name passes a stream
// on, (de)compressed or as it is (gunzip, xz -d, pv), so that whose
// content it prints is whose its feeder printed.
func IsStreamFilter(name string) bool {
	_, ok := decompressors[strings.ToLower(name)]
	return ok || name == "pv"
}
