package secrets

import "github.com/zcode-fence/zcode-fence/core/agenthost"

// Anchor says what a Form's Rel is relative to.
type Anchor uint8

const (
	// Home: below the user's home directory.
	Home Anchor = iota
	// ConfigHome: below $XDG_CONFIG_HOME when it is absolute, else
	// ~/.config.
	ConfigHome
	// DataHome: below $XDG_DATA_HOME when it is absolute, else
	// ~/.local/share.
	DataHome
	// AppData: below %APPDATA%, else ~\AppData\Roaming (Windows only).
	AppData
	// LocalAppData: below %LOCALAPPDATA%, else ~\AppData\Local (Windows
	// only).
	LocalAppData
	// AppSupport: below ~/Library/Application Support (macOS only).
	AppSupport
	// Env: below (or, with Rel empty, at) the path the variable Env
	// names; a list variable (KUBECONFIG) names several.
	Env
	// Abs: Rel is an absolute Unix path (not on Windows).
	Abs
	// Anywhere: Rel is a file name; a file of that name in any directory
	// is the store (a private key copied to /tmp is still one). Only a
	// literal name matches, or a glob with a literal head (id_*): a bare *
	// over some directory is not a read of a key.
	Anywhere
)

// Shape says which paths at a Form's place are the store.
type Shape uint8

const (
	// File: exactly this file.
	File Shape = iota
	// Tree: this directory and everything below it, except the names the
	// Store's Skip lists (at any level below).
	Tree
	// Names: the files below this directory whose name is one of the
	// Store's Names (a browser profile's cookie and login databases); a
	// recursive read of the directory, or of any directory below it,
	// reaches them.
	Names
)

// Form is one place a store lives.
type Form struct {
	Anchor Anchor
	// Env names the variable of an Env anchor.
	Env string
	// Rel is the path below the anchor, written with "/" (for Abs, the
	// absolute path; for Anywhere, the file name).
	Rel   string
	Shape Shape
}

// Store is one kind of credential store: its places and what it holds.
type Store struct {
	// ID is stable and short ("ssh-key", "aws"); reasons do not show it.
	ID string
	// What and WhatZh name the store in reasons ("SSH private keys").
	What, WhatZh string
	Forms        []Form
	// Skip lists names (globs) below a Tree form that hold no secret
	// (*.pub, known_hosts, config in ~/.ssh).
	Skip []string
	// Names lists the file names below a Names form that are the secret.
	Names []string
}

// browserFiles are the files of a browser profile that hold cookies,
// saved logins or the key that decrypts them: Chromium's Cookies, Login
// Data, Web Data and Local State (os_crypt's key), Firefox's
// cookies.sqlite, logins.json and key4.db, Safari's binary cookies.
var browserFiles = []string{"Cookies", "Cookies-journal", "Login Data", "Login Data-journal", "Login Data For Account",
	"Web Data", "Local State", "cookies.sqlite", "cookies.sqlite-wal", "logins.json", "logins-backup.json",
	"key4.db", "key3.db", "signons.sqlite", "Cookies.binarycookies"}

// chromium lists the Forms of a Chromium-based browser from its dirs on
// Linux (below ~/.config), macOS (below Application Support) and Windows
// (below %LOCALAPPDATA%, with its User Data dir).
func chromium(linux, mac, windows string) []Form {
	return []Form{{Anchor: ConfigHome, Rel: linux, Shape: Names}, {Anchor: AppSupport, Rel: mac, Shape: Names},
		{Anchor: LocalAppData, Rel: windows + "/User Data", Shape: Names}}
}

// sshKeyNames are the default names of SSH private keys.
var sshKeyNames = []string{"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk"}

// Stores is the catalogue: every credential store outside the project that
// the fourth line guards, each once, with every place it lives on Linux,
// macOS and Windows (the lexical forms — ~, $HOME, %USERPROFILE% — are
// the same place to core/paths). Keep one entry per store, with what it
// holds.
var Stores = append(append([]Store{
	{ID: "ssh-key", What: "SSH private keys", WhatZh: "SSH 私钥",
		Forms: append([]Form{{Anchor: Home, Rel: ".ssh", Shape: Tree}}, anywhere(sshKeyNames...)...),
		// Public keys, host lists, client configuration, agent sockets.
		Skip: []string{"*.pub", "known_hosts", "known_hosts.old", "known_hosts2", "config", "config.d", "authorized_keys",
			"authorized_keys2", "*.sock", "agent.*", "rc", "environment.d"}},
	{ID: "ssh-host-key", What: "SSH host keys", WhatZh: "SSH 服务器主机私钥",
		// By name: a recursive read of /etc (grep -r, rsync) is everyday
		// administration and stays silent; the keys are root's to read.
		Forms: anywhere("ssh_host_rsa_key", "ssh_host_dsa_key", "ssh_host_ecdsa_key", "ssh_host_ed25519_key")},
	{ID: "aws", What: "AWS credentials", WhatZh: "AWS CLI 凭据与令牌缓存",
		Forms: []Form{{Anchor: Home, Rel: ".aws/credentials"}, {Anchor: Home, Rel: ".aws/config"},
			{Anchor: Home, Rel: ".aws/sso/cache", Shape: Tree}, {Anchor: Home, Rel: ".aws/cli/cache", Shape: Tree},
			{Anchor: Env, Env: "AWS_SHARED_CREDENTIALS_FILE"}, {Anchor: Env, Env: "AWS_CONFIG_FILE"}}},
	{ID: "gcloud", What: "Google Cloud tokens", WhatZh: "Google Cloud 凭据与令牌",
		Forms: append(gcloud(ConfigHome, "gcloud/"), append(gcloud(AppData, "gcloud/"),
			Form{Anchor: Env, Env: "GOOGLE_APPLICATION_CREDENTIALS"},
			Form{Anchor: Env, Env: "CLOUDSDK_CONFIG", Rel: "application_default_credentials.json"},
			Form{Anchor: Env, Env: "CLOUDSDK_CONFIG", Rel: "credentials.db"},
			Form{Anchor: Env, Env: "CLOUDSDK_CONFIG", Rel: "access_tokens.db"},
			Form{Anchor: Env, Env: "CLOUDSDK_CONFIG", Rel: "legacy_credentials", Shape: Tree})...)},
	{ID: "azure", What: "Azure CLI tokens", WhatZh: "Azure CLI 令牌",
		Forms: []Form{{Anchor: Home, Rel: ".azure", Shape: Tree}, {Anchor: Env, Env: "AZURE_CONFIG_DIR", Shape: Tree}},
		Skip:  []string{"config", "clouds.config", "logs", "commands", "cliextensions", "telemetry", "telemetry.txt", "az.json", "az.sess", "versionCheck.json"}},
	{ID: "oci", What: "Oracle Cloud keys", WhatZh: "Oracle Cloud CLI 密钥与配置",
		Forms: []Form{{Anchor: Home, Rel: ".oci", Shape: Tree}}},
	{ID: "doctl", What: "DigitalOcean token", WhatZh: "DigitalOcean CLI 令牌",
		Forms: []Form{{Anchor: ConfigHome, Rel: "doctl/config.yaml"}, {Anchor: AppSupport, Rel: "doctl/config.yaml"},
			{Anchor: AppData, Rel: "doctl/config.yaml"}}},
	{ID: "cloud-cli", What: "a cloud CLI token", WhatZh: "云服务或托管平台 CLI 的登录令牌",
		Forms: []Form{{Anchor: ConfigHome, Rel: "hcloud/cli.toml"}, {Anchor: Home, Rel: ".fly/config.yml"},
			{Anchor: Home, Rel: ".terraform.d/credentials.tfrc.json"}, {Anchor: AppData, Rel: "terraform.d/credentials.tfrc.json"},
			{Anchor: Home, Rel: ".vault-token"}, {Anchor: ConfigHome, Rel: "scw/config.yaml"},
			{Anchor: DataHome, Rel: "com.vercel.cli/auth.json"}, {Anchor: AppSupport, Rel: "com.vercel.cli/auth.json"},
			{Anchor: ConfigHome, Rel: "netlify/config.json"}, {Anchor: ConfigHome, Rel: "heroku/credentials"}}},
	{ID: "gh", What: "GitHub/GitLab tokens", WhatZh: "GitHub 与 GitLab CLI 令牌",
		Forms: []Form{{Anchor: ConfigHome, Rel: "gh/hosts.yml"}, {Anchor: AppData, Rel: "GitHub CLI/hosts.yml"},
			{Anchor: Env, Env: "GH_CONFIG_DIR", Rel: "hosts.yml"}, {Anchor: ConfigHome, Rel: "hub"},
			{Anchor: ConfigHome, Rel: "glab-cli/config.yml"}, {Anchor: AppData, Rel: "glab-cli/config.yml"},
			{Anchor: ConfigHome, Rel: "github-copilot/hosts.json"}, {Anchor: ConfigHome, Rel: "github-copilot/apps.json"},
			{Anchor: LocalAppData, Rel: "github-copilot/hosts.json"}, {Anchor: LocalAppData, Rel: "github-copilot/apps.json"}}},
	{ID: "docker", What: "Docker logins", WhatZh: "Docker 登录",
		Forms: []Form{{Anchor: Home, Rel: ".docker/config.json"}, {Anchor: Env, Env: "DOCKER_CONFIG", Rel: "config.json"}}},
	{ID: "kube", What: "kubeconfig", WhatZh: "kubeconfig",
		Forms: []Form{{Anchor: Home, Rel: ".kube/config"}, {Anchor: Env, Env: "KUBECONFIG"}}},
	{ID: "netrc", What: ".netrc logins", WhatZh: ".netrc 登录文件",
		Forms: append([]Form{{Anchor: Home, Rel: ".netrc"}, {Anchor: Home, Rel: "_netrc"}, {Anchor: Env, Env: "NETRC"}},
			anywhere(".netrc", "_netrc")...)},
	{ID: "git-credentials", What: "git credentials", WhatZh: "git 保存的凭据",
		Forms: append([]Form{{Anchor: Home, Rel: ".git-credentials"}, {Anchor: ConfigHome, Rel: "git/credentials"}},
			anywhere(".git-credentials")...)},
	{ID: "registry", What: "a registry token", WhatZh: "软件包仓库令牌",
		Forms: append([]Form{{Anchor: Home, Rel: ".npmrc"}, {Anchor: Env, Env: "NPM_CONFIG_USERCONFIG"},
			{Anchor: Home, Rel: ".yarnrc.yml"}, {Anchor: Home, Rel: ".pypirc"},
			{Anchor: Home, Rel: ".cargo/credentials"}, {Anchor: Home, Rel: ".cargo/credentials.toml"},
			{Anchor: Env, Env: "CARGO_HOME", Rel: "credentials"}, {Anchor: Env, Env: "CARGO_HOME", Rel: "credentials.toml"},
			{Anchor: Home, Rel: ".gem/credentials"}, {Anchor: DataHome, Rel: "gem/credentials"},
			{Anchor: Home, Rel: ".composer/auth.json"}, {Anchor: ConfigHome, Rel: "composer/auth.json"},
			{Anchor: AppData, Rel: "Composer/auth.json"}, {Anchor: AppData, Rel: "NuGet/NuGet.Config"},
			{Anchor: Home, Rel: ".nuget/NuGet/NuGet.Config"}, {Anchor: Home, Rel: ".m2/settings-security.xml"},
			{Anchor: Home, Rel: ".gradle/gradle.properties"}}, anywhere(".pypirc")...)},
	{ID: "database", What: "DB passwords", WhatZh: "数据库密码文件",
		Forms: []Form{{Anchor: Home, Rel: ".pgpass"}, {Anchor: AppData, Rel: "postgresql/pgpass.conf"},
			{Anchor: Env, Env: "PGPASSFILE"}, {Anchor: Home, Rel: ".my.cnf"}, {Anchor: Home, Rel: ".mylogin.cnf"}}},
	{ID: "gpg", What: "GPG private keys", WhatZh: "GPG 私钥",
		Forms: []Form{{Anchor: Home, Rel: ".gnupg/private-keys-v1.d", Shape: Tree}, {Anchor: Home, Rel: ".gnupg/secring.gpg"},
			{Anchor: Home, Rel: ".gnupg/openpgp-revocs.d", Shape: Tree}, {Anchor: AppData, Rel: "gnupg/private-keys-v1.d", Shape: Tree},
			{Anchor: AppData, Rel: "gnupg/secring.gpg"}, {Anchor: Env, Env: "GNUPGHOME", Rel: "private-keys-v1.d", Shape: Tree},
			{Anchor: Env, Env: "GNUPGHOME", Rel: "secring.gpg"}}},
	{ID: "keyring", What: "keychain/keyring", WhatZh: "系统钥匙串或密钥环",
		Forms: []Form{{Anchor: DataHome, Rel: "keyrings", Shape: Tree}, {Anchor: DataHome, Rel: "kwalletd", Shape: Tree},
			{Anchor: AppSupport, Rel: "../Keychains", Shape: Tree}, {Anchor: ConfigHome, Rel: "Bitwarden CLI/data.json"},
			{Anchor: AppSupport, Rel: "Bitwarden CLI/data.json"}, {Anchor: AppData, Rel: "Bitwarden CLI/data.json"}}},
	{ID: "chrome", What: "Chrome cookies/logins", WhatZh: "Google Chrome 的 Cookie 与已存登录",
		Forms: append(chromium("google-chrome", "Google/Chrome", "Google/Chrome"), Form{Anchor: ConfigHome, Rel: "google-chrome-beta", Shape: Names}),
		Names: browserFiles},
	{ID: "chromium", What: "Chromium cookies/logins", WhatZh: "Chromium 的 Cookie 与已存登录",
		Forms: append(chromium("chromium", "Chromium", "Chromium"), Form{Anchor: Home, Rel: "snap/chromium/common/chromium", Shape: Names}),
		Names: browserFiles},
	{ID: "edge", What: "Edge cookies/logins", WhatZh: "Microsoft Edge 的 Cookie 与已存登录",
		Forms: chromium("microsoft-edge", "Microsoft Edge", "Microsoft/Edge"), Names: browserFiles},
	{ID: "brave", What: "Brave cookies/logins", WhatZh: "Brave 的 Cookie 与已存登录",
		Forms: chromium("BraveSoftware/Brave-Browser", "BraveSoftware/Brave-Browser", "BraveSoftware/Brave-Browser"), Names: browserFiles},
	{ID: "firefox", What: "Firefox cookies/logins", WhatZh: "Firefox 的 Cookie 与已存登录",
		Forms: []Form{{Anchor: Home, Rel: ".mozilla/firefox", Shape: Names}, {Anchor: Home, Rel: "snap/firefox/common/.mozilla/firefox", Shape: Names},
			{Anchor: AppSupport, Rel: "Firefox/Profiles", Shape: Names}, {Anchor: AppData, Rel: "Mozilla/Firefox/Profiles", Shape: Names}},
		Names: browserFiles},
	{ID: "safari", What: "Safari cookies", WhatZh: "Safari 的 Cookie",
		Forms: []Form{{Anchor: AppSupport, Rel: "../Cookies", Shape: Names},
			{Anchor: AppSupport, Rel: "../Containers/com.apple.Safari/Data/Library/Cookies", Shape: Names}},
		Names: browserFiles},
}, hostStores()...), Store{ID: "guard-model-key", What: "zcode-fence config (API key)", WhatZh: "zcode-fence 自身的配置（模型 API 密钥）",
	Forms: []Form{{Anchor: Home, Rel: ".zcode/cli/config.json"}, {Anchor: ConfigHome, Rel: "zcode-fence/config.json"},
		{Anchor: Env, Env: "ZCODE_FENCE_CONFIG"}}})

// anywhere is an Anywhere form for each name.
func anywhere(names ...string) []Form {
	out := make([]Form, len(names))
	for i, n := range names {
		out[i] = Form{Anchor: Anywhere, Rel: n}
	}
	return out
}

// gcloud is the Google Cloud SDK's credential files below one config dir.
func gcloud(a Anchor, dir string) []Form {
	return []Form{{Anchor: a, Rel: dir + "application_default_credentials.json"}, {Anchor: a, Rel: dir + "credentials.db"},
		{Anchor: a, Rel: dir + "access_tokens.db"}, {Anchor: a, Rel: dir + "legacy_credentials", Shape: Tree}}
}

// hostStores are the agent hosts' own auth files, from core/agenthost (the
// one copy of each host's config dir, its override variables and the
// credential files in it): one store per host that declares some.
func hostStores() []Store {
	var out []Store
	for _, a := range agenthost.Adapters() {
		in := a.Install()
		if len(in.Credentials) == 0 {
			continue
		}
		s := Store{ID: "host-" + a.Name(), What: in.Label + " login", WhatZh: in.Label + " 登录凭据"}
		for _, c := range in.Credentials {
			s.Forms = append(s.Forms, Form{Anchor: Home, Rel: in.Dir + "/" + c})
			if in.DirEnv != "" {
				s.Forms = append(s.Forms, Form{Anchor: Env, Env: in.DirEnv, Rel: c})
			}
			if in.HomeEnv != "" {
				s.Forms = append(s.Forms, Form{Anchor: Env, Env: in.HomeEnv, Rel: in.Dir + "/" + c})
			}
		}
		out = append(out, s)
	}
	return out
}
