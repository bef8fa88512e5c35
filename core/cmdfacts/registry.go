package cmdfacts

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// The Windows registry as commands name it: reg.exe keys (HKLM\Software,
// \\host\HKLM\x), PowerShell provider paths (HKLM:\Software,
// Registry::HKEY_LOCAL_MACHINE\Software, Microsoft.PowerShell.Core\
// Registry::...), and the keys whose loss breaks Windows.

// registryHives maps the root key names, short and long, to the short
// form.
var registryHives = map[string]string{
	"HKLM": "HKLM", "HKCU": "HKCU", "HKCR": "HKCR", "HKU": "HKU", "HKCC": "HKCC",
	"HKEY_LOCAL_MACHINE": "HKLM", "HKEY_CURRENT_USER": "HKCU", "HKEY_CLASSES_ROOT": "HKCR",
	"HKEY_USERS": "HKU", "HKEY_CURRENT_CONFIG": "HKCC",
}

// criticalKeys are keys below the first level whose removal breaks
// Windows (upper-case, short hive names); a trailing "\*" stands for the
// whole subtree.
var criticalKeys = map[string]bool{
	`HKLM\SYSTEM\CURRENTCONTROLSET`: true, `HKLM\SYSTEM\CURRENTCONTROLSET\CONTROL\*`: true,
	`HKLM\SYSTEM\CURRENTCONTROLSET\SERVICES`: true, `HKLM\SYSTEM\CURRENTCONTROLSET\ENUM`: true,
	`HKLM\SYSTEM\CONTROLSET001`: true, `HKLM\SYSTEM\CONTROLSET002`: true, `HKLM\SYSTEM\SETUP`: true,
	`HKLM\SYSTEM\MOUNTEDDEVICES`: true,
	`HKLM\SOFTWARE\MICROSOFT`:    true, `HKLM\SOFTWARE\MICROSOFT\WINDOWS`: true,
	`HKLM\SOFTWARE\MICROSOFT\WINDOWS\CURRENTVERSION`: true, `HKLM\SOFTWARE\MICROSOFT\WINDOWS NT`: true,
	`HKLM\SOFTWARE\MICROSOFT\WINDOWS NT\CURRENTVERSION`:            true,
	`HKLM\SOFTWARE\MICROSOFT\WINDOWS NT\CURRENTVERSION\WINLOGON\*`: true,
	`HKLM\SOFTWARE\MICROSOFT\WINDOWS DEFENDER\*`:                   true, `HKLM\SOFTWARE\WOW6432NODE\MICROSOFT`: true,
	`HKLM\SOFTWARE\POLICIES`: true, `HKLM\SOFTWARE\CLASSES`: true, `HKCU\SOFTWARE\POLICIES`: true,
	`HKCU\SOFTWARE\CLASSES`:   true,
	`HKCU\SOFTWARE\MICROSOFT`: true, `HKCU\SOFTWARE\MICROSOFT\WINDOWS`: true,
	`HKCU\SOFTWARE\MICROSOFT\WINDOWS\CURRENTVERSION`: true,
}

// RegistryKey reads a registry path as reg.exe writes it, the hive in its
// short form: "HKLM:\Software" and "Registry::HKEY_LOCAL_MACHINE\Software"
// give "HKLM\Software". ok is false for anything else (a file path).
func RegistryKey(path string) (string, bool) {
	s := strings.ReplaceAll(path, "/", `\`)
	low := strings.ToLower(s)
	if i := strings.Index(low, "registry::"); i >= 0 && (i == 0 || strings.HasSuffix(low[:i], `\`)) {
		s = s[i+len("registry::"):]
	} else if strings.HasPrefix(s, `\\`) {
		if _, rest, ok := strings.Cut(strings.TrimPrefix(s, `\\`), `\`); ok {
			s = rest // \\host\HKLM\x
		}
	} else if hive, rest, ok := strings.Cut(s, ":"); ok {
		if _, known := registryHives[strings.ToUpper(hive)]; !known {
			return "", false
		}
		s = hive + `\` + rest
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '\\' })
	if len(parts) == 0 {
		return "", false
	}
	short, ok := registryHives[strings.ToUpper(parts[0])]
	if !ok {
		return "", false
	}
	parts[0] = short
	return strings.Join(parts, `\`), true
}

// RegistryKeyCritical reports whether deleting key (RegistryKey form)
// breaks Windows: a root key (RegistryRoot) or a system key
// (RegistrySystemKey).
func RegistryKeyCritical(key string) bool {
	return RegistryRoot(key) || RegistrySystemKey(key)
}

// registryParts upper-cases key and splits it, a trailing "\*" (every
// subkey) judged as the key it is under.
func registryParts(key string) []string {
	k := strings.ToUpper(strings.TrimSuffix(strings.TrimSuffix(key, `\*`), `\`))
	return strings.Split(k, `\`)
}

// RegistryRoot reports a hive or a key directly below one (HKLM,
// HKLM\Software).
func RegistryRoot(key string) bool {
	parts := registryParts(key)
	_, hive := registryHives[parts[0]]
	return hive && len(parts) <= 2
}

// RegistrySystemKey reports one of the deeper keys Windows needs (the
// control set and everything under its Control key, the Windows and
// Windows NT version keys, Winlogon, Defender, Policies, Classes ...):
// deleting it, or a value in a subtree marked whole, breaks the system.
func RegistrySystemKey(key string) bool {
	parts := registryParts(key)
	if len(parts) <= 2 {
		return false
	}
	if criticalKeys[strings.Join(parts, `\`)] {
		return true
	}
	for i := len(parts); i > 1; i-- {
		if criticalKeys[strings.Join(parts[:i], `\`)+`\*`] {
			return true
		}
	}
	return false
}

// RegistryWord reads a word as a registry key in dialect d, with the
// command's directory chain cd (PowerShell's Set-Location HKLM:\ makes a
// relative key relative to it).
func RegistryWord(w ir.Word, cd []ir.Word) (string, bool) {
	if w.Unknown {
		return "", false
	}
	if k, ok := RegistryKey(w.Value); ok {
		return k, true
	}
	v := w.Value
	if strings.HasPrefix(v, `\`) || strings.HasPrefix(v, "/") || strings.Contains(v, ":") {
		return "", false
	}
	for i := len(cd) - 1; i >= 0; i-- {
		step := cd[i]
		if step.Unknown {
			return "", false
		}
		if base, ok := RegistryKey(step.Value); ok {
			rel := v
			for _, later := range cd[i+1:] {
				rel = strings.TrimSuffix(later.Value, `\`) + `\` + rel
			}
			return RegistryKey(base + `\` + rel)
		}
		if strings.Contains(step.Value, ":") || strings.HasPrefix(step.Value, `\`) || strings.HasPrefix(step.Value, "/") {
			return "", false // an absolute file-system step
		}
	}
	return "", false
}

// WindowsArgv returns the arguments a Windows program gets when a bash
// command line names Windows paths: a word whose source has a backslash
// before a blank (icacls C:\ /grant ...: bash read "C: /grant") is split
// at its blanks, backslashes kept, as cmd.exe would. Other words are
// unchanged. Cost: linear in the words.
func WindowsArgv(ws []ir.Word) []ir.Word {
	var out []ir.Word
	for _, w := range ws {
		raw := w.Raw
		if w.Unknown || strings.ContainsAny(raw, `'"$`+"`") || !strings.Contains(raw, `\ `) && !strings.Contains(raw, "\\\t") {
			out = append(out, w)
			continue
		}
		for _, f := range strings.Fields(raw) {
			out = append(out, Literal(f))
		}
	}
	return out
}
