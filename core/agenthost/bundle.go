package agenthost

// PluginDir is the plugin, relative to the repository root and to the root
// of the published tree (both marketplaces name it as their plugin's path;
// tools/bundle checks that they agree with this).
const PluginDir = "bundle/zcode-fence"

// ExtensionDir is the Gemini CLI extension: gemini-extension.json and
// hooks/hooks.json in the directory that holds the plugin, so that a copy of
// the extension (gemini extensions install) carries the plugin's launcher
// and binaries.
const ExtensionDir = "bundle"

// GeminiManifest is the Gemini extension's manifest, relative to the
// repository root.
const GeminiManifest = ExtensionDir + "/gemini-extension.json"
