package core

// Version is zcode-fence's release version. The plugin manifests carry the
// same number (a test keeps them equal).
const Version = "0.1.0"
