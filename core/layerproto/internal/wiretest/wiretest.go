// Package wiretest holds what the layer protocol's tests share: the calls
// every conversion and every process round trip must carry unchanged
// (calls.json), and the one normalisation proto3 forces on them. Only
// tests import it.
package wiretest

import (
	_ "embed"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/zcode-fence/zcode-fence/core"
)

//go:embed calls.json
var callsJSON []byte

// Case is one named call of calls.json.
type Case struct {
	Name string    `json:"name"`
	Call core.Call `json:"call"`
}

// Calls returns the cases of calls.json (a fresh copy on every call).
func Calls(t testing.TB) []Case {
	t.Helper()
	var cases []Case
	if err := json.Unmarshal(callsJSON, &cases); err != nil {
		t.Fatalf("wiretest/calls.json: %v", err)
	}
	if len(cases) == 0 {
		t.Fatal("wiretest/calls.json holds no cases")
	}
	return cases
}

// Pipeline returns a realistic shell call of calls.json, one with at least
// three commands (a pipeline with sudo, redirects and a cd chain), for
// benchmarks.
func Pipeline(t testing.TB) *core.Call {
	t.Helper()
	for _, tc := range Calls(t) {
		if tc.Call.Script != nil && len(tc.Call.Script.Commands) >= 3 {
			call := tc.Call
			return &call
		}
	}
	t.Fatal("wiretest/calls.json has no shell call with three commands")
	return nil
}

// Normalized returns a deep copy of v with every empty slice and map set to
// nil: the one distinction proto3 cannot carry.
func Normalized[T any](v T) T {
	in := reflect.ValueOf(&v).Elem()
	out := reflect.New(in.Type()).Elem()
	copyNormalized(out, in)
	return out.Interface().(T)
}

func copyNormalized(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		dst.Set(reflect.New(src.Type().Elem()))
		copyNormalized(dst.Elem(), src.Elem())
	case reflect.Struct:
		for i := 0; i < src.NumField(); i++ {
			copyNormalized(dst.Field(i), src.Field(i))
		}
	case reflect.Slice:
		if src.Len() == 0 {
			return
		}
		dst.Set(reflect.MakeSlice(src.Type(), src.Len(), src.Len()))
		for i := 0; i < src.Len(); i++ {
			copyNormalized(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.Len() == 0 {
			return
		}
		dst.Set(reflect.MakeMapWithSize(src.Type(), src.Len()))
		for _, k := range src.MapKeys() {
			dst.SetMapIndex(k, src.MapIndex(k))
		}
	default:
		dst.Set(src)
	}
}
