package core

// PluginName is zcode-fence's name: the plugin's and the marketplace's
// name in the agent hosts (plugin id zcode-fence@<marketplace>), and the
// name of its executable (zcode-fence, zcode-fence-<os>-<arch>[.exe]).
const PluginName = "zcode-fence"
