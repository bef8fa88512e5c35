package rules

// Secrets is the danger gate's fourth line: the user's credential stores
// outside the project (core/secrets) must not be read into the
// conversation, copied elsewhere or sent away without a person's yes. A
// leaked key or token cannot be taken back. Templates may use {cmd},
// {detail}, {subject} (what the store holds) and {targets} (the paths).
var Secrets = family(&Family{Layer: dangerLayer, Name: "secrets", Title: "Secrets stay home",
	Doc: "Reading, copying or sending the user's credential stores outside the project asks: SSH and GPG private keys, cloud CLI credentials and token caches (AWS, Google Cloud, Azure, DigitalOcean, Oracle Cloud, ...), Docker and Kubernetes logins, .netrc and git credentials, package registry tokens (.npmrc, .pypirc, cargo, gem, ...), database password files, keychains and keyrings, browser cookie and login databases (Chrome, Chromium, Edge, Brave, Firefox, Safari), and the agent hosts' own auth files (Claude Code, Codex, Gemini CLI, Qwen Code, Copilot CLI), on Linux, macOS and Windows; the catalogue is core/secrets. Files inside the project (.env included), public keys, known_hosts, listing a directory (ls ~/.ssh), status calls (gh auth status, ssh-add -l, aws sts get-caller-identity, kubectl config current-context) and using a credential through its own tool (ssh host, git push, aws s3 ls, docker login) stay silent. Switched off with protect_secrets=false (or disabled_rules: secrets); it is part of the danger gate, so enable_danger_gate=false turns it off too."})

// The Secrets family.
var (
	SecretRead = def(&Rule{ID: "DG-SECRET-READ", Family: Secrets,
		Doc: "A shell command reads or copies a credential store outside the project: a printer or pager (cat, less, head, tail, bat, base64, xxd, od, strings, jq, ...), a search (grep, rg) or a recursive search of a directory holding one (grep -r TOKEN ~), a copy, move or link (cp, mv, ln, install, rsync), an archiver (tar, zip, 7z), a compressor, dd if=, openssl -in, any command fed one by an input redirect (< ~/.aws/credentials), or an interpreter one-liner that reads one (open(), readFileSync, File.read, file_get_contents, getline <, the source of a copy or link ...; also through a path it builds from the home directory, os.path.expanduser('~/.aws/credentials'), os.homedir(), Dir.home, or takes as an argument, python3 -c \"print(open(sys.argv[1]).read())\" ~/.ssh/id_rsa; perl -n and ruby -n read their operands). A one-liner that only names a store (prints the path, checks it exists) stays silent. Also through wrappers, bash -c, $(...) and the other hidden forms. A copy into the same store (cp ~/.ssh/id_rsa ~/.ssh/id_rsa.bak) stays silent.",
		Zh:  "{cmd} {detail} 会读取或复制项目外的凭据 {targets}{subject}，泄露的密钥无法收回。",
		En:  "{cmd} {detail} reads or copies {targets}{subject} from outside the project: a leaked secret cannot be taken back."})
	SecretSend = def(&Rule{ID: "DG-SECRET-SEND", Family: Secrets,
		Doc: "A shell command sends a credential store off the machine: curl -F f=@FILE, -d @FILE, --data-binary @FILE, --data-urlencode name@FILE, -T FILE, wget --post-file, scp or rsync to host:, gh gist create, aws s3 cp / gsutil cp / rclone copy, kubectl cp, mail -A, a clipboard tool, or nc, socat, ssh and any other command fed one by an input redirect into a network tool.",
		Zh:  "{cmd} {detail} 会把项目外的凭据 {targets}{subject} 发送出去，泄露的密钥无法收回。",
		En:  "{cmd} {detail} sends {targets}{subject} off this machine: a leaked secret cannot be taken back."})
	SecretPrint = def(&Rule{ID: "DG-SECRET-PRINT", Family: Secrets,
		Doc: "A CLI prints a stored secret into the conversation: a password manager (pass show X, pass X, gopass show, op read, op item get --reveal, bw get password, bw list items, lpass show, keepassxc-cli show), a keychain or keyring (security find-generic-password -w / find-internet-password -w / dump-keychain -d, secret-tool lookup, keyring get, kwallet-query -r), a login token (gh auth token, gh auth status --show-token, gcloud auth print-access-token, az account get-access-token, aws configure export-credentials, aws configure get aws_secret_access_key, heroku auth:token, fly auth token, vault print token, kubectl config view --raw, git credential fill, docker-credential-* get), or a secret key export (gpg --export-secret-keys). Its output used as an argument ($(gh auth token) in a command other than echo or printf) or piped into a login that takes it on stdin (docker login --password-stdin) stays silent, and so do list and status calls (pass ls, op item list, gh auth status, kubectl config view).",
		Zh:  "{cmd} {detail} 会把已存的密钥{subject}打印到对话中，泄露的密钥无法收回。",
		En:  "{cmd} {detail} prints a stored secret{subject} into the conversation: a leaked secret cannot be taken back."})
	SecretReadTool = def(&Rule{ID: "DG-SECRET-READ-TOOL", Family: Secrets,
		Doc: "An agent host's read tool reads a credential store outside the project into the conversation: Claude Code's Read, Grep (over a file, or a directory holding a store) and NotebookRead, Gemini CLI's and Qwen Code's read_file, read_many_files and search_file_content / grep_search, Copilot CLI's view. Symlinks are followed: a link in the project to ~/.ssh/id_rsa is a read of the key. Tools that list names only (Glob, LS) are not hooked.",
		Zh:  "{cmd} 会把项目外的凭据 {targets}{subject} 读入对话，泄露的密钥无法收回。",
		En:  "{cmd} reads {targets}{subject} from outside the project into the conversation: a leaked secret cannot be taken back."})
)
