package rules

// Rules of the danger gate declared apart from danger.go (added by the
// executor work; same families).
var (
	UserdelHome = def(&Rule{ID: "DG-USERDEL-HOME", Family: Deletes,
		Doc: "userdel -r / --remove (the account's home directory and mail spool go with it), deluser --remove-home or --remove-all-files (every file the account owns, anywhere).",
		Zh:  "{cmd} {detail} 会删除该账户的主目录及其全部文件，无法恢复。",
		En:  "{cmd} {detail} deletes the account's home directory and every file in it, irrecoverably."})
)
