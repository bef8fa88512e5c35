// Package core holds the contract every zcode-fence layer implements and the
// verdict merge. It is deliberately small: a layer author needs only Layer,
// Call and Verdict, and the host (package core/host) needs nothing from a
// layer beyond this contract.
//
// A layer never answers "allow" or "deny". It either stays Silent (the host
// lets the agent's own permission mode decide) or asks the user to confirm.
// Errors and timeouts count as Silent: the guard fails open, and the host
// records the failure in the decision log.
package core
