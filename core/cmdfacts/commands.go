package cmdfacts

import (
	"strings"
	"sync"
)

// judgedNames are the command names a layer judges by name that no table
// of this package holds otherwise (Syntax, the infrastructure, data-store,
// platform, remote, git, agent and .NET families are added by Judged):
// system, disk, power, persistence, process and account commands, cd and
// its kin (a cd under an unknown wrapper makes the directory unknown),
// fetchers, archivers, package managers, the Windows tools and PowerShell cmdlets. The
// danger gate's and the fence's tests fail on a name they judge that
// Judged does not report.
var judgedNames = `rimraf mkdirp pv dd wipefs blkdiscard fdisk sfdisk sgdisk gdisk cfdisk parted nvme diskutil
	mkswap mke2fs mkdosfs mkntfs mkexfatfs mformat cryptsetup hdparm zfs zpool lvremove vgremove pvremove btrfs mdadm
	kill killall killall5 pkill userdel deluser shutdown reboot halt poweroff init telinit systemctl loginctl
	launchctl crontab at batch update-rc.d chkconfig service setenforce spctl csrutil
	iptables ip6tables iptables-legacy iptables-nft ip6tables-legacy ip6tables-nft nft pfctl ufw
	cd chdir pushd popd curl wget aria2c tar gtar bsdtar unzip 7z 7za 7zr 7zz zip perl ruby find gfind fd fdfind
	sort uniq split csplit patch mktemp openssl scp ditto rclone npm npx pnpm pnpx bunx yarn pip pip3 uv
	apt apt-get dnf yum brew make go rustc cc gcc g++ c++ clang clang++ gfortran tcc shx
	del erase rd move format diskpart reg robocopy icacls takeown cipher vssadmin wmic wbadmin bcdedit schtasks
	sc net netsh taskkill copy xcopy md ren rename mklink cacls attrib
	remove-item move-item rename-item clear-item tee-object set-content set-itemproperty new-itemproperty
	remove-itemproperty clear-itemproperty stop-process stop-service set-service new-service stop-computer
	restart-computer register-scheduledtask set-mppreference set-netfirewallprofile remove-ciminstance
	remove-wmiobject format-volume clear-disk remove-partition initialize-disk reset-physicaldisk`

var (
	judgedOnce sync.Once
	judged     map[string]bool
)

// Judged reports whether command name (a normalised Command.Name) is one
// a layer judges by name: it has a Syntax, belongs to one of this
// package's command families, is in judgedNames, or makes a file system
// (MakesFileSystem). The shell analysis
// reports such a command after an unknown command word ($SUDO rm -rf /,
// $(which sudo) zfs destroy tank). Cost: a map look-up (the set is built
// once, on first use).
func Judged(name string) bool {
	judgedOnce.Do(buildJudged)
	return judged[name] || MakesFileSystem(name)
}

// fileSystemMakers are the prefixes of the names of the commands that make
// a file system, one per type (mkfs.ext4, mkfs.vfat, newfs_msdos,
// newfs_hfs).
var fileSystemMakers = []string{"mkfs", "newfs"}

// MakesFileSystem reports whether command name is a file-system maker by
// its name (fileSystemMakers); mke2fs and mkswap are judged by name.
func MakesFileSystem(name string) bool {
	for _, p := range fileSystemMakers {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func buildJudged() {
	judged = map[string]bool{}
	add := func(names ...string) {
		for _, n := range names {
			judged[n] = true
		}
	}
	add(strings.Fields(judgedNames)...)
	add(SyntaxNames()...) // the compressors too
	add(EffectNames()...)
	add(InfraCLIs()...)
	add(DBClients()...)
	add(HTTPClients()...)
	add(PlatformCLIs()...)
	add(RemoteClients()...)
	add(GitFrontEnds()...)
	add(GitDashedNames()...)
	add(AgentCLINames()...)
	add(DotNetFileCalls()...)
	add(LongTailCLIs()...)
}
