package main

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// setJSON returns doc with the value at path (object keys and array
// indices) replaced by value, every other byte unchanged: key order,
// indentation and the rest of the document stay as written (the userConfig
// order of a plugin manifest is what the hosts' settings pages show).
func setJSON(doc []byte, path []any, value any) ([]byte, error) {
	var enc bytes.Buffer
	e := json.NewEncoder(&enc)
	e.SetEscapeHTML(false)
	if err := e.Encode(value); err != nil {
		return nil, err
	}
	start, end, err := valueSpan(doc, path)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(doc)+enc.Len())
	out = append(out, doc[:start]...)
	out = append(out, bytes.TrimSuffix(enc.Bytes(), []byte("\n"))...)
	return append(out, doc[end:]...), nil
}

// getJSON decodes the value at path into v.
func getJSON(doc []byte, path []any, v any) error {
	start, end, err := valueSpan(doc, path)
	if err != nil {
		return err
	}
	return json.Unmarshal(doc[start:end], v)
}

// valueSpan finds the bytes of the value at path in doc.
func valueSpan(doc []byte, path []any) (int, int, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return 0, 0, err
	}
	end := int(dec.InputOffset())
	start := end - len(raw)
	if len(path) == 0 {
		return start, end, nil
	}
	s, e, err := childSpan(raw, path)
	if err != nil {
		return 0, 0, err
	}
	return start + s, start + e, nil
}

// childSpan finds path[0] inside the object or array raw, then the rest of
// the path inside that value.
func childSpan(raw []byte, path []any) (int, int, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return 0, 0, err
	}
	for i := 0; dec.More(); i++ {
		match := false
		switch key := path[0].(type) {
		case string:
			if tok != json.Delim('{') {
				return 0, 0, fmt.Errorf("%q: not inside an object", key)
			}
			k, err := dec.Token()
			if err != nil {
				return 0, 0, err
			}
			match = k == key
		case int:
			if tok != json.Delim('[') {
				return 0, 0, fmt.Errorf("[%d]: not inside an array", key)
			}
			match = i == key
		default:
			return 0, 0, fmt.Errorf("path element %v is neither a key nor an index", key)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return 0, 0, err
		}
		if !match {
			continue
		}
		end := int(dec.InputOffset())
		start := end - len(v)
		if len(path) == 1 {
			return start, end, nil
		}
		s, e, err := childSpan(v, path[1:])
		if err != nil {
			return 0, 0, err
		}
		return start + s, start + e, nil
	}
	return 0, 0, fmt.Errorf("%v: not found", path[0])
}
