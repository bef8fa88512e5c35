package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

func TestMutualExclusion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	counter := filepath.Join(t.TempDir(), "n")
	if err := os.WriteFile(counter, []byte("0"), 0o600); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				l, err := Acquire(path, 5*time.Second)
				if err != nil {
					t.Error(err)
					return
				}
				b, _ := os.ReadFile(counter)
				n, _ := strconv.Atoi(string(b))
				os.WriteFile(counter, []byte(strconv.Itoa(n+1)), 0o600)
				l.Unlock()
			}
		}()
	}
	wg.Wait()
	b, _ := os.ReadFile(counter)
	if string(b) != "200" {
		t.Fatalf("counter = %s, want 200: the lock did not exclude", b)
	}
}

func TestTimeout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	l, err := Acquire(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	if _, err := Acquire(path, 20*time.Millisecond); !errors.Is(err, ErrTimeout) {
		t.Fatalf("second Acquire err = %v, want ErrTimeout", err)
	}
}

func TestUnwritableDir(t *testing.T) {
	if _, err := Acquire(filepath.Join(t.TempDir(), "missing", "x.lock"), time.Millisecond); err == nil {
		t.Fatal("Acquire in a missing directory succeeded")
	}
	var l *Lock
	l.Unlock() // must not panic
}
