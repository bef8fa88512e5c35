package steps

import "testing"

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
