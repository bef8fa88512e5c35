package cmdfacts

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Search engines over HTTP: Elasticsearch and OpenSearch are driven by
// REST calls, and an HTTP DELETE of an index (or of _all, a wildcard, a
// data stream) drops every document in it. SearchIndexDelete reads the
// call from curl's or httpie's (http, https, xh) command line.

// httpieClients are the httpie-style clients: [METHOD] URL [ITEMS].
var httpieClients = []string{"http", "https", "xh", "xhs"}

// HTTPClients returns the command names SearchIndexDelete reads.
func HTTPClients() []string { return append([]string{"curl"}, httpieClients...) }

// httpieSpec: httpie's and xh's options that take the next word.
var httpieSpec = Spec{Short: "aAvpo", Long: []string{"auth", "auth-type", "verify", "cert", "cert-key", "output",
	"print", "session", "session-read-only", "proxy", "timeout", "max-redirects", "pretty", "style", "format-options",
	"raw", "boundary", "ssl", "ciphers", "default-scheme", "unix-socket", "bearer"}}

// searchPorts are the ports Elasticsearch and OpenSearch answer on (the
// default and Elastic Cloud's).
var searchPorts = []string{"9200", "9201", "9243"}

// searchHostWords are host name labels that name a search engine.
var searchHostWords = []string{"es", "elasticsearch", "elastic", "opensearch", "search", "kibana"}

// SearchDelete is an HTTP DELETE of a search engine's index.
type SearchDelete struct {
	URL   string // as written
	Index string // the index, indices, pattern or data stream named
	Local bool   // the host is this machine
}

// SearchIndexDelete reads an HTTP client's command line (name: curl or an
// httpie client) and reports a DELETE whose URL names an Elasticsearch or
// OpenSearch index: a one-segment path (/logs, /logs-*, /a,b, /_all, /*)
// or /_data_stream/NAME, on a host that is a search engine's (port 9200
// or 9243, or a host label such as es or opensearch). A document's
// DELETE (/idx/_doc/1), other verbs and other services are not one.
// Pure; linear in args.
func SearchIndexDelete(name string, args []ir.Word) (SearchDelete, bool) {
	var method, url *ir.Word
	switch {
	case name == "curl":
		spec, _ := Syntax("curl")
		p := ParseArgs(args, spec)
		method = lastValue(p, "X", "request")
		if u := lastValue(p, "url"); u != nil {
			url = u
		} else if len(p.Operands) > 0 {
			url = &p.Operands[0]
		}
	case slices.Contains(httpieClients, name):
		p := ParseArgs(args, httpieSpec)
		if len(p.Operands) >= 2 {
			method, url = &p.Operands[0], &p.Operands[1]
		}
	}
	if method == nil || url == nil || method.Unknown || url.Unknown || !strings.EqualFold(method.Value, "DELETE") {
		return SearchDelete{}, false
	}
	host, port, path := splitURL(url.Value)
	if !searchHost(host, port) {
		return SearchDelete{}, false
	}
	path, _, _ = strings.Cut(path, "?")
	segs := strings.Split(strings.Trim(path, "/"), "/")
	index := ""
	switch {
	case len(segs) == 1 && segs[0] != "" && (!strings.HasPrefix(segs[0], "_") || segs[0] == "_all"):
		index = segs[0]
	case len(segs) == 2 && segs[0] == "_data_stream" && segs[1] != "":
		index = segs[1]
	default:
		return SearchDelete{}, false
	}
	h := Literal(host)
	return SearchDelete{URL: url.Value, Index: index, Local: host == "" || LocalHost(&h)}, true
}

// splitURL splits an HTTP URL as curl and httpie take it (the scheme may
// be missing; httpie's :9200/x means localhost) into host, port and path.
func splitURL(u string) (host, port, path string) {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	hostPort, path, _ := strings.Cut(u, "/")
	path = "/" + path
	if at := strings.LastIndexByte(hostPort, '@'); at >= 0 {
		hostPort = hostPort[at+1:]
	}
	host, port = hostPort, ""
	if i := strings.LastIndexByte(hostPort, ':'); i >= 0 && !strings.HasSuffix(hostPort, "]") {
		host, port = hostPort[:i], hostPort[i+1:]
	}
	return strings.ToLower(host), port, path
}

// searchHost reports a host and port that are a search engine's.
func searchHost(host, port string) bool {
	if slices.Contains(searchPorts, port) {
		return true
	}
	for _, label := range strings.FieldsFunc(host, func(r rune) bool { return r == '.' || r == '-' }) {
		if slices.Contains(searchHostWords, label) {
			return true
		}
	}
	return false
}
