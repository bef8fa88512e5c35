//go:build !unix

package main

import "testing"

// holdLogLock does nothing where the test cannot take the lock the way
// core/internal/filelock does; the run is then uncontended.
func holdLogLock(t *testing.T, dir string) func() { return func() {} }
