@echo off
rem zcode-fence launcher for Windows hosts that run hooks through cmd.exe.
rem Runs zcode-fence-windows-<arch>.exe next to this file (built by
rem "go run ./tools/bundle") with the arguments and stdin untouched. With no
rem binary for this CPU it answers the hook with one ask line and exits 0.
setlocal
set "ZF_ARCH="
if /i "%PROCESSOR_ARCHITECTURE%"=="AMD64" set "ZF_ARCH=amd64"
if /i "%PROCESSOR_ARCHITECTURE%"=="ARM64" set "ZF_ARCH=arm64"
rem A 32-bit cmd.exe on a 64-bit Windows reports the real CPU here.
if /i "%PROCESSOR_ARCHITEW6432%"=="AMD64" set "ZF_ARCH=amd64"
if /i "%PROCESSOR_ARCHITEW6432%"=="ARM64" set "ZF_ARCH=arm64"
if not defined ZF_ARCH goto missing
set "ZF_BIN=%~dp0zcode-fence-windows-%ZF_ARCH%.exe"
if not exist "%ZF_BIN%" goto missing
"%ZF_BIN%" %*
exit /b %ERRORLEVEL%

:missing
if not defined ZF_ARCH set "ZF_ARCH=unknown"
echo {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"[zcode-fence: not installed] zcode-fence has no binary for windows-%ZF_ARCH%, so this call was not checked. Build it in a zcode-fence checkout with: go run ./tools/bundle"}}
exit /b 0
