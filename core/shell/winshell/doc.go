// Package winshell splits the two Windows dialects, PowerShell and cmd.exe,
// into the segments the shell analysis turns into commands (Split), and
// holds what a layer needs to classify a Windows command: the payload of a
// powershell.exe / cmd.exe command line (PowerShellPayload, CmdPayload),
// cmd.exe switches (CmdSwitches), PowerShell cmdlet names and aliases and
// their parameter binding (PowerShellCmdlet, ParsePowerShellCommand), .NET
// static method calls (StaticCall, PSStaticCallName) and the argv rules of
// Windows programs (SplitWindowsCommandLine). It knows the types of
// core/shell and nothing of the bash walker.
package winshell
