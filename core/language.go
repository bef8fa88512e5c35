package core

import "strings"

// Language is the language ask reasons are written in.
type Language string

const (
	Chinese Language = "zh"
	English Language = "en"
)

// LanguageOption is the option the host puts in every layer's
// Call.Options (built-in and third-party): the user's language setting,
// "zh" or "en" (the setting's "auto" is resolved before a layer sees it).
const LanguageOption = "language"

// AutoLanguage is the setting value that picks the language from the
// environment (AutoLanguageFor).
const AutoLanguage = "auto"

// AutoLanguageFor resolves the language setting "auto": Chinese under
// ZCode (ZCODE_APP_VERSION, which ZCode sets in every child process, or
// the ZCODE_PLUGIN_ROOT it gives plugin hooks) or when the locale is
// Chinese (the first of LC_ALL, LC_MESSAGES, LANG that is set starts with
// "zh"), else English. why names what decided, for explain and doctor.
func AutoLanguageFor(lookup func(string) (string, bool)) (l Language, why string) {
	for _, k := range []string{"ZCODE_APP_VERSION", "ZCODE_PLUGIN_ROOT"} {
		if v, ok := lookup(k); ok && v != "" {
			return Chinese, "auto: ZCode (" + k + ")"
		}
	}
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v, ok := lookup(k); ok && v != "" {
			if l, _ := ParseLanguage(v); l == Chinese {
				return Chinese, "auto: " + k + "=" + v
			}
			return English, "auto: " + k + "=" + v
		}
	}
	return English, "auto: no ZCode, no locale"
}

// ParseLanguage is the one reader of a language setting, used by the
// config loader and by every layer: surrounding space and case are
// ignored, and a region or encoding suffix is dropped ("zh-CN", "en_US",
// "zh_CN.UTF-8"). ok is false for anything but Chinese or English.
func ParseLanguage(s string) (l Language, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.IndexAny(s, "-_"); i > 0 {
		s = s[:i]
	}
	switch Language(s) {
	case Chinese:
		return Chinese, true
	case English:
		return English, true
	}
	return "", false
}

// Language returns the call's LanguageOption as ParseLanguage reads it, or
// "" when the option is absent or names neither language (the host always
// sets it; a caller picks its own fallback for calls built by hand).
func (c *Call) Language() Language {
	if c == nil {
		return ""
	}
	l, _ := ParseLanguage(c.Option(LanguageOption, ""))
	return l
}
