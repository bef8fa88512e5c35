package steps

import (
	"reflect"
	"strconv"
	"sync"
	"testing"
)

func TestCounter(t *testing.T) {
	c := New(10)
	if !c.Spend(4) || !c.Spend(6) || c.Exhausted() {
		t.Fatalf("within the limit: used %d, exhausted %v", c.Used(), c.Exhausted())
	}
	if c.Spend(1) || !c.Exhausted() || c.Spend(0) {
		t.Fatal("past the limit, Spend still reports room")
	}
	if c.Used() != 11 || c.Limit() != 10 || c.String() != "11" {
		t.Fatalf("used %d limit %d string %q", c.Used(), c.Limit(), c.String())
	}
	if New(0).Spend(1) {
		t.Fatal("a zero budget allowed a step")
	}
}

func TestCosts(t *testing.T) {
	for _, tc := range []struct {
		n, want int
	}{{0, 1}, {PathChunk - 1, 1}, {PathChunk, 2}, {4096, 17}} {
		if got := Path(tc.n); got != tc.want {
			t.Errorf("Path(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
	for _, tc := range []struct {
		path string
		want int
	}{{"", 1}, {"/", 2}, {"/a/b/c", 4}, {`C:\a\b`, 3}} {
		if got := FS(tc.path); got != tc.want {
			t.Errorf("FS(%q) = %d, want %d", tc.path, got, tc.want)
		}
	}
}

func TestAnnotations(t *testing.T) {
	for _, used := range []int{0, 7, sharedCounts - 1, sharedCounts, 1 << 20} {
		var c Counter
		c.Reset(used + 1)
		c.Spend(used)
		a, b := c.Annotations(), c.Annotations()
		if len(a) != 1 || a[Annotation] != c.String() || len(b) != 1 || b[Annotation] != c.String() {
			t.Fatalf("used %d: annotations %v and %v, want {%s: %s}", used, a, b, Annotation, c.String())
		}
		// Shared below sharedCounts, fresh above: the same map or not.
		same := reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
		if same != (used < sharedCounts) {
			t.Errorf("used %d: two calls share one map = %v", used, same)
		}
		if c.Exhausted() || c.Limit() != used+1 {
			t.Errorf("Reset(%d): limit %d, exhausted %v", used+1, c.Limit(), c.Exhausted())
		}
	}
}

// TestAnnotationsConcurrent makes and reads the shared maps from several
// goroutines (run with -race).
func TestAnnotationsConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 200; n++ {
				var c Counter
				c.Reset(1000)
				c.Spend(n)
				if got := c.Annotations()[Annotation]; got != strconv.Itoa(n) {
					t.Errorf("steps %d: annotation %q", n, got)
					return
				}
			}
		}()
	}
	wg.Wait()
}
