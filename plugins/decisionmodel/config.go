package decisionmodel

import (
	"strconv"
	"time"

	"github.com/zcode-fence/zcode-fence/core/config"
)

// The layer's settings, read from core.Call.Options. The keys are exactly
// the config keys; the host passes their values (and core.LanguageOption)
// through unchanged, after applying the ZCODE_FENCE_<KEY> overrides.
const (
	KeyEndpoint   = "decision_model_endpoint"
	KeyModel      = "decision_model_model"
	KeyAPIKey     = "decision_model_api_key"
	KeyStrictness = "decision_model_strictness"
	KeyTimeoutMS  = "decision_model_timeout_ms"
	KeyHeaders    = "decision_model_headers"
	KeyProxy      = "decision_model_proxy"
	KeyPrompt     = "decision_model_prompt"
	KeyCache      = "decision_model_cache"
)

const (
	// DefaultTimeout is used when decision_model_timeout_ms is absent or
	// not a positive integer.
	DefaultTimeout = defaultTimeoutMillis * time.Millisecond
	// MaxTimeout caps decision_model_timeout_ms (the hook itself has 5 s).
	MaxTimeout = maxTimeoutMillis * time.Millisecond
	// MaxPromptChars caps decision_model_prompt, in characters, after
	// redaction.
	MaxPromptChars = 1000

	defaultTimeoutMillis = 3500
	maxTimeoutMillis     = 4000
	defaultStrictness    = "1"
	defaultCache         = "true"
)

var defaultTimeoutMS = strconv.Itoa(defaultTimeoutMillis)

// Enable is the setting that switches the decision model on.
var Enable = config.Spec{
	Key: "enable_decision_model", Kind: config.Bool, Default: "false",
	Title:       "Decision model",
	Description: "Ask an OpenAI-compatible model about calls the rules let through. Off by default; while off, zcode-fence makes no network request.",
}

// Settings declares the layer's own settings, in the order the settings UI
// lists them.
var Settings = []config.Spec{
	{
		Key: KeyEndpoint, Kind: config.String,
		Title:       "Decision model endpoint",
		Description: "The full POST URL of the chat completions endpoint. https, or http for localhost and private networks.",
	},
	{
		Key: KeyModel, Kind: config.String,
		Title:       "Decision model name",
		Description: "The model field of the request. Left out of the request when empty.",
	},
	{
		Key: KeyAPIKey, Kind: config.String, Sensitive: true,
		Title:       "Decision model API key",
		Description: "Sent as a Bearer token. ZCODE_FENCE_DECISION_MODEL_API_KEY in the environment wins. ZCode keeps this value in plain text in its config file.",
	},
	{
		Key: KeyStrictness, Kind: config.Enum, Default: defaultStrictness, Choices: []string{"0", "1", "2"},
		Canon:       canonStrictness,
		Title:       "Decision model strictness",
		Description: "0 lenient, 1 standard, 2 strict. Other values fall back to 1.",
	},
	{
		Key: KeyTimeoutMS, Kind: config.Int, Default: defaultTimeoutMS, Min: 1, Max: maxTimeoutMillis,
		Title:       "Decision model timeout (ms)",
		Description: "How long to wait for the model, in milliseconds; at most 4000 (the hook has 5 s in all). On timeout the call goes through.",
	},
	{
		Key: KeyHeaders, Kind: config.String, Sensitive: true,
		Title:       "Decision model extra headers",
		Description: "Extra request headers, separated by ';', each as Name: Value.",
	},
	{
		Key: KeyProxy, Kind: config.String,
		Title:       "Decision model proxy",
		Description: "An http://, https:// or socks5:// proxy for the model request. Empty: the environment's proxy settings (NO_PROXY honoured; localhost always direct).",
	},
	{
		Key: KeyPrompt, Kind: config.String,
		Title:       "Decision model extra policy",
		Description: "Optional text added to the built-in policy (it never replaces the five built-in questions). Redacted and cut to 1000 characters.",
	},
	{
		Key: KeyCache, Kind: config.Bool, Default: defaultCache,
		Title:       "Decision model cache",
		Description: "Remember the model's verdict for an identical call for a while, so repeated calls do not wait for the model again.",
	},
}

// canonStrictness reads a whole number written as a JSON number (1.0) as
// the choice it names ("1").
func canonStrictness(v string) string {
	if f, err := strconv.ParseFloat(v, 64); err == nil && f == float64(int(f)) {
		return strconv.Itoa(int(f))
	}
	return v
}
