// Package modroot finds the checkout's module root for the project's own
// tools and test helpers (never for the hook: an installed binary has no
// checkout).
package modroot

import (
	"errors"
	"os"
	"path/filepath"
)

// FromWorkingDir returns the nearest directory at or above the working
// directory that holds go.mod. Cost: one stat per level walked.
func FromWorkingDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("no go.mod at or above the working directory; run it inside the checkout")
		}
		dir = up
	}
}
